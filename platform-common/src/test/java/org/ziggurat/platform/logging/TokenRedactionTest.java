package org.ziggurat.platform.logging;

import org.jboss.logmanager.ExtLogRecord;
import org.junit.jupiter.api.Test;

import java.util.logging.Level;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TokenRedactionTest {

    static String through(String format, Object... parameters) {
        ExtLogRecord record = new ExtLogRecord(Level.FINE, format, ExtLogRecord.FormatStyle.PRINTF, "test");
        record.setParameters(parameters);
        assertTrue(new TokenRedaction().isLoggable(record));
        return record.getFormattedMessage();
    }

    @Test
    void tokensAndJwtsAreRedactedWhereverTheyAre() {
        assertEquals("Introspect token: null params: token=[redacted]",
                through("Introspect token: %s params: token=%s", null, "zat_bxsS1RlwvDY5z_1pzPdH2WE9VyYcenAdJbXSH8L7Mjo"));
        assertEquals("refresh [redacted] and secret [redacted] and code [redacted]",
                through("refresh %s and secret %s and code %s", "zrt_HfcPICUgqVf8_DFd-7eBOxEbGFM50zk8", "zcs_0123456789abcdefghij",
                        "zac_abcdefghijklmnopqrstuvwxyz"));
        assertEquals("header X-Platform-Token: [redacted]",
                through("header X-Platform-Token: %s", "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxMDEifQ.c2lnbmF0dXJlLXBhcnQ"));
    }

    @Test
    void ordinaryLinesAreLeftAlone() {
        assertEquals("event=token_issued grant=password client_id=zcs token_id=42 zat_short",
                through("event=token_issued grant=password client_id=%s token_id=%d zat_short", "zcs", 42));
    }
}
