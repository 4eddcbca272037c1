package org.ziggurat.events.data;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.flipkart.zjsonpatch.JsonDiff;
import com.flipkart.zjsonpatch.JsonPatch;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/** Changesets: every patch turns the old payload into the new one, and none costs quadratic time. */
class ChangesetsTest {

    static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    static final ObjectMapper MAPPER = new ObjectMapper();

    static ArrayNode numbers(int from, int count) {
        ArrayNode array = JSON.arrayNode();
        for (int i = 0; i < count; i++) {
            array.add(from + i);
        }
        return array;
    }

    @Test
    void smallPayloadsGetZjsonpatchsSmallestPatch() throws Exception {
        JsonNode before = MAPPER.readTree("{\"a\":1,\"b\":[1,2,3],\"c\":{\"x\":1}}");
        JsonNode after = MAPPER.readTree("{\"b\":[1,3,4],\"d\":{\"x\":1},\"e\":1}");
        assertEquals(JsonDiff.asJson(before, after), Changesets.diff(before, after));
    }

    /** Two arrays of 200,000 different numbers: zjsonpatch alone takes minutes (16,000 took seconds). */
    @Test
    void largeArraysAreReplacedWholeInLinearTime() {
        ObjectNode before = JSON.objectNode().set("rows", numbers(0, 200_000));
        ObjectNode after = JSON.objectNode().set("rows", numbers(1_000_000, 200_000));
        after.put("title", "new");
        JsonNode patch = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> Changesets.diff(before, after));
        assertEquals(2, patch.size(), patch.toString().substring(0, 200));
        assertEquals("/rows", patch.get(0).get("path").asText());
        assertEquals("replace", patch.get(0).get("op").asText());
        assertEquals(after, JsonPatch.apply(patch, before));
    }

    /** Many small arrays in a large payload keep their small patches, rebased under their paths. */
    @Test
    void largePayloadsKeepSmallPatchesOfTheirSmallParts() throws Exception {
        ObjectNode before = JSON.objectNode();
        ObjectNode after = JSON.objectNode();
        for (int i = 0; i < 400; i++) {
            before.set("k/" + i + "~", numbers(i, 5));
            after.set("k/" + i + "~", numbers(i + (i % 3 == 0 ? 1 : 0), 5));
        }
        JsonNode patch = Changesets.diff(before, after);
        assertEquals(after, JsonPatch.apply(patch, before));
        // Each changed array got element operations under its escaped member name, not a replacement.
        for (JsonNode op : patch) {
            org.junit.jupiter.api.Assertions.assertTrue(op.get("path").asText().matches("/k~1[0-9]+~0/[0-9]+"), op.toString());
        }
        assertEquals(true, patch.size() >= 134, patch.toString());
    }

    /** Random documents above the small limit: applying the patch always gives the new payload. */
    @Test
    void everyPatchTurnsTheOldPayloadIntoTheNewOne() {
        Random random = new Random(30);
        for (int round = 0; round < 200; round++) {
            JsonNode before = document(random, 4);
            JsonNode after = random.nextInt(4) == 0 ? document(random, 4) : mutate(before, random, 4);
            JsonNode patch = Changesets.diff(before, after);
            assertEquals(after, JsonPatch.apply(patch, before), "round " + round + ": " + patch);
        }
    }

    @Test
    void valuesAreCountedUpToTheLimit() {
        assertEquals(1, Changesets.values(JSON.numberNode(1), 10));
        assertEquals(4, Changesets.values(numbers(0, 3), 10));
        assertEquals(11, Changesets.values(numbers(0, 1000), 10), "counting stops past the limit");
    }

    /** Exactly at the small limit (2,000 values together), zjsonpatch's patch, moves included. */
    @Test
    void theSmallLimitIsInclusive() {
        ObjectNode before = JSON.objectNode().put("x", "v");
        before.set("pad", numbers(0, 997));
        ObjectNode after = JSON.objectNode().put("y", "v");
        after.set("pad", numbers(0, 997));
        assertEquals(2_000, Changesets.values(before, 5_000) + Changesets.values(after, 5_000));
        assertEquals(JsonDiff.asJson(before, after), Changesets.diff(before, after));
        assertEquals("move", Changesets.diff(before, after).get(0).get("op").asText());
    }

    /** In a large document, a pair of arrays of exactly 256 values gets element operations, not a replacement. */
    @Test
    void theSmallArrayLimitIsInclusive() {
        ObjectNode before = JSON.objectNode();
        ObjectNode after = JSON.objectNode();
        before.set("big", numbers(0, 2_000));
        after.set("big", numbers(0, 2_000));
        before.set("pair", numbers(0, 127));
        after.set("pair", numbers(1, 127));
        JsonNode patch = Changesets.diff(before, after);
        for (JsonNode op : patch) {
            org.junit.jupiter.api.Assertions.assertTrue(op.get("path").asText().startsWith("/pair/"), op.toString());
        }
        assertEquals(after, JsonPatch.apply(patch, before));
    }

    @Test
    void nestedValuesAreCountedUpToTheLimitToo() {
        ArrayNode nested = JSON.arrayNode();
        nested.add(numbers(0, 100));
        assertEquals(11, Changesets.values(nested, 10));
    }

    static JsonNode document(Random random, int depth) {
        int kind = depth == 0 ? 2 : random.nextInt(3);
        if (kind == 0) {
            ObjectNode object = JSON.objectNode();
            int members = random.nextInt(depth == 4 ? 60 : 12);
            for (int i = 0; i < members; i++) {
                object.set("m" + random.nextInt(20), document(random, depth - 1));
            }
            return object;
        }
        if (kind == 1) {
            ArrayNode array = JSON.arrayNode();
            int items = random.nextInt(random.nextInt(10) == 0 ? 600 : 12);
            for (int i = 0; i < items; i++) {
                array.add(document(random, depth - 1));
            }
            return array;
        }
        return random.nextBoolean() ? JSON.numberNode(random.nextInt(50)) : JSON.textNode("t" + random.nextInt(50));
    }

    static JsonNode mutate(JsonNode node, Random random, int depth) {
        if (node.isObject()) {
            ObjectNode copy = JSON.objectNode();
            node.fields().forEachRemaining(f -> {
                int dice = random.nextInt(10);
                if (dice > 0) {
                    copy.set(f.getKey(), dice == 1 ? document(random, Math.max(0, depth - 1)) : mutate(f.getValue(), random, depth - 1));
                }
            });
            if (random.nextInt(5) == 0) {
                copy.set("new" + random.nextInt(5), document(random, Math.max(0, depth - 1)));
            }
            return copy;
        }
        if (node.isArray()) {
            ArrayNode copy = JSON.arrayNode();
            for (JsonNode item : node) {
                int dice = random.nextInt(12);
                if (dice > 0) {
                    copy.add(dice == 1 ? document(random, Math.max(0, depth - 1)) : mutate(item, random, depth - 1));
                }
            }
            return copy;
        }
        return random.nextInt(6) == 0 ? JSON.textNode("changed") : node;
    }
}
