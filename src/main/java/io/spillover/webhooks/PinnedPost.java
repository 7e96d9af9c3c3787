package io.spillover.webhooks;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * One HTTP/1.1 POST to an address checked beforehand ({@link Egress}), with TLS to the URL's host name (SNI and
 * certificate checked against the name, not the address): the name is not looked up again between the check
 * and the connection, which is what lets a check against DNS rebinding hold.
 * <p>
 * Why not {@code java.net.http.HttpClient}: on Java 17 it looks names up itself and takes no resolver, and a
 * request to the checked address instead of the name would send no SNI, fail the certificate's name check and
 * could not set the {@code Host} header (a restricted header). So this sends one request on a connection of its
 * own: {@code Connection: close}, a deadline for the whole exchange, no redirects followed (a 3xx is an answer
 * like any other), and at most {@link #MAX_ANSWER} bytes of the answer read.
 */
final class PinnedPost {

    /** Of the answer's head and body together, at most this much is read. */
    static final int MAX_ANSWER = 16 * 1024;
    /** Of the answer's body, this much is kept to show with a failed attempt. */
    static final int KEPT_BODY = 300;

    /** What came back: the status, and the start of the body (for a failure's record). */
    record Answer(int status, String body) {
    }

    private PinnedPost() {
    }

    /**
     * Sends the body to the target within {@code timeout} (connecting, TLS, sending and reading the answer's
     * head all count); tries the target's addresses in turn until one connects.
     */
    static Answer send(Egress.Target target, Map<String, String> headers, byte[] body, Duration timeout)
            throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        IOException last = null;
        for (InetAddress address : target.addresses()) {
            Socket socket = new Socket();
            try {
                socket.connect(new InetSocketAddress(address, target.port()), remaining(deadline));
            } catch (IOException e) {
                close(socket);
                last = e;
                continue;
            }
            Socket connected;
            try {
                connected = target.tls() ? tls(socket, target, deadline) : socket;
            } catch (IOException e) {
                close(socket);
                throw e;
            }
            try (connected) {
                connected.setSoTimeout(remaining(deadline));
                OutputStream out = connected.getOutputStream();
                out.write(head(target, headers, body.length).getBytes(StandardCharsets.ISO_8859_1));
                out.write(body);
                out.flush();
                return read(connected, deadline);
            }
        }
        throw last != null ? last : new IOException("no address to connect to");
    }

    private static Socket tls(Socket plain, Egress.Target target, long deadline) throws IOException {
        SSLSocket socket = (SSLSocket) ((SSLSocketFactory) SSLSocketFactory.getDefault())
                .createSocket(plain, target.host(), target.port(), true);
        SSLParameters parameters = socket.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS"); // the certificate must name the host
        if (!target.host().matches("[0-9.]+") && !target.host().contains(":")) {
            parameters.setServerNames(List.of(new SNIHostName(target.host())));
        }
        socket.setSSLParameters(parameters);
        socket.setSoTimeout(remaining(deadline));
        socket.startHandshake();
        return socket;
    }

    private static String head(Egress.Target target, Map<String, String> headers, int length) {
        String path = target.uri().getRawPath() == null || target.uri().getRawPath().isEmpty() ? "/"
                : target.uri().getRawPath();
        if (target.uri().getRawQuery() != null) {
            path += "?" + target.uri().getRawQuery();
        }
        boolean defaultPort = target.port() == (target.tls() ? 443 : 80);
        String host = target.host().contains(":") ? "[" + target.host() + "]" : target.host();
        var head = new StringBuilder("POST ").append(path).append(" HTTP/1.1\r\n")
                .append("Host: ").append(host).append(defaultPort ? "" : ":" + target.port()).append("\r\n")
                .append("Content-Length: ").append(length).append("\r\n")
                .append("Connection: close\r\n");
        headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
        return head.append("\r\n").toString();
    }

    private static Answer read(Socket socket, long deadline) throws IOException {
        InputStream in = socket.getInputStream();
        var bytes = new ByteArrayOutputStream();
        byte[] buffer = new byte[2048];
        int headEnd = -1;
        while (bytes.size() < MAX_ANSWER) {
            socket.setSoTimeout(remaining(deadline));
            int n = in.read(buffer, 0, Math.min(buffer.length, MAX_ANSWER - bytes.size()));
            if (n < 0) {
                break;
            }
            bytes.write(buffer, 0, n);
            headEnd = indexOf(bytes.toByteArray(), "\r\n\r\n");
            if (headEnd >= 0 && statusOf(bytes.toByteArray()) / 100 == 2) {
                break; // a 2xx is all a delivery needs to know
            }
            if (headEnd >= 0 && bytes.size() - headEnd - 4 >= KEPT_BODY) {
                break;
            }
        }
        byte[] answer = bytes.toByteArray();
        int status = statusOf(answer);
        if (status < 0) {
            throw new IOException(answer.length == 0 ? "the receiver closed the connection without answering"
                    : "the receiver's answer is not HTTP");
        }
        String body = "";
        int end = indexOf(answer, "\r\n\r\n");
        if (end >= 0) {
            body = new String(answer, end + 4, Math.min(KEPT_BODY, answer.length - end - 4), StandardCharsets.UTF_8);
            if (new String(answer, 0, end, StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT)
                    .contains("transfer-encoding: chunked")) {
                body = body.replaceFirst("^[0-9a-fA-F]+\r\n", "");
            }
        }
        return new Answer(status, body.strip());
    }

    /** {@code HTTP/1.1 204 No Content} → 204; -1 when the bytes do not start with a status line. */
    private static int statusOf(byte[] answer) {
        int lineEnd = indexOf(answer, "\r\n");
        String line = new String(answer, 0, lineEnd < 0 ? Math.min(answer.length, 64) : lineEnd,
                StandardCharsets.ISO_8859_1);
        if (!line.startsWith("HTTP/1.") || line.length() < 12 || (lineEnd < 0 && answer.length < 12)) {
            return -1;
        }
        try {
            return Integer.parseInt(line.substring(9, 12));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static int indexOf(byte[] bytes, String text) {
        byte[] sought = text.getBytes(StandardCharsets.ISO_8859_1);
        outer:
        for (int i = 0; i + sought.length <= bytes.length; i++) {
            for (int j = 0; j < sought.length; j++) {
                if (bytes[i + j] != sought[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    private static int remaining(long deadline) throws SocketTimeoutException {
        long millis = Duration.ofNanos(deadline - System.nanoTime()).toMillis();
        if (millis <= 0) {
            throw new SocketTimeoutException("no answer in time");
        }
        return (int) Math.min(Integer.MAX_VALUE, millis);
    }

    private static void close(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // it never connected
        }
    }
}
