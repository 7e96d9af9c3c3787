package io.spillover.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Items handed while a write runs are written together by the next write; an item handed alone is written at once;
 * one bad item of a group fails alone. The writes here record the groups they were given, and the first can be held
 * open to let others queue behind it.
 */
class GroupWriterTest {

    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final List<List<String>> groups = Collections.synchronizedList(new ArrayList<>());
    private final CountDownLatch firstWriteMayEnd = new CountDownLatch(1);
    private final CountDownLatch firstWriteRuns = new CountDownLatch(1);

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    /** Writes a group as one transaction would: all or none, and none when any item is "bad". */
    private List<String> write(List<String> items) {
        if (groups.isEmpty() && items.contains("held")) {
            firstWriteRuns.countDown();
            try {
                firstWriteMayEnd.await();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }
        groups.add(List.copyOf(items));
        if (items.contains("bad")) {
            throw new IllegalArgumentException("bad is refused, and the group with it");
        }
        return items.stream().map(item -> item + " written").toList();
    }

    private CompletableFuture<String> hand(GroupWriter<String, String> writer, String item) {
        return CompletableFuture.supplyAsync(() -> writer.write(item), threads);
    }

    /**
     * Hands "held", whose write then waits for {@code firstWriteMayEnd}, and once it runs the items, one thread each;
     * returns when all of them wait for a write to take them. Their futures, "held" first.
     */
    private List<CompletableFuture<String>> behindAHeldWrite(GroupWriter<String, String> writer, List<String> items)
            throws InterruptedException {
        var handed = new ArrayList<CompletableFuture<String>>();
        handed.add(hand(writer, "held"));
        assertThat(firstWriteRuns.await(10, TimeUnit.SECONDS)).isTrue();
        items.forEach(item -> handed.add(hand(writer, item)));
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> writer.waiting() == items.size());
        return handed;
    }

    @Test
    void anItemHandedAloneIsWrittenAtOnceAndAlone() {
        var writer = new GroupWriter<String, String>(10, this::write);

        assertThat(writer.write("a")).isEqualTo("a written");
        assertThat(writer.write("b")).isEqualTo("b written");
        assertThat(groups).containsExactly(List.of("a"), List.of("b"));
    }

    @Test
    void itemsHandedWhileAWriteRunsAreWrittenTogetherByTheNextWrite() throws Exception {
        var writer = new GroupWriter<String, String>(10, this::write);
        List<CompletableFuture<String>> handed = behindAHeldWrite(writer, List.of("b", "c", "d"));
        CompletableFuture<String> held = handed.get(0);
        List<CompletableFuture<String>> queued = handed.subList(1, handed.size());

        firstWriteMayEnd.countDown();

        assertThat(held.get(10, TimeUnit.SECONDS)).isEqualTo("held written");
        for (int i = 0; i < queued.size(); i++) {
            assertThat(queued.get(i).get(10, TimeUnit.SECONDS)).isEqualTo(List.of("b", "c", "d").get(i) + " written");
        }
        assertThat(groups).hasSize(2);
        assertThat(groups.get(0)).containsExactly("held");
        assertThat(groups.get(1)).containsExactlyInAnyOrder("b", "c", "d");
    }

    @Test
    void aWriteCarriesAtMostItsLimitAndTheRestFollow() throws Exception {
        var writer = new GroupWriter<String, String>(2, this::write);
        List<CompletableFuture<String>> handed = behindAHeldWrite(writer, List.of("b", "c", "d"));
        CompletableFuture<String> held = handed.get(0);
        List<CompletableFuture<String>> queued = handed.subList(1, handed.size());

        firstWriteMayEnd.countDown();

        held.get(10, TimeUnit.SECONDS);
        for (CompletableFuture<String> future : queued) {
            future.get(10, TimeUnit.SECONDS);
        }
        assertThat(groups).hasSize(3);
        assertThat(groups.get(1)).hasSize(2);
        assertThat(groups.get(2)).hasSize(1);
    }

    @Test
    void oneBadItemOfAGroupFailsAloneAndTheOthersAreWritten() throws Exception {
        var writer = new GroupWriter<String, String>(10, this::write);
        List<CompletableFuture<String>> handed = behindAHeldWrite(writer, List.of("b", "bad", "c"));
        CompletableFuture<String> held = handed.get(0);
        CompletableFuture<String> b = handed.get(1);
        CompletableFuture<String> bad = handed.get(2);
        CompletableFuture<String> c = handed.get(3);

        firstWriteMayEnd.countDown();

        assertThat(held.get(10, TimeUnit.SECONDS)).isEqualTo("held written");
        assertThat(b.get(10, TimeUnit.SECONDS)).isEqualTo("b written");
        assertThat(c.get(10, TimeUnit.SECONDS)).isEqualTo("c written");
        assertThatThrownBy(() -> bad.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bad is refused");
        // the group of three failed as one, then each was written alone
        assertThat(groups.get(1)).containsExactlyInAnyOrder("b", "bad", "c");
        assertThat(groups.subList(2, groups.size())).containsExactlyInAnyOrder(List.of("b"), List.of("bad"),
                List.of("c"));
    }

    @Test
    void whatAWriteThrowsReachesTheThreadThatHandedTheItem() {
        var writer = new GroupWriter<String, String>(10, this::write);

        assertThatThrownBy(() -> writer.write("bad")).isInstanceOf(IllegalArgumentException.class);
        assertThat(writer.write("a")).isEqualTo("a written");
    }
}
