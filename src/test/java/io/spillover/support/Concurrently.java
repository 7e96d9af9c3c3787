package io.spillover.support;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;

/** Runs n calls at once (released together by a latch) and answers their results in order. */
public final class Concurrently {

    private Concurrently() {
    }

    public static <T> List<T> run(int n, IntFunction<T> call) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            var start = new CountDownLatch(1);
            var futures = new ArrayList<Future<T>>();
            for (int i = 0; i < n; i++) {
                int index = i;
                Callable<T> task = () -> {
                    start.await();
                    return call.apply(index);
                };
                futures.add(pool.submit(task));
            }
            start.countDown();
            var results = new ArrayList<T>();
            for (Future<T> future : futures) {
                results.add(future.get());
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }
}
