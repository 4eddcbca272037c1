package org.ziggurat.directory.client;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.ziggurat.platform.problem.DependencyUnavailable;
import org.ziggurat.platform.testing.NamespaceDirectoryDouble;
import org.ziggurat.platform.testing.PlatformTestKeys;
import org.ziggurat.platform.token.Caller;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

@QuarkusTest
// Looking a namespace up signs a service token: this process signs as a service.
@QuarkusTestResource(value = PlatformTestKeys.class, restrictToAnnotatedClass = true,
        initArgs = @ResourceArg(name = "signer", value = "vocab-service"))
@QuarkusTestResource(value = NamespaceDirectoryDouble.class, restrictToAnnotatedClass = true)
class NamespaceDirectoryTest {

    @Inject
    NamespaceDirectory namespaces;

    @Test
    void aCallerWhoLeavesDoesNotFailOthersWaitingForTheSameNamespace() throws Exception {
        Caller anonymous = Caller.anonymous();
        // Both wait on one look-up of a namespace nobody asked for yet; the first is cancelled at once.
        Uni<Namespace> leaving = namespaces.lookup("lab", anonymous);
        Uni<Namespace> staying = namespaces.lookup("lab", anonymous);
        Cancellable first = leaving.subscribe().with(ns -> { }, failure -> { });
        CompletableFuture<Namespace> second = staying.subscribeAsCompletionStage().toCompletableFuture();
        first.cancel();
        assertEquals("lab", second.get(10, TimeUnit.SECONDS).name());
        assertEquals("lab", namespaces.lookup("lab", anonymous).await().atMost(Duration.ofSeconds(10)).name());
    }

    @Test
    void aDirectoryThatCannotServeIsADependencyUnavailableNotACrash() {
        CompletableFuture<Namespace> lookup = namespaces.lookup(NamespaceDirectoryDouble.UNAVAILABLE, Caller.anonymous())
                .subscribeAsCompletionStage().toCompletableFuture();
        ExecutionException failed = assertThrows(ExecutionException.class, () -> lookup.get(10, TimeUnit.SECONDS));
        assertInstanceOf(DependencyUnavailable.class, failed.getCause());
    }
}
