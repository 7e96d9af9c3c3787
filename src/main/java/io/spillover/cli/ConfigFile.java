package io.spillover.cli;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code ~/.spillover/config} (or {@code SPILLOVER_CONFIG_FILE}), laid out as the AWS CLI's config: sections
 * {@code [default]} and {@code [profile NAME]} of {@code key = value} lines ({@code url}, {@code token},
 * {@code team}). It holds tokens, so it is written readable by its owner only (mode 600, in a directory of mode
 * 700), through a temporary file moved into place so a reader never sees half of it.
 */
final class ConfigFile {

    static final String DEFAULT = "default";

    private final Path path;

    ConfigFile(Path path) {
        this.path = path;
    }

    static ConfigFile of(Invocation invocation) {
        String override = invocation.env("SPILLOVER_CONFIG_FILE");
        return new ConfigFile(override != null ? Path.of(override)
                : invocation.home().resolve(".spillover").resolve("config"));
    }

    Path path() {
        return path;
    }

    /** Every profile with its settings, in the file's order; none when there is no file. */
    Map<String, Map<String, String>> profiles() {
        var profiles = new LinkedHashMap<String, Map<String, String>>();
        if (!Files.exists(path)) {
            return profiles;
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(path);
        } catch (IOException e) {
            throw new UsageException("cannot read " + path + ": " + e.getMessage());
        }
        Map<String, String> section = null;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#") || line.startsWith(";")) {
                continue;
            }
            if (line.startsWith("[") && line.endsWith("]")) {
                String name = line.substring(1, line.length() - 1).strip();
                name = name.startsWith("profile ") ? name.substring("profile ".length()).strip() : name;
                section = profiles.computeIfAbsent(name, n -> new LinkedHashMap<>());
            } else if (line.contains("=") && section != null) {
                int equals = line.indexOf('=');
                section.put(line.substring(0, equals).strip(), line.substring(equals + 1).strip());
            } else {
                throw new UsageException(path + " line " + (i + 1) + ": expected [profile NAME] or key = value, not "
                        + (line.length() > 40 ? line.substring(0, 40) + "..." : line));
            }
        }
        return profiles;
    }

    /** Replaces one profile's settings and keeps the others. */
    void save(String profile, Map<String, String> settings) {
        Map<String, Map<String, String>> profiles = profiles();
        profiles.put(profile, settings);
        var text = new StringBuilder("# Written by `spillover login`; holds API tokens: keep it private.\n");
        profiles.forEach((name, values) -> {
            text.append('\n').append(DEFAULT.equals(name) ? "[default]" : "[profile " + name + "]").append('\n');
            values.forEach((key, value) -> text.append(key).append(" = ").append(value).append('\n'));
        });
        try {
            Path dir = path.toAbsolutePath().getParent();
            boolean posix = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
            if (!Files.isDirectory(dir)) {
                if (posix) {
                    Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(
                            PosixFilePermissions.fromString("rwx------")));
                } else {
                    Files.createDirectories(dir);
                }
            }
            Path temporary = posix
                    ? Files.createTempFile(dir, ".config", ".tmp",
                            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))
                    : Files.createTempFile(dir, ".config", ".tmp");
            Files.writeString(temporary, text);
            try {
                Files.move(temporary, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, path, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UsageException("cannot write " + path + ": " + e.getMessage());
        }
    }
}
