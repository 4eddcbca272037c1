package org.ziggurat.platform.time;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
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

    /**
     * {@link #FORMAT}'s text, written by hand for the years 0 to 9999: every timestamp of every
     * JSON body goes through here, and the formatter's way (fields looked up one by one, the
     * fraction through BigDecimal) costs far more than the few digits it writes.
     */
    public static String format(Instant instant) {
        if (instant == null) {
            return null;
        }
        long seconds = instant.getEpochSecond();
        LocalDate date = LocalDate.ofEpochDay(Math.floorDiv(seconds, SECONDS_PER_DAY));
        int year = date.getYear();
        if (year < 0 || year > 9999) {
            return FORMAT.format(instant);
        }
        int secondOfDay = (int) Math.floorMod(seconds, SECONDS_PER_DAY);
        byte[] text = new byte[24];
        digits(text, 0, year, 4);
        text[4] = '-';
        digits(text, 5, date.getMonthValue(), 2);
        text[7] = '-';
        digits(text, 8, date.getDayOfMonth(), 2);
        text[10] = 'T';
        digits(text, 11, secondOfDay / 3600, 2);
        text[13] = ':';
        digits(text, 14, secondOfDay / 60 % 60, 2);
        text[16] = ':';
        digits(text, 17, secondOfDay % 60, 2);
        text[19] = '.';
        digits(text, 20, instant.getNano() / 1_000_000, 3);
        text[23] = 'Z';
        return new String(text, StandardCharsets.US_ASCII);
    }

    private static final long SECONDS_PER_DAY = 86_400;

    /** {@code value} in {@code width} decimal digits, zero-padded, at {@code at}. */
    private static void digits(byte[] text, int at, int value, int width) {
        for (int i = at + width - 1; i >= at; i--) {
            text[i] = (byte) ('0' + value % 10);
            value /= 10;
        }
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
