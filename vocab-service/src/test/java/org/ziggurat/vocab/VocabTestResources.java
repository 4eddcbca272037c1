package org.ziggurat.vocab;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import org.ziggurat.platform.testing.NamespaceDirectoryDouble;
import org.ziggurat.platform.testing.PlatformTestKeys;
import org.ziggurat.platform.testing.PostgresTestDatabase;

/** The module's test resources: one database, one set of keys, one directory double, for every test class. */
@QuarkusTestResource(value = PostgresTestDatabase.class, initArgs = {
        @ResourceArg(name = "database", value = "ziggurat_test_vocab"),
        @ResourceArg(name = "schema", value = "vocab")})
@QuarkusTestResource(value = PlatformTestKeys.class, initArgs = @ResourceArg(name = "signer", value = "vocab-service"))
@QuarkusTestResource(NamespaceDirectoryDouble.class)
public final class VocabTestResources {

    private VocabTestResources() {
    }
}
