package org.ziggurat.events.data;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.flipkart.zjsonpatch.JsonDiff;

import java.util.Iterator;
import java.util.Map;

/**
 * The changeset of a commit: an RFC 6902 JSON Patch from an item's previous payload to its new
 * one, at a cost that stays near linear in the payloads' size.
 *
 * <p>zjsonpatch finds the smallest patch, and its array diff (a longest common subsequence, then
 * pairing removes with adds into moves) is quadratic: two arrays of 16,000 numbers took 2-5 s
 * here, 64,000 took 15 s. So zjsonpatch diffs only what is small: the whole pair when both
 * payloads together hold at most {@link #SMALL} values (every ordinary event: the same patches as
 * before), else each pair of arrays of at most {@link #SMALL_ARRAY} values. Larger documents are
 * walked here object by object, and a larger array that changed is replaced whole: a valid patch,
 * not the smallest one. With {@code ziggurat.events.max-payload-values} bounding the values of an
 * event, the worst case is a few hundred small LCS runs.
 */
public final class Changesets {

    /** Both payloads together, in values (every object, array, and scalar counts one). */
    static final int SMALL = 2_000;
    /** Both arrays of a pair together, in values. */
    static final int SMALL_ARRAY = 256;

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private Changesets() {
    }

    /** The patch that turns {@code source} into {@code target}. */
    public static JsonNode diff(JsonNode source, JsonNode target) {
        if (values(source, SMALL) + values(target, SMALL) <= SMALL) {
            return JsonDiff.asJson(source, target);
        }
        ArrayNode patch = JSON.arrayNode();
        walk("", source, target, patch);
        return patch;
    }

    private static void walk(String path, JsonNode source, JsonNode target, ArrayNode patch) {
        if (source.equals(target)) {
            return;
        }
        if (source.isObject() && target.isObject()) {
            Iterator<String> names = source.fieldNames();
            while (names.hasNext()) {
                String name = names.next();
                if (!target.has(name)) {
                    patch.add(JSON.objectNode().put("op", "remove").put("path", path + "/" + escape(name)));
                }
            }
            for (Iterator<Map.Entry<String, JsonNode>> fields = target.fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> field = fields.next();
                String at = path + "/" + escape(field.getKey());
                JsonNode before = source.get(field.getKey());
                if (before == null) {
                    patch.add(JSON.objectNode().put("op", "add").put("path", at).set("value", field.getValue()));
                } else {
                    walk(at, before, field.getValue(), patch);
                }
            }
            return;
        }
        if (source.isArray() && target.isArray()
                && values(source, SMALL_ARRAY) + values(target, SMALL_ARRAY) <= SMALL_ARRAY) {
            for (JsonNode op : JsonDiff.asJson(source, target)) {
                ObjectNode rebased = (ObjectNode) op.deepCopy();
                rebased.put("path", path + op.get("path").asText());
                if (op.has("from")) {
                    rebased.put("from", path + op.get("from").asText());
                }
                patch.add(rebased);
            }
            return;
        }
        patch.add(JSON.objectNode().put("op", "replace").put("path", path).set("value", target));
    }

    /** The number of values in a document, counted up to {@code stopPast} (then any larger number). */
    public static int values(JsonNode node, int stopPast) {
        int count = 1;
        if (node.isContainerNode()) {
            for (JsonNode child : node) {
                count += values(child, stopPast - count);
                if (count > stopPast) {
                    return count;
                }
            }
        }
        return count;
    }

    /** RFC 6901: '~' and '/' in a member name. */
    static String escape(String name) {
        return name.replace("~", "~0").replace("/", "~1");
    }
}
