package org.ziggurat.directory.internal;

import org.ziggurat.platform.testing.ServiceDatabase;

import java.sql.SQLException;

/** What the sign-in throttle holds for a key, read from its table as another session sees it. */
final class ThrottleCounts {

    private ThrottleCounts() {
    }

    /** The count under {@code key} ("person:1|address:…", "address:…", "checks:…"); 0 for none. */
    static int count(String key) throws SQLException {
        try (var c = ServiceDatabase.connect();
                var s = c.prepareStatement("SELECT failures FROM directory.login_throttle WHERE key = ?")) {
            s.setString(1, key);
            try (var rs = s.executeQuery()) {
                return rs.next() ? rs.getInt(1) : 0;
            }
        }
    }
}
