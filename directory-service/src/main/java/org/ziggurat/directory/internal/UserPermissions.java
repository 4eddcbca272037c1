package org.ziggurat.directory.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.json.JsonObject;
import org.ziggurat.platform.problem.Problem;
import org.ziggurat.platform.problem.ProblemException;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * The spec's User permissions ({@code create, read, update, destroy, extra: {manage, comment,
 * publish}}), validated and stored whole: a flag left out is false, an unknown one is refused.
 */
public final class UserPermissions {

    static final List<String> FLAGS = List.of("create", "read", "update", "destroy");
    static final List<String> EXTRA = List.of("manage", "comment", "publish");

    private UserPermissions() {
    }

    public static JsonObject normalize(JsonNode node) {
        if (node == null || !node.isObject()) {
            throw ProblemException.invalidField("permissions", "must be an object of user permissions");
        }
        List<Problem.FieldError> errors = new ArrayList<>();
        JsonObject result = new JsonObject();
        for (String flag : FLAGS) {
            result.put(flag, flag(node, flag, "permissions." + flag, errors));
        }
        JsonNode extraNode = node.get("extra");
        JsonObject extra = new JsonObject();
        if (extraNode != null && !extraNode.isNull() && !extraNode.isObject()) {
            errors.add(new Problem.FieldError("permissions.extra", "must be an object"));
        }
        for (String flag : EXTRA) {
            extra.put(flag, extraNode != null && extraNode.isObject() && flag(extraNode, flag, "permissions.extra." + flag, errors));
        }
        result.put("extra", extra);
        unknown(node, Set.of("create", "read", "update", "destroy", "extra"), "permissions.", errors);
        if (extraNode != null && extraNode.isObject()) {
            unknown(extraNode, Set.copyOf(EXTRA), "permissions.extra.", errors);
        }
        if (!errors.isEmpty()) {
            throw ProblemException.invalid("The user permissions are not valid.", errors);
        }
        return result;
    }

    private static boolean flag(JsonNode node, String name, String path, List<Problem.FieldError> errors) {
        JsonNode value = node.get(name);
        if (value == null || value.isNull()) {
            return false;
        }
        if (!value.isBoolean()) {
            errors.add(new Problem.FieldError(path, "must be true or false"));
            return false;
        }
        return value.asBoolean();
    }

    private static void unknown(JsonNode node, Set<String> known, String prefix, List<Problem.FieldError> errors) {
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!known.contains(name)) {
                errors.add(new Problem.FieldError(prefix + name, "is not a user permission"));
            }
        }
    }
}
