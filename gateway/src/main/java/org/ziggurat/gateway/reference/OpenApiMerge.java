package org.ziggurat.gateway.reference;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Set;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One OpenAPI document of the public API from the services' own: their paths (never
 * {@code /internal/**}), tags and components. A component name two services use for different
 * things is renamed in the second ({@code Directory_Person}), references included.
 */
public final class OpenApiMerge {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private OpenApiMerge() {
    }

    /** {@code documents}: service name to its document, in a stable order. */
    public static ObjectNode merge(Map<String, JsonNode> documents, String serverUrl) {
        ObjectNode merged = JSON.objectNode();
        merged.put("openapi", "3.0.3");
        ObjectNode info = merged.putObject("info");
        info.put("title", "Ziggurat API");
        info.put("version", "0.1.0");
        info.put("description", "The public API of the Ziggurat research data platform. Send access tokens as "
                + "'Authorization: Bearer <token>', 'Authorization: token <token>' or '?access_token='.");
        merged.putArray("servers").addObject().put("url", serverUrl);
        ObjectNode paths = merged.putObject("paths");
        ObjectNode components = JSON.objectNode();
        ArrayNode tags = JSON.arrayNode();
        List<String> seenTags = new ArrayList<>();
        for (Map.Entry<String, JsonNode> entry : documents.entrySet()) {
            JsonNode doc = entry.getValue().deepCopy();
            Map<String, String> renames = renames(components, doc.path("components"), prefix(entry.getKey()));
            if (!renames.isEmpty()) {
                rewriteRefs(doc, renames);
            }
            doc.path("components").fields().forEachRemaining(kind -> {
                ObjectNode target = components.has(kind.getKey()) ? (ObjectNode) components.get(kind.getKey())
                        : components.putObject(kind.getKey());
                kind.getValue().fields().forEachRemaining(c -> {
                    String name = renames.getOrDefault(kind.getKey() + "/" + c.getKey(), c.getKey());
                    target.set(name, c.getValue());
                });
            });
            doc.path("paths").fields().forEachRemaining(p -> {
                if (!p.getKey().startsWith("/internal") && !paths.has(p.getKey())) {
                    paths.set(p.getKey(), p.getValue());
                }
            });
            for (JsonNode tag : doc.path("tags")) {
                String name = tag.path("name").asText();
                if (!seenTags.contains(name)) {
                    seenTags.add(name);
                    tags.add(tag);
                }
            }
        }
        if (!tags.isEmpty()) {
            merged.set("tags", tags);
        }
        pruneUnreferenced(paths, components);
        if (!components.isEmpty()) {
            merged.set("components", components);
        }
        return merged;
    }

    /**
     * Keeps only the components that the public paths use, directly or through other components:
     * the internal API's shapes stay out of the public document.
     */
    static void pruneUnreferenced(ObjectNode paths, ObjectNode components) {
        Set<String> used = new HashSet<>();
        Deque<JsonNode> pending = new ArrayDeque<>();
        pending.add(paths);
        while (!pending.isEmpty()) {
            for (String ref : refs(pending.poll())) {
                if (ref.startsWith("#/components/") && used.add(ref)) {
                    String[] parts = ref.substring("#/components/".length()).split("/", 2);
                    JsonNode target = parts.length == 2 ? components.path(parts[0]).get(parts[1]) : null;
                    if (target != null) {
                        pending.add(target);
                    }
                }
            }
        }
        List<String> emptyKinds = new ArrayList<>();
        components.fields().forEachRemaining(kind -> {
            if (kind.getKey().equals("securitySchemes")) {
                return; // named by the operations' security requirements, never by $ref
            }
            List<String> unused = new ArrayList<>();
            kind.getValue().fieldNames().forEachRemaining(name -> {
                if (!used.contains("#/components/" + kind.getKey() + "/" + name)) {
                    unused.add(name);
                }
            });
            ((ObjectNode) kind.getValue()).remove(unused);
            if (kind.getValue().isEmpty()) {
                emptyKinds.add(kind.getKey());
            }
        });
        components.remove(emptyKinds);
    }

    private static List<String> refs(JsonNode node) {
        List<String> found = new ArrayList<>();
        if (node.isObject()) {
            node.fields().forEachRemaining(f -> {
                if (f.getKey().equals("$ref") && f.getValue().isTextual()) {
                    found.add(f.getValue().asText());
                } else {
                    found.addAll(refs(f.getValue()));
                }
            });
        } else if (node.isArray()) {
            node.forEach(child -> found.addAll(refs(child)));
        }
        return found;
    }

    /** Names in {@code incoming} that clash with a different definition already merged. */
    private static Map<String, String> renames(ObjectNode merged, JsonNode incoming, String prefix) {
        Map<String, String> renames = new HashMap<>();
        incoming.fields().forEachRemaining(kind -> {
            JsonNode existing = merged.path(kind.getKey());
            kind.getValue().fields().forEachRemaining(c -> {
                JsonNode already = existing.get(c.getKey());
                if (already != null && !already.equals(c.getValue())) {
                    renames.put(kind.getKey() + "/" + c.getKey(), prefix + "_" + c.getKey());
                }
            });
        });
        return renames;
    }

    private static void rewriteRefs(JsonNode node, Map<String, String> renames) {
        if (node.isObject()) {
            ObjectNode object = (ObjectNode) node;
            Map<String, JsonNode> replaced = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                if (field.getKey().equals("$ref") && field.getValue().isTextual()) {
                    String ref = field.getValue().asText();
                    for (Map.Entry<String, String> r : renames.entrySet()) {
                        String from = "#/components/" + r.getKey();
                        if (ref.equals(from)) {
                            replaced.put("$ref", TextNode.valueOf("#/components/" + r.getKey().substring(0,
                                    r.getKey().indexOf('/') + 1) + r.getValue()));
                        }
                    }
                } else {
                    rewriteRefs(field.getValue(), renames);
                }
            }
            replaced.forEach(object::set);
        } else if (node.isArray()) {
            node.forEach(child -> rewriteRefs(child, renames));
        }
    }

    private static String prefix(String service) {
        String stem = service.replace("-service", "");
        return Character.toUpperCase(stem.charAt(0)) + stem.substring(1);
    }
}
