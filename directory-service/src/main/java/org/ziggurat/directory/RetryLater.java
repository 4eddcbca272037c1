package org.ziggurat.directory;

import org.ziggurat.platform.problem.ProblemException;

/**
 * 429 Too Many Requests with the seconds to wait ({@code Retry-After}): a limit in a window
 * (mails to a person or an address, say) that this request went past. {@link RetryLaterMapper}
 * answers it as the platform's problem document, with the header.
 */
public class RetryLater extends ProblemException {

    private final long seconds;

    public RetryLater(String detail, long seconds) {
        super(429, "Too Many Requests", detail);
        this.seconds = Math.max(1L, seconds);
    }

    public long seconds() {
        return seconds;
    }
}
