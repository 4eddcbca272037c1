package org.ziggurat.platform.logging;

import io.quarkus.logging.LoggingFilter;
import org.jboss.logmanager.ExtLogRecord;

import java.util.logging.Filter;
import java.util.logging.LogRecord;
import java.util.regex.Pattern;

/**
 * The last line of defence for secrets in logs: any log record whose text holds one of the
 * platform's token shapes ({@code zat_}, {@code zrt_}, {@code zac_}, {@code zcs_}, {@code zls_}
 * followed by its random part) or a JWT is written with that part replaced by {@code [redacted]}.
 * Our own code never logs secrets; this catches libraries that do at some level (quarkus-oidc
 * logs introspected tokens at DEBUG). Enabled on every handler by platform-common's configuration.
 */
@LoggingFilter(name = "redact-tokens")
public final class TokenRedaction implements Filter {

    static final Pattern SECRET = Pattern.compile(
            "\\b(?:zat|zrt|zac|zcs|zls)_[A-Za-z0-9_-]{16,}|\\beyJ[A-Za-z0-9_-]{10,}\\.[A-Za-z0-9_-]{10,}\\.[A-Za-z0-9_-]*");

    @Override
    public boolean isLoggable(LogRecord record) {
        if (record instanceof ExtLogRecord ext) {
            String text = ext.getFormattedMessage();
            if (text != null && SECRET.matcher(text).find()) {
                ext.setMessage(redact(text), ExtLogRecord.FormatStyle.NO_FORMAT);
                ext.setParameters(null);
            }
        }
        return true;
    }

    public static String redact(String text) {
        return SECRET.matcher(text).replaceAll("[redacted]");
    }
}
