package org.ziggurat.directory.factors;

import org.junit.jupiter.api.Test;
import org.ziggurat.directory.DirectoryConfig;

import java.lang.reflect.Proxy;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Sealed TOTP keys open for their person under their key only; recovery hashes are keyed and per person. */
class FactorSecretsTest {

    static FactorSecrets secrets(String key) {
        DirectoryConfig config = (DirectoryConfig) Proxy.newProxyInstance(DirectoryConfig.class.getClassLoader(),
                new Class<?>[] {DirectoryConfig.class}, (proxy, method, args) -> {
                    if (method.getName().equals("factorKey")) {
                        return java.util.Optional.of(key);
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
        return new FactorSecrets(config);
    }

    static final String KEY = "dGVzdC1vbmx5LWZhY3Rvci1rZXktMzItYnl0ZXMhISE=";
    static final String OTHER_KEY = "b3RoZXItZmFjdG9yLWtleS0zMi1ieXRlcy1sb25nISE=";

    @Test
    void aSealedKeyOpensForItsPersonOnly() {
        FactorSecrets secrets = secrets(KEY);
        byte[] key = secrets.randomBytes(20);
        byte[] sealed = secrets.seal(7, key);
        assertFalse(Arrays.equals(key, Arrays.copyOfRange(sealed, 12, 32)), "the key is not stored as it is");
        assertArrayEquals(key, secrets.open(7, sealed));
        assertThrows(IllegalStateException.class, () -> secrets.open(8, sealed));
        assertThrows(IllegalStateException.class, () -> secrets(OTHER_KEY).open(7, sealed));
    }

    @Test
    void recoveryHashesAreKeyedAndPerPerson() {
        FactorSecrets secrets = secrets(KEY);
        byte[] hash = secrets.recoveryHash(7, "abcde23456");
        assertArrayEquals(hash, secrets.recoveryHash(7, "abcde23456"));
        assertFalse(Arrays.equals(hash, secrets.recoveryHash(8, "abcde23456")));
        assertFalse(Arrays.equals(hash, secrets(OTHER_KEY).recoveryHash(7, "abcde23456")));
        assertFalse(Arrays.equals(hash, secrets.recoveryHash(7, "abcde23457")), "each code its own hash");
        assertFalse(Arrays.equals(secrets.randomBytes(20), secrets.randomBytes(20)), "keys are random");
    }

    @Test
    void aKeyOfTheWrongSizeIsRefusedAtStart() {
        assertThrows(IllegalStateException.class, () -> secrets("c2hvcnQ="));
        assertThrows(IllegalStateException.class, () -> secrets("not base64 at all!"));
    }
}
