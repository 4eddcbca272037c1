package org.ziggurat.auth;

import io.quarkus.test.junit.QuarkusTest;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;
import org.ziggurat.platform.testing.InternalApiContract;

import java.net.URI;

/** The directory double authenticates internal calls as directory-service does (its InternalApiTest runs the same contract). */
@QuarkusTest
class DirectoryDoubleContractTest {

    @Test
    void theDoubleIsNoLaxerThanTheDirectory() throws Exception {
        String directory = ConfigProvider.getConfig().getValue("quarkus.rest-client.directory.url", String.class);
        InternalApiContract.assertAuthenticatesLikeTheService(URI.create(directory + "/internal/people?ids=101"));
        // People, memberships and roles, links, password checks: what directory-service's InternalApiTest runs too.
        InternalApiContract.World world = new InternalApiContract.World("alice", 101, "alice password 1", "lab",
                DirectoryDouble.LAB, false, 101, OAuthTestSupport.OWNER_ID, 103);
        InternalApiContract.assertPeopleLikeTheDirectory(URI.create(directory), world);
        InternalApiContract.assertApplicationLinksLikeTheDirectory(URI.create(directory), world, "ContractClient000000");
        // The standard profile claims of the account page: the directory's rules (directory's ProfileClaimsTest too).
        org.ziggurat.platform.testing.ProfileClaimsContract.assertProfileClaimsLikeTheDirectory(URI.create(directory), 101);
    }
}
