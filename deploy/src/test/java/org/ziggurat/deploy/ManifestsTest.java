package org.ziggurat.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Renders each overlay with kustomize (kubectl's built-in, or a kustomize binary) and checks what
 * an operator relies on: every Deployment has probes, resources and a locked-down security
 * context; every Service points at the port its module listens on (read from the module's own
 * application.properties); every Deployment has an autoscaler and a disruption budget; only the
 * gateway is reachable from outside; no secret value is in a manifest.
 */
class ManifestsTest {

    static final Path ROOT = Path.of(System.getProperty("user.dir")).getParent();
    static final Path K8S = ROOT.resolve("deploy/k8s");
    static final List<String> MODULES = List.of("gateway", "auth-service", "directory-service", "vocab-service", "events-service");
    static final Pattern SENSITIVE_NAME = Pattern.compile(".*(PASSWORD|SECRET|HASH_KEY|ENCRYPTION_KEY).*");
    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    static List<JsonNode> render(String overlay) throws Exception {
        List<String> command = kustomize(K8S.resolve("overlays/" + overlay));
        Process process = new ProcessBuilder(command).redirectErrorStream(false).start();
        byte[] out;
        try (InputStream stdout = process.getInputStream()) {
            out = stdout.readAllBytes();
        }
        String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "kustomize took over a minute");
        assertEquals(0, process.exitValue(), String.join(" ", command) + " failed:\n" + err);
        List<JsonNode> docs = new ArrayList<>();
        try (YAMLParser parser = new YAMLFactory().createParser(out)) {
            var it = YAML.readValues(parser, JsonNode.class);
            while (it.hasNext()) {
                JsonNode doc = it.next();
                if (doc != null && !doc.isNull() && !doc.isEmpty()) {
                    docs.add(doc);
                }
            }
        }
        assertFalse(docs.isEmpty(), "the overlay " + overlay + " renders nothing");
        return docs;
    }

    /** kubectl's kustomize where kubectl exists, else a kustomize binary; CI installs kubectl. */
    static List<String> kustomize(Path dir) {
        for (String[] candidate : new String[][] {{"kubectl", "kustomize"}, {"kustomize", "build"}}) {
            if (onPath(candidate[0])) {
                return List.of(candidate[0], candidate[1], dir.toString());
            }
        }
        fail("Neither kubectl nor kustomize is on the PATH: install kubectl (Debian: apt-get install kubernetes-client)");
        return null;
    }

    static boolean onPath(String program) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, program))) {
                return true;
            }
        }
        return false;
    }

    static Properties moduleConfig(String module) throws IOException {
        Properties p = new Properties();
        try (var in = Files.newBufferedReader(ROOT.resolve(module + "/src/main/resources/application.properties"))) {
            p.load(in);
        }
        return p;
    }

    static List<JsonNode> ofKind(List<JsonNode> docs, String kind) {
        return docs.stream().filter(d -> d.path("kind").asText().equals(kind)).toList();
    }

    static JsonNode named(List<JsonNode> docs, String kind, String name) {
        return ofKind(docs, kind).stream().filter(d -> d.path("metadata").path("name").asText().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + kind + " " + name));
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void everyDeploymentIsProbedSizedAndLockedDown(String overlay) throws Exception {
        List<JsonNode> docs = render(overlay);
        List<JsonNode> deployments = ofKind(docs, "Deployment");
        assertEquals(new HashSet<>(MODULES), new HashSet<>(deployments.stream().map(d -> d.at("/metadata/name").asText()).toList()));
        for (JsonNode d : deployments) {
            String module = d.at("/metadata/name").asText();
            Properties config = moduleConfig(module);
            String healthPort = config.getProperty("quarkus.management.enabled", "false").equals("true")
                    ? config.getProperty("quarkus.management.port") : config.getProperty("quarkus.http.port");
            JsonNode pod = d.at("/spec/template/spec");
            assertTrue(pod.at("/securityContext/runAsNonRoot").asBoolean(), module + " may run as root");
            assertFalse(pod.at("/automountServiceAccountToken").asBoolean(true), module + " mounts an API token");
            for (JsonNode c : pod.path("containers")) {
                String where = overlay + " " + module + "/" + c.path("name").asText();
                Map<String, Integer> ports = new HashMap<>();
                c.path("ports").forEach(p -> ports.put(p.path("name").asText(), p.path("containerPort").asInt()));
                for (String probe : List.of("livenessProbe", "readinessProbe", "startupProbe")) {
                    JsonNode get = c.path(probe).path("httpGet");
                    assertFalse(get.isMissingNode(), where + " has no " + probe);
                    JsonNode port = get.path("port");
                    int number = port.isInt() ? port.asInt() : ports.getOrDefault(port.asText(), -1);
                    assertEquals(Integer.parseInt(healthPort), number, where + " " + probe + " is not on the health port");
                }
                assertEquals("/q/health/live", c.at("/livenessProbe/httpGet/path").asText(), where);
                assertEquals("/q/health/ready", c.at("/readinessProbe/httpGet/path").asText(), where);
                for (String bound : List.of("requests", "limits")) {
                    for (String resource : List.of("cpu", "memory")) {
                        assertFalse(c.path("resources").path(bound).path(resource).asText().isEmpty(),
                                where + " has no " + bound + "." + resource);
                    }
                }
                int limit = mebibytes(c.at("/resources/limits/memory").asText());
                int heap = limit * heapPercentage(config) / 100;
                assertTrue(limit - heap >= NON_HEAP_MIB, where + ": a " + heap + " MiB heap leaves " + (limit - heap)
                        + " MiB of its " + limit + " MiB limit beside it, under the " + NON_HEAP_MIB + " MiB measured");
                assertTrue(mebibytes(c.at("/resources/requests/memory").asText()) <= limit, where + " requests more than its limit");
                JsonNode security = c.path("securityContext");
                assertTrue(security.path("readOnlyRootFilesystem").asBoolean(), where + " writes its root file system");
                assertFalse(security.path("allowPrivilegeEscalation").asBoolean(true), where + " may escalate");
                assertTrue(security.at("/capabilities/drop").toString().contains("ALL"), where + " keeps capabilities");
                assertTrue(ports.containsValue(Integer.parseInt(config.getProperty("quarkus.http.port"))),
                        where + " does not expose the port the module listens on");
                for (JsonNode env : c.path("env")) {
                    if (SENSITIVE_NAME.matcher(env.path("name").asText()).matches()) {
                        assertTrue(env.has("valueFrom") && env.at("/valueFrom/secretKeyRef").isObject(),
                                where + " sets " + env.path("name").asText() + " in the manifest, not from a Secret");
                    }
                }
            }
        }
    }

    /**
     * Behind the shipped ingress the gateway must know which peers may name the caller, or every
     * caller is the ingress's address: the setting is in every overlay, and each entry is an
     * address or CIDR block (the gateway refuses to start on anything else).
     */
    /**
     * Every service with a database LISTENs on a session straight to the primary, the server
     * Flyway migrates, never through a PgBouncer Pooler (whose transaction mode loses
     * notifications while the connection still answers).
     */
    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void notificationsNeverGoThroughThePooler(String overlay) throws Exception {
        List<JsonNode> docs = render(overlay);
        List<String> poolers = ofKind(docs, "Pooler").stream().map(d -> d.path("metadata").path("name").asText()).toList();
        assertFalse(poolers.isEmpty(), overlay + ": no Pooler to check against");
        for (String module : MODULES.subList(1, MODULES.size())) {
            JsonNode container = named(docs, "Deployment", module).at("/spec/template/spec/containers/0");
            String listen = envValue(docs, container, "ZIGGURAT_DATABASE_LISTEN_URL");
            String jdbc = envValue(docs, container, "QUARKUS_DATASOURCE_JDBC_URL");
            String reactive = envValue(docs, container, "QUARKUS_DATASOURCE_REACTIVE_URL");
            assertTrue(listen != null && listen.startsWith("postgresql://"), overlay + ": " + module + " has no listen URL");
            String host = java.net.URI.create(listen).getHost();
            for (String pooler : poolers) {
                assertFalse(host.startsWith(pooler), overlay + ": " + module + " LISTENs through the pooler " + pooler);
            }
            assertEquals(java.net.URI.create(jdbc.substring("jdbc:".length())).getHost(), host,
                    overlay + ": " + module + " LISTENs elsewhere than Flyway migrates");
            assertTrue(poolers.stream().anyMatch(p -> java.net.URI.create(reactive).getHost().startsWith(p)),
                    overlay + ": " + module + "'s queries no longer go through the pooler (then this test checks nothing)");
        }
    }

    /** An env variable's value, read from the ConfigMap it references, or given inline. */
    static String envValue(List<JsonNode> docs, JsonNode container, String name) {
        for (JsonNode e : container.path("env")) {
            if (e.path("name").asText().equals(name)) {
                if (e.has("value")) {
                    return e.path("value").asText();
                }
                JsonNode ref = e.at("/valueFrom/configMapKeyRef");
                return named(docs, "ConfigMap", ref.path("name").asText()).at("/data/" + ref.path("key").asText()).asText();
            }
        }
        return null;
    }

    /**
     * The modules refuse to start with a public URL over plain HTTP outside loopback unless
     * allowed: production serves https and never allows it; the dev cluster, without TLS, must
     * allow it, or its pods would not start.
     */
    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void plainHttpIsAllowedOnlyWhereThePublicUrlIsPlainHttp(String overlay) throws Exception {
        List<JsonNode> docs = render(overlay);
        JsonNode config = named(docs, "ConfigMap", "ziggurat-config").path("data");
        boolean plain = config.path("public-base-url").asText().startsWith("http://");
        assertEquals(plain ? "true" : "false", config.path("allow-plain-http").asText(), overlay);
        assertEquals(overlay.equals("dev"), plain, overlay + ": only the dev cluster runs without TLS");
        for (String module : List.of("gateway", "auth-service")) {
            JsonNode env = named(docs, "Deployment", module).at("/spec/template/spec/containers/0/env");
            boolean read = false;
            for (JsonNode e : env) {
                if (e.path("name").asText().equals("ZIGGURAT_ALLOW_PLAIN_HTTP")) {
                    read = e.at("/valueFrom/configMapKeyRef/key").asText().equals("allow-plain-http");
                }
            }
            assertTrue(read, overlay + ": " + module + " does not read allow-plain-http");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void theGatewayTrustsTheIngressForCallersAddresses(String overlay) throws Exception {
        List<JsonNode> docs = render(overlay);
        JsonNode gateway = named(docs, "Deployment", "gateway").at("/spec/template/spec/containers/0");
        JsonNode env = null;
        for (JsonNode e : gateway.path("env")) {
            if (e.path("name").asText().equals("ZIGGURAT_GATEWAY_TRUSTED_PROXIES")) {
                env = e;
            }
        }
        assertTrue(env != null, overlay + ": the gateway has no ZIGGURAT_GATEWAY_TRUSTED_PROXIES");
        String key = env.at("/valueFrom/configMapKeyRef/key").asText();
        String value = named(docs, "ConfigMap", env.at("/valueFrom/configMapKeyRef/name").asText()).at("/data/" + key).asText();
        assertFalse(value.isBlank(), overlay + ": trusted-proxies is empty");
        for (String entry : value.split(",")) {
            assertTrue(entry.trim().matches("[0-9a-fA-F:.]+(/[0-9]{1,3})?"), overlay + ": '" + entry + "' is no address or block");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void everyServiceMatchesItsModulesPortAndEveryDeploymentScalesSafely(String overlay) throws Exception {
        List<JsonNode> docs = render(overlay);
        for (JsonNode service : ofKind(docs, "Service")) {
            String module = service.at("/spec/selector/app.kubernetes.io~1name").asText();
            assertTrue(MODULES.contains(module), "Service " + service.at("/metadata/name").asText() + " selects no module");
            JsonNode deployment = named(docs, "Deployment", module);
            JsonNode container = deployment.at("/spec/template/spec/containers/0");
            int listens = Integer.parseInt(moduleConfig(module).getProperty("quarkus.http.port"));
            for (JsonNode port : service.at("/spec/ports")) {
                JsonNode target = port.path("targetPort");
                int resolved = -1;
                for (JsonNode p : container.path("ports")) {
                    if (target.isInt() ? p.path("containerPort").asInt() == target.asInt()
                            : p.path("name").asText().equals(target.asText())) {
                        resolved = p.path("containerPort").asInt();
                    }
                }
                assertEquals(listens, resolved, overlay + ": Service " + module + " port " + port + " does not reach "
                        + module + " on " + listens);
            }
        }
        for (String module : MODULES) {
            JsonNode hpa = named(docs, "HorizontalPodAutoscaler", module);
            assertEquals(module, hpa.at("/spec/scaleTargetRef/name").asText());
            assertTrue(hpa.at("/spec/maxReplicas").asInt() >= hpa.at("/spec/minReplicas").asInt());
            JsonNode pdb = named(docs, "PodDisruptionBudget", module);
            assertEquals(module, pdb.at("/spec/selector/matchLabels/app.kubernetes.io~1name").asText());
        }
        if (overlay.equals("prod")) {
            assertEquals(3, named(docs, "Cluster", "ziggurat-db").at("/spec/instances").asInt());
            for (String module : MODULES) {
                assertTrue(named(docs, "HorizontalPodAutoscaler", module).at("/spec/minReplicas").asInt() >= 2,
                        module + " may scale down to a single replica in production");
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void onlyTheGatewayIsReachableFromOutside(String overlay) throws Exception {
        List<JsonNode> docs = render(overlay);
        List<JsonNode> policies = ofKind(docs, "NetworkPolicy");
        assertTrue(policies.stream().anyMatch(p -> p.at("/spec/podSelector").isEmpty()
                        && p.at("/spec/policyTypes").toString().contains("Ingress") && p.at("/spec/ingress").isMissingNode()),
                "no default-deny ingress policy");
        for (JsonNode policy : policies) {
            for (JsonNode rule : policy.at("/spec/ingress")) {
                if (rule.path("from").isMissingNode() || rule.path("from").isEmpty()) {
                    // A rule open to every source must only ever select the gateway, on its API port.
                    assertEquals("gateway", policy.at("/spec/podSelector/matchLabels/app.kubernetes.io~1name").asText(),
                            overlay + ": " + policy.at("/metadata/name").asText() + " opens more than the gateway");
                    assertEquals("[8080]", rule.path("ports").findValuesAsText("port").toString().replace(" ", ""));
                }
            }
        }
        for (JsonNode ingress : ofKind(docs, "Ingress")) {
            ingress.findValues("service").forEach(s -> assertEquals("gateway", s.path("name").asText(),
                    "an Ingress routes to " + s.path("name").asText()));
        }
        for (JsonNode service : ofKind(docs, "Service")) {
            String type = service.at("/spec/type").asText("ClusterIP");
            assertEquals("ClusterIP", type, service.at("/metadata/name").asText() + " is exposed as " + type);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void noSecretValueIsInAManifest(String overlay) throws Exception {
        List<JsonNode> docs = render(overlay);
        assertTrue(ofKind(docs, "Secret").isEmpty(), "a Secret is in the manifests; secrets are made by deploy/k8s/secrets.sh");
        String all = docs.toString();
        for (Pattern leak : List.of(Pattern.compile("-----BEGIN [A-Z ]*PRIVATE KEY-----"),
                Pattern.compile("(?i)\"password\"\\s*:\\s*\"[^\"]+\""), Pattern.compile("zcs_[A-Za-z0-9_-]{10,}"))) {
            assertFalse(leak.matcher(all).find(), overlay + " holds something like a secret: " + leak);
        }
        for (JsonNode d : ofKind(docs, "Deployment")) {
            for (JsonNode v : d.at("/spec/template/spec/volumes")) {
                if (v.has("secret")) {
                    assertNotNull(v.at("/secret/secretName").asText(null));
                }
            }
        }
    }

    @Test
    void composeRunsTheSameTopology() throws Exception {
        // SnakeYAML itself, because the Compose file uses merge keys (<<: *service), which Jackson does not apply.
        Object loaded = new org.yaml.snakeyaml.Yaml().load(Files.readString(ROOT.resolve("deploy/compose/compose.yaml")));
        JsonNode compose = YAML.valueToTree(loaded);
        Set<String> services = new HashSet<>();
        compose.path("services").fieldNames().forEachRemaining(services::add);
        assertTrue(services.containsAll(MODULES), "compose lacks a module: " + services);
        assertTrue(services.contains("postgres"));
        for (String module : MODULES) {
            JsonNode s = compose.at("/services/" + module);
            String published = s.path("ports").toString();
            if (module.equals("gateway")) {
                assertTrue(published.contains(":8080"), "the gateway is not published: " + published);
            } else {
                assertTrue(s.path("ports").isMissingNode(), module + " is published; only the gateway may be");
            }
            assertTrue(s.path("read_only").asBoolean(), module + " has a writable root file system");
            assertFalse(s.path("healthcheck").isMissingNode(), module + " has no health check");
        }
    }

    /**
     * The images run the JVM that the bench measured: the launcher's options for the module
     * (`jvm_options` in ./ziggurat), but for the heap's cap, a share of the container's memory in
     * the image and a size on the launcher, and the image's own temporary directory.
     */
    @ParameterizedTest
    @FieldSource("MODULES")
    void theImagesRunTheLaunchersJvm(String module) throws Exception {
        Process process = new ProcessBuilder("bash", "-c",
                "source <(sed -n '/^jvm_options()/,/^}/p' \"$0\") && ZIGGURAT_JVM_OPTIONS= jvm_options \"$1\"",
                ROOT.resolve("ziggurat").toString(), module).redirectErrorStream(true).start();
        String launcher = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, process.exitValue(), launcher);
        Set<String> launcherOptions = new HashSet<>(List.of(launcher.trim().split("\\s+")));
        assertTrue(launcherOptions.removeIf(o -> o.startsWith("-Xmx")), "the launcher sets no heap cap: " + launcher);
        Set<String> imageOptions = new HashSet<>(List.of(moduleConfig(module)
                .getProperty("quarkus.jib.jvm-additional-arguments", "").split(",")));
        assertTrue(imageOptions.removeIf(o -> o.startsWith("-XX:MaxRAMPercentage=")), "the image sets no heap cap");
        imageOptions.remove("-Djava.io.tmpdir=/tmp");
        assertEquals(launcherOptions, imageOptions, module + ": the image's JVM options are not the launcher's");
    }

    /**
     * What a service's JVM uses beside its heap (code, metaspace, the AOT cache, threads, direct
     * buffers): 130 to 145 MiB resident in the bench's measurements, with room to spare.
     */
    static final int NON_HEAP_MIB = 160;

    static int mebibytes(String quantity) {
        if (quantity.endsWith("Gi")) {
            return Integer.parseInt(quantity.substring(0, quantity.length() - 2)) * 1024;
        }
        assertTrue(quantity.endsWith("Mi"), "a memory quantity in Mi or Gi: " + quantity);
        return Integer.parseInt(quantity.substring(0, quantity.length() - 2));
    }

    /** The heap's cap as a share of the container's memory, from the image's JVM arguments (Jib). */
    static int heapPercentage(Properties config) {
        String arguments = config.getProperty("quarkus.jib.jvm-additional-arguments", "");
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("-XX:MaxRAMPercentage=(\\d+)").matcher(arguments);
        assertTrue(m.find(), "the image's JVM sets no -XX:MaxRAMPercentage: " + arguments);
        return Integer.parseInt(m.group(1));
    }
}
