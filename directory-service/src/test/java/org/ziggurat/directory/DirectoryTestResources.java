package org.ziggurat.directory;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import org.ziggurat.directory.mail.SmtpTestServer;
import org.ziggurat.platform.testing.PlatformTestKeys;
import org.ziggurat.platform.testing.PostgresTestDatabase;

/** The test resources of the whole module: one database, one set of keys, one SMTP server and one double of the peer services for every test class. */
@QuarkusTestResource(value = PostgresTestDatabase.class, initArgs = {
        @ResourceArg(name = "database", value = "ziggurat_test_directory"),
        @ResourceArg(name = "schema", value = "directory")})
@QuarkusTestResource(value = PlatformTestKeys.class, initArgs = @ResourceArg(name = "signer", value = "directory-service"))
@QuarkusTestResource(SmtpTestServer.class)
@QuarkusTestResource(org.ziggurat.directory.accountdata.PeersDouble.class)
public final class DirectoryTestResources {

    private DirectoryTestResources() {
    }
}
