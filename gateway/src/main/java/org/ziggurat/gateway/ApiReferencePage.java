package org.ziggurat.gateway;

import java.util.ArrayList;
import java.util.Iterator;
import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;

/** The merged OpenAPI document as one readable page: operations grouped by path, with parameters. */
final class ApiReferencePage {

    private static final List<String> METHODS = List.of("get", "post", "put", "patch", "delete");

    private ApiReferencePage() {
    }

    static String render(JsonNode doc) {
        StringBuilder html = new StringBuilder(32_768);
        html.append("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Ziggurat API reference</title>")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><style>")
                .append("body{font:15px/1.5 system-ui,sans-serif;color:#1d2330;max-width:60rem;margin:2rem auto;padding:0 1rem}")
                .append("h1{font-size:1.6rem}h2{font-size:1rem;margin:1.6rem 0 .4rem;font-family:ui-monospace,monospace}")
                .append(".op{border:1px solid #d9dee8;border-radius:8px;padding:.5rem .8rem;margin:.4rem 0}")
                .append(".m{display:inline-block;min-width:4.2rem;font-weight:700;font-family:ui-monospace,monospace}")
                .append(".get{color:#1b7f4c}.post{color:#3451b2}.put,.patch{color:#9a6700}.delete{color:#b42318}")
                .append("table{border-collapse:collapse;margin:.4rem 0}td{padding:.1rem .6rem .1rem 0;vertical-align:top}")
                .append(".muted{color:#5b6475}</style></head><body>");
        html.append("<h1>").append(esc(doc.path("info").path("title").asText())).append("</h1>");
        html.append("<p class=\"muted\">").append(esc(doc.path("info").path("description").asText()))
                .append(" Base URL: <code>").append(esc(doc.path("servers").path(0).path("url").asText()))
                .append("</code>. Machine-readable: <a href=\"openapi\">openapi</a>.</p>");
        if (doc.has("x-unavailable-services")) {
            html.append("<p class=\"muted\">Not shown, because the service did not answer: ")
                    .append(esc(doc.get("x-unavailable-services").toString())).append("</p>");
        }
        doc.path("paths").fields().forEachRemaining(path -> {
            html.append("<h2 id=\"").append(esc(path.getKey())).append("\">").append(esc(path.getKey())).append("</h2>");
            for (String method : METHODS) {
                JsonNode op = path.getValue().get(method);
                if (op == null) {
                    continue;
                }
                html.append("<div class=\"op\"><span class=\"m ").append(method).append("\">").append(method.toUpperCase())
                        .append("</span> ").append(esc(op.path("summary").asText(op.path("operationId").asText(""))));
                if (op.has("parameters") || path.getValue().has("parameters")) {
                    html.append("<table>");
                    for (JsonNode p : path.getValue().path("parameters")) {
                        parameter(html, p);
                    }
                    for (JsonNode p : op.path("parameters")) {
                        parameter(html, p);
                    }
                    html.append("</table>");
                }
                if (op.has("requestBody")) {
                    html.append("<div class=\"muted\">Body: ")
                            .append(esc(String.join(", ", iterable(op.path("requestBody").path("content").fieldNames()))))
                            .append("</div>");
                }
                html.append("<div class=\"muted\">Answers: ")
                        .append(esc(String.join(", ", iterable(op.path("responses").fieldNames())))).append("</div></div>");
            }
        });
        return html.append("</body></html>").toString();
    }

    private static void parameter(StringBuilder html, JsonNode p) {
        html.append("<tr><td><code>").append(esc(p.path("name").asText())).append("</code></td><td class=\"muted\">")
                .append(esc(p.path("in").asText())).append(p.path("required").asBoolean() ? ", required" : "")
                .append("</td><td>").append(esc(p.path("schema").path("type").asText(""))).append("</td></tr>");
    }

    private static List<String> iterable(Iterator<String> it) {
        List<String> list = new ArrayList<>();
        it.forEachRemaining(list::add);
        return list;
    }

    private static String esc(String s) {
        return s == null ? "" : s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
