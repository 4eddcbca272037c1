package org.ziggurat.events.data;

import org.ziggurat.platform.problem.ProblemException;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The rule of {@code Idempotency-Key}: a key names one request body per person and repository.
 * The same key with the same body is a replay of the first event; with another body it is refused
 * (422), never a second event.
 */
final class IdempotentReplays {

    private IdempotentReplays() {
    }

    /** What a key's replay is compared by. */
    static byte[] hash(byte[] body) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(body);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The first event's id when this is a replay of it, null when the key is new. {@code
     * afterConflict}: the write just lost a race on this key, so a first event must exist.
     */
    static Long replayOf(EventRepository.Previous previous, byte[] requestHash, boolean afterConflict) {
        if (previous == null && !afterConflict) {
            return null;
        }
        if (previous == null || !MessageDigest.isEqual(previous.requestHash(), requestHash)) {
            throw ProblemException.invalidField("Idempotency-Key", "was used before with another body");
        }
        return previous.id();
    }
}
