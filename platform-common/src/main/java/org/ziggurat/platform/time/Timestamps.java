package org.ziggurat.platform.time;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

/** The platform's one timestamp form: ISO 8601 in UTC with milliseconds ({@code 2026-01-18T11:03:26.395Z}). */
public final class Timestamps {

    public static final DateTimeFormatter FORMAT =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    private Timestamps() {
    }

    public static String format(Instant instant) {
        return instant == null ? null : FORMAT.format(instant);
    }

    /** Reads any ISO 8601 instant with an offset; empty when the text is not one. */
    public static Optional<Instant> parse(String text) {
        if (text == null || text.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(DateTimeFormatter.ISO_OFFSET_DATE_TIME.parse(text.trim(), Instant::from));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    /** The current instant at the precision we store and show. */
    public static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MILLIS);
    }
}
