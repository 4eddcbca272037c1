package org.ziggurat.events;

import io.quarkus.test.junit.QuarkusTest;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;
import org.ziggurat.platform.testing.InternalApiContract;
import org.ziggurat.platform.testing.NamespaceDirectoryDouble;

import java.net.URI;

/** The namespaces' double authenticates internal calls as directory-service does (its InternalApiTest runs the same contract). */
@QuarkusTest
class NamespaceDoubleContractTest {

    @Test
    void theDoubleIsNoLaxerThanTheDirectory() throws Exception {
        String directory = ConfigProvider.getConfig().getValue("quarkus.rest-client.directory.url", String.class);
        InternalApiContract.assertAuthenticatesLikeTheService(URI.create(directory + "/internal/namespaces/alice"));
        // Rights in namespaces: the same contract that directory-service's InternalApiTest runs.
        InternalApiContract.assertNamespacesLikeTheDirectory(URI.create(directory), new InternalApiContract.World("alice",
                NamespaceDirectoryDouble.ALICE, "", "vault", 202, true, NamespaceDirectoryDouble.BOB,
                NamespaceDirectoryDouble.ADMIN, 104));
        InternalApiContract.assertAdminNoticesLikeTheDirectory(URI.create(directory), new InternalApiContract.World("alice",
                NamespaceDirectoryDouble.ALICE, "", "vault", 202, true, NamespaceDirectoryDouble.BOB,
                NamespaceDirectoryDouble.ADMIN, 104));
    }
}
