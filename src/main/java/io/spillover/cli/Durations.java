package io.spillover.cli;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/** Durations on the command line as people write them: {@code 500ms}, {@code 2s}, {@code 10m}, {@code 1h}, {@code 2d}. */
final class Durations implements CommandLine.ITypeConverter<Duration> {

    private static final Pattern SHORT = Pattern.compile("(\\d+)(ms|s|m|h|d)");

    @Override
    public Duration convert(String value) {
        Matcher matcher = SHORT.matcher(value.strip());
        if (matcher.matches()) {
            long amount = Long.parseLong(matcher.group(1));
            Duration duration = switch (matcher.group(2)) {
                case "ms" -> Duration.ofMillis(amount);
                case "s" -> Duration.ofSeconds(amount);
                case "m" -> Duration.ofMinutes(amount);
                case "h" -> Duration.ofHours(amount);
                default -> Duration.ofDays(amount);
            };
            if (!duration.isZero()) {
                return duration;
            }
        }
        try {
            Duration duration = Duration.parse(value.strip());
            if (!duration.isNegative() && !duration.isZero()) {
                return duration;
            }
        } catch (DateTimeParseException notIso) {
            // said below
        }
        throw new CommandLine.TypeConversionException("'" + value
                + "' is not a duration above zero such as 500ms, 2s, 10m, 1h or 2d");
    }

    static String format(Duration duration) {
        long seconds = duration.toSeconds();
        if (seconds < 60) {
            return seconds + " s";
        }
        if (seconds < 3600) {
            return seconds / 60 + " min " + seconds % 60 + " s";
        }
        return seconds / 3600 + " h " + seconds % 3600 / 60 + " min";
    }
}
