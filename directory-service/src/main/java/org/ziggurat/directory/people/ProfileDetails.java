package org.ziggurat.directory.people;

import io.vertx.mutiny.sqlclient.Row;

import java.util.Arrays;
import java.util.List;

/**
 * The standard profile claims (OpenID Connect Core §5.4) a person may give beyond the name shown:
 * each optional, null when not given. {@code website} is public; the others are the person's own
 * (GET /user) and the applications' they allow the profile scope.
 */
public record ProfileDetails(String givenName, String familyName, String website, String locale, String zoneinfo) {

    /** The fields' names, which are also their columns and JSON names, in the order of the record's components. */
    public static final List<String> FIELDS = List.of("given_name", "family_name", "website", "locale", "zoneinfo");

    public static final ProfileDetails NONE = new ProfileDetails(null, null, null, null, null);

    /** The values in the order of {@link #FIELDS}. */
    public List<String> values() {
        return Arrays.asList(givenName, familyName, website, locale, zoneinfo);
    }

    static ProfileDetails of(List<String> values) {
        return new ProfileDetails(values.get(0), values.get(1), values.get(2), values.get(3), values.get(4));
    }

    static ProfileDetails from(Row row) {
        return of(FIELDS.stream().map(row::getString).toList());
    }

    /** The columns of {@link #from}, qualified by the alias the query gives the person table. */
    static String columns(String alias) {
        return String.join(", ", FIELDS.stream().map(field -> alias + "." + field).toList());
    }
}
