package org.ziggurat.platform.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * PgBouncer in transaction mode between the services and PostgreSQL, with the pool mode and
 * parameters of the deploy's CloudNativePG {@code Pooler}, read from
 * {@code deploy/k8s/base/postgres.yaml} itself, so that the e2e suite (and platform-rest's pooled
 * connection tests) run what production runs: every reactive query through the pooler, Flyway and
 * LISTEN straight to the server. Debian's package (1.18) is used; {@code ZIGGURAT_PGBOUNCER} names
 * another binary.
 */
public final class Pooler {

    private final Process process;
    public final int port;
    /** PgBouncer 1.21+: named prepared statements work through it; before, the services must not cache them. */
    public final boolean tracksPreparedStatements;

    private Pooler(Process process, int port, boolean tracksPreparedStatements) {
        this.process = process;
        this.port = port;
        this.tracksPreparedStatements = tracksPreparedStatements;
    }

    /**
     * Starts PgBouncer for {@code database} on {@code server}, for the given roles and passwords
     * (each service's own), and waits until it accepts connections.
     */
    public static Pooler start(Path log, int port, String serverHost, int serverPort, String database,
            Map<String, String> passwordsByRole) throws Exception {
        String binary = binary();
        // Its own directory under /tmp: under root it runs as another user, who may not be able to
        // reach into the clone (a home directory, say).
        Path work = Files.createTempDirectory("ziggurat-pgbouncer");
        work.toFile().deleteOnExit();
        Path users = work.resolve("userlist.txt");
        StringBuilder list = new StringBuilder();
        passwordsByRole.forEach((role, password) -> list.append('"').append(role).append("\" \"").append(password).append("\"\n"));
        Files.writeString(users, list);
        Path ini = work.resolve("pgbouncer.ini");
        List<String> lines = new ArrayList<>(List.of(
                "[databases]",
                database + " = host=" + serverHost + " port=" + serverPort + " dbname=" + database,
                "[pgbouncer]",
                "listen_addr = 127.0.0.1",
                "listen_port = " + port,
                "unix_socket_dir =",
                "auth_type = scram-sha-256",
                "auth_file = " + users));
        boolean tracksPreparedStatements = tracksPreparedStatements(binary);
        for (Map.Entry<String, String> setting : deploySettings().entrySet()) {
            if (setting.getKey().equals("max_prepared_statements") && !tracksPreparedStatements) {
                continue; // unknown before 1.21: the services then prepare unnamed statements (Stack)
            }
            lines.add(setting.getKey() + " = " + setting.getValue());
        }
        Files.writeString(ini, String.join("\n", lines) + "\n");
        // PgBouncer refuses to run as root: under root (CI) it runs as the database's system user.
        List<String> command = new ArrayList<>();
        if ("root".equals(System.getProperty("user.name"))) {
            command.addAll(List.of("runuser", "-u", systemUser(), "--"));
            for (Path file : List.of(work, users, ini)) {
                Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString(
                        Files.isDirectory(file) ? "rwxr-xr-x" : "rw-r--r--"));
            }
        }
        command.addAll(List.of(binary, ini.toString()));
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        Pooler pooler = new Pooler(process, port, tracksPreparedStatements);
        long deadline = System.currentTimeMillis() + 15_000;
        while (System.currentTimeMillis() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("PgBouncer exited (" + process.exitValue() + "):\n" + Files.readString(log));
            }
            try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
                return pooler;
            } catch (IOException notYet) {
                Thread.sleep(100);
            }
        }
        pooler.stop();
        throw new IllegalStateException("PgBouncer did not listen on " + port + " within 15 s:\n" + Files.readString(log));
    }

    public void stop() {
        process.destroy();
        try {
            if (!process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** The deploy's Pooler ({@code deploy/k8s/base/postgres.yaml}): its pool mode and its PgBouncer parameters. */
    public static Map<String, String> deploySettings() throws IOException {
        Path manifest = Path.of(System.getProperty("user.dir")).getParent().resolve("deploy/k8s/base/postgres.yaml");
        Map<String, String> settings = new java.util.LinkedHashMap<>();
        boolean inPooler = false;
        boolean inParameters = false;
        for (String line : Files.readAllLines(manifest)) {
            if (line.startsWith("kind:")) {
                inPooler = line.trim().equals("kind: Pooler");
                inParameters = false;
            } else if (inPooler && line.trim().startsWith("poolMode:")) {
                settings.put("pool_mode", line.trim().substring("poolMode:".length()).trim());
            } else if (inPooler && line.trim().equals("parameters:")) {
                inParameters = true;
            } else if (inParameters && line.matches("\\s{6}[a-z_]+: .*")) {
                String[] pair = line.trim().split(":\\s*", 2);
                settings.put(pair[0], pair[1].replaceAll("^\"|\"$", ""));
            } else if (inParameters && !line.trim().startsWith("#") && !line.startsWith("      ")) {
                inParameters = false;
            }
        }
        if (!"transaction".equals(settings.get("pool_mode")) || settings.size() < 4) {
            throw new IllegalStateException("the deploy's Pooler was not read from " + manifest + ": " + settings);
        }
        return settings;
    }

    /** PgBouncer 1.21 and later keep prepared statements across transactions ({@code max_prepared_statements}). */
    static boolean tracksPreparedStatements(String binary) throws IOException, InterruptedException {
        Process version = new ProcessBuilder(binary, "--version").redirectErrorStream(true).start();
        String out = new String(version.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        version.waitFor();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("PgBouncer (\\d+)\\.(\\d+)").matcher(out);
        return m.find() && (Integer.parseInt(m.group(1)) > 1 || Integer.parseInt(m.group(2)) >= 21);
    }

    private static String binary() {
        return OsPrograms.find("ZIGGURAT_PGBOUNCER", List.of("/usr/sbin/pgbouncer", "/usr/bin/pgbouncer",
                "/usr/local/bin/pgbouncer"), "PgBouncer is needed: the e2e suite runs the services through it, as "
                + "production does (apt-get install pgbouncer; ./ziggurat test installs it)");
    }

    private static String systemUser() {
        for (String user : List.of("postgres", "nobody")) {
            try {
                Process id = new ProcessBuilder("id", "-u", user).start();
                if (id.waitFor() == 0) {
                    return user;
                }
            } catch (IOException | InterruptedException e) {
                // try the next
            }
        }
        return "nobody";
    }
}
