package org.ziggurat.gateway.limits;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Each gateway replica's share of a limit: the limit in total, never more. */
class RateLimitSharesTest {

    @Test
    void aLimitIsDividedAmongTheReplicasNeverAboveItInTotal() {
        assertEquals(60, GatewayReplicas.share(60, 1));
        assertEquals(30, GatewayReplicas.share(60, 2));
        assertEquals(20, GatewayReplicas.share(61, 3), "rounded down: three replicas allow 60, not 63");
        assertEquals(1, GatewayReplicas.share(2, 5), "every replica lets at least one request through");
        assertEquals(60, GatewayReplicas.share(60, 0), "an unknown count is one replica");
    }
}
