package org.ziggurat.vocab;

import com.fasterxml.jackson.databind.JsonNode;
import org.ziggurat.platform.input.FieldChecks;

import java.util.MissingResourceException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Label languages (docs/decisions.md): stored as ISO 639-2/T codes, shown as
 * {@code eng (en) - English}; read from {@code en}, {@code eng} or the full string. The codes and
 * names come from the JDK's own ISO tables.
 */
public final class Languages {

    private static final Pattern FULL = Pattern.compile("([a-z]{3})(?: \\(([a-z]{2})\\))? - .+");
    private static final Map<String, Locale> BY_ISO3 = new HashMap<>();

    static {
        for (String two : Locale.getISOLanguages()) {
            Locale locale = Locale.forLanguageTag(two);
            try {
                BY_ISO3.put(locale.getISO3Language(), locale);
            } catch (MissingResourceException e) {
                // no three-letter code: not a language we can show in the platform's form
            }
        }
    }

    private Languages() {
    }

    /** The language a field names, checked into {@code checks}: its ISO 639-3 code, or null when it names none. */
    public static String parse(JsonNode node, String field, FieldChecks checks) {
        String code = node != null && node.isTextual() ? parse(node.asText()).orElse(null) : null;
        if (code == null) {
            checks.add(field, "must be a language: en, eng or 'eng (en) - English'");
        }
        return code;
    }

    /** The ISO 639-2/T code of a language given in any of the accepted forms. */
    public static Optional<String> parse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        String t = text.trim().toLowerCase(Locale.ROOT);
        Matcher full = FULL.matcher(t);
        if (full.matches()) {
            t = full.group(1);
        }
        if (t.length() == 2) {
            Locale locale = Locale.forLanguageTag(t);
            try {
                String three = locale.getISO3Language();
                return BY_ISO3.containsKey(three) ? Optional.of(three) : Optional.empty();
            } catch (MissingResourceException e) {
                return Optional.empty();
            }
        }
        if (t.length() != 3 || !t.chars().allMatch(Character::isLetter)) {
            return Optional.empty();
        }
        // Languages without a two-letter code (grc, Ancient Greek; akk, Akkadian) are known by the
        // JDK from their three-letter tag alone.
        return BY_ISO3.containsKey(t) || !name(t).equals(t) ? Optional.of(t) : Optional.empty();
    }

    private static String name(String iso3) {
        return Locale.forLanguageTag(iso3).getDisplayLanguage(Locale.ENGLISH);
    }

    /** {@code eng (en) - English}; a language with no two-letter code: {@code grc - Ancient Greek}. */
    public static String display(String iso3) {
        // Every label of every page shows its language: the JDK's display name is looked up once.
        return DISPLAY.computeIfAbsent(iso3, code -> {
            Locale locale = BY_ISO3.get(code);
            return locale == null ? code + " - " + name(code)
                    : code + " (" + locale.getLanguage() + ") - " + locale.getDisplayLanguage(Locale.ENGLISH);
        });
    }

    /** Bounded by the language codes that exist (ISO 639-2 and -3), so it needs no eviction. */
    private static final ConcurrentHashMap<String, String> DISPLAY = new ConcurrentHashMap<>();

    /** The BCP 47 tag of a stored language: its two-letter code where one exists ({@code en}), else the three-letter one ({@code grc}). */
    public static String tag(String iso3) {
        Locale locale = BY_ISO3.get(iso3);
        return locale == null ? iso3 : locale.getLanguage();
    }

    /** The stored code of a BCP 47 tag ({@code en-GB} is {@code eng}): its primary language subtag. */
    public static Optional<String> fromTag(String tag) {
        if (tag == null) {
            return Optional.empty();
        }
        int dash = tag.indexOf('-');
        return parse(dash < 0 ? tag : tag.substring(0, dash));
    }
}
