package io.spillover.sagemakerapi;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;

/** The body the signature was checked over is what the endpoint reads, blocking or not. */
class CachedBodyTest {

    private static final byte[] BODY = "{\"TrainingJobName\":\"a\"}".getBytes(StandardCharsets.UTF_8);

    @Test
    void aNonBlockingReaderIsToldTheBodyIsThereThenThatItIsAllRead() throws IOException {
        ServletInputStream in = new SignedRequests.CachedBody(new MockHttpServletRequest(), BODY).getInputStream();
        var read = new ByteArrayOutputStream();
        List<String> calls = new ArrayList<>();

        in.setReadListener(new ReadListener() {
            @Override
            public void onDataAvailable() throws IOException {
                calls.add("available");
                byte[] buffer = new byte[8];
                while (in.isReady() && !in.isFinished()) {
                    read.write(buffer, 0, in.read(buffer, 0, buffer.length));
                }
            }

            @Override
            public void onAllDataRead() {
                calls.add("all read");
            }

            @Override
            public void onError(Throwable t) {
                calls.add("error " + t);
            }
        });

        assertThat(calls).containsExactly("available", "all read");
        assertThat(read.toByteArray()).isEqualTo(BODY);
    }

    @Test
    void aBlockingReaderReadsTheSameBodyAgain() throws IOException {
        var request = new SignedRequests.CachedBody(new MockHttpServletRequest(), BODY);

        assertThat(request.getInputStream().readAllBytes()).isEqualTo(BODY);
        assertThat(request.getInputStream().readAllBytes()).isEqualTo(BODY);
    }
}
