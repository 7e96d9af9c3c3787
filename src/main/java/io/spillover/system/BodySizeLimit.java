package io.spillover.system;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.util.unit.DataSize;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Refuses request bodies over {@code spillover.http.max-body-size} (default 1 MB) with 413, whether the
 * client declares the length or streams the body.
 */
@Component
class BodySizeLimit extends OncePerRequestFilter {

    private final long limit;

    BodySizeLimit(@Value("${spillover.http.max-body-size:1MB}") DataSize limit) {
        this.limit = limit.toBytes();
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (request.getContentLengthLong() > limit) {
            tooLarge(response);
            return;
        }
        try {
            chain.doFilter(new Limited(request, limit), response);
        } catch (ServletException | RuntimeException e) {
            if (!causedByTooLarge(e) || response.isCommitted()) {
                throw e;
            }
            response.resetBuffer();
            tooLarge(response);
        }
    }

    private void tooLarge(HttpServletResponse response) throws IOException {
        response.setStatus(HttpStatus.CONTENT_TOO_LARGE.value());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        response.getWriter().write("{\"title\":\"Content Too Large\",\"status\":413,\"detail\":\"request bodies are"
                + " limited to " + limit + " bytes\"}");
    }

    static boolean causedByTooLarge(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof BodyTooLargeException) {
                return true;
            }
        }
        return false;
    }

    /** Thrown by the request stream once a body passes the limit. */
    static final class BodyTooLargeException extends IOException {
        BodyTooLargeException(long limit) {
            super("request body larger than " + limit + " bytes");
        }
    }

    private static final class Limited extends HttpServletRequestWrapper {

        private final long limit;

        Limited(HttpServletRequest request, long limit) {
            super(request);
            this.limit = limit;
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            ServletInputStream in = super.getInputStream();
            return new ServletInputStream() {
                private long read;

                @Override
                public int read() throws IOException {
                    int b = in.read();
                    count(b < 0 ? 0 : 1);
                    return b;
                }

                @Override
                public int read(byte[] buffer, int offset, int length) throws IOException {
                    int n = in.read(buffer, offset, length);
                    count(Math.max(n, 0));
                    return n;
                }

                private void count(int n) throws BodyTooLargeException {
                    read += n;
                    if (read > limit) {
                        throw new BodyTooLargeException(limit);
                    }
                }

                @Override
                public boolean isFinished() {
                    return in.isFinished();
                }

                @Override
                public boolean isReady() {
                    return in.isReady();
                }

                @Override
                public void setReadListener(ReadListener listener) {
                    in.setReadListener(listener);
                }
            };
        }
    }
}
