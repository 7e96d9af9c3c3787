package io.spillover.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * A stream of server-sent events as the HTML specification reads them: {@code event:}, {@code id:} and
 * {@code data:} lines (several data lines joined with newlines) up to a blank line; comments ({@code :...})
 * and unknown fields skipped. Closing it from another thread ends a read in progress.
 */
final class EventStream implements AutoCloseable {

    /** One event: its name ({@code message} when none was given), its id (null when none) and its data. */
    record Event(String name, String id, String data) {
    }

    private final InputStream in;
    private final BufferedReader lines;

    EventStream(InputStream in) {
        this.in = in;
        this.lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    }

    /** The next event; null when the stream has ended. A comment counts as a sign of life ({@code onLine}). */
    Event next(Runnable onLine) throws IOException {
        String name = null;
        String id = null;
        StringBuilder data = null;
        String line;
        while ((line = lines.readLine()) != null) {
            onLine.run();
            if (line.isEmpty()) {
                if (data != null) {
                    return new Event(name == null ? "message" : name, id, data.toString());
                }
                name = null;
                id = null;
                continue;
            }
            if (line.startsWith(":")) {
                continue;
            }
            int colon = line.indexOf(':');
            String field = colon < 0 ? line : line.substring(0, colon);
            String value = colon < 0 ? "" : line.substring(colon + 1);
            if (value.startsWith(" ")) {
                value = value.substring(1);
            }
            switch (field) {
                case "event" -> name = value;
                case "id" -> id = value;
                case "data" -> data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
                default -> { }
            }
        }
        return null;
    }

    @Override
    public void close() {
        try {
            in.close();
        } catch (IOException ignored) {
            // closed already
        }
    }
}
