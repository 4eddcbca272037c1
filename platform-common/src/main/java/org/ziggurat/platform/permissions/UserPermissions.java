package org.ziggurat.platform.permissions;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.json.JsonObject;
import org.ziggurat.platform.input.FieldChecks;
import org.ziggurat.platform.problem.ProblemException;

import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * The spec's User permissions ({@code create, read, update, destroy, extra: {manage, comment,
 * publish}}), the contract between auth-service (which owns them) and directory-service (which
 * records an organization's). Validated whole: a flag left out is false, an unknown one refused.
 */
public record UserPermissions(boolean create, boolean read, boolean update, boolean destroy, boolean manage,
        boolean comment, boolean publish) {

    public static final UserPermissions NONE = new UserPermissions(false, false, false, false, false, false, false);

    static final List<String> FLAGS = List.of("create", "read", "update", "destroy");
    static final List<String> EXTRA = List.of("manage", "comment", "publish");

    /** Parses and validates; {@code field} names the body field in errors ({@code permissions}, or empty for a whole body). */
    public static UserPermissions parse(JsonNode node, String field) {
        String prefix = field.isEmpty() ? "" : field + ".";
        if (node == null || !node.isObject()) {
            throw ProblemException.invalidField(field.isEmpty() ? "permissions" : field, "must be an object of user permissions");
        }
        FieldChecks errors = new FieldChecks();
        boolean[] f = new boolean[4];
        for (int i = 0; i < FLAGS.size(); i++) {
            f[i] = flag(node, FLAGS.get(i), prefix + FLAGS.get(i), errors);
        }
        JsonNode extraNode = node.get("extra");
        if (extraNode != null && !extraNode.isNull() && !extraNode.isObject()) {
            errors.add(prefix + "extra", "must be an object");
        }
        boolean[] x = new boolean[3];
        for (int i = 0; i < EXTRA.size(); i++) {
            x[i] = extraNode != null && extraNode.isObject() && flag(extraNode, EXTRA.get(i), prefix + "extra." + EXTRA.get(i), errors);
        }
        unknown(node, Set.of("create", "read", "update", "destroy", "extra"), prefix, errors);
        if (extraNode != null && extraNode.isObject()) {
            unknown(extraNode, Set.copyOf(EXTRA), prefix + "extra.", errors);
        }
        errors.throwIfFailed("The user permissions are not valid.");
        return new UserPermissions(f[0], f[1], f[2], f[3], x[0], x[1], x[2]);
    }

    public static UserPermissions fromJson(JsonObject json) {
        JsonObject extra = json.getJsonObject("extra", new JsonObject());
        return new UserPermissions(json.getBoolean("create", false), json.getBoolean("read", false),
                json.getBoolean("update", false), json.getBoolean("destroy", false), extra.getBoolean("manage", false),
                extra.getBoolean("comment", false), extra.getBoolean("publish", false));
    }

    public JsonObject toJson() {
        return new JsonObject().put("create", create).put("read", read).put("update", update).put("destroy", destroy)
                .put("extra", new JsonObject().put("manage", manage).put("comment", comment).put("publish", publish));
    }

    /** Each flag true when either has it. */
    public UserPermissions or(UserPermissions other) {
        return new UserPermissions(create || other.create, read || other.read, update || other.update,
                destroy || other.destroy, manage || other.manage, comment || other.comment, publish || other.publish);
    }

    /** {@code manage} implies every other permission. */
    public UserPermissions effective() {
        return manage ? new UserPermissions(true, true, true, true, true, true, true) : this;
    }

    private static boolean flag(JsonNode node, String name, String path, FieldChecks errors) {
        return Boolean.TRUE.equals(errors.bool(node.get(name), path));
    }

    private static void unknown(JsonNode node, Set<String> known, String prefix, FieldChecks errors) {
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!known.contains(name)) {
                errors.add(prefix + name, "is not a user permission");
            }
        }
    }
}
