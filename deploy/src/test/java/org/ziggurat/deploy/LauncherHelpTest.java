package org.ziggurat.deploy;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * `./ziggurat --help` lists every setting the launcher reads from the environment: each
 * {@code ZIGGURAT_*} or {@code QUARKUS_*} variable the script expands ({@code $NAME} or
 * {@code ${NAME...}}) outside its {@code usage} function must be named in what {@code --help}
 * prints. A variable the script only sets for a service ({@code "ZIGGURAT_AUTH_ISSUER=..."}) is
 * not read, and need not be listed.
 */
class LauncherHelpTest {

    static final Pattern EXPANDED = Pattern.compile("\\$\\{?((?:ZIGGURAT|QUARKUS)_[A-Z0-9_]+)");
    static final Pattern USAGE = Pattern.compile("(?ms)^usage\\(\\) \\{\\n.*?^}\\n");

    static Set<String> readByTheLauncher(String script) {
        Matcher usage = USAGE.matcher(script);
        assertTrue(usage.find(), "the launcher has no usage function");
        String rest = script.substring(0, usage.start()) + script.substring(usage.end());
        Set<String> read = new TreeSet<>();
        Matcher m = EXPANDED.matcher(rest);
        while (m.find()) {
            read.add(m.group(1));
        }
        return read;
    }

    static String help() throws Exception {
        Process process = new ProcessBuilder("bash", ManifestsTest.ROOT.resolve("ziggurat").toString(), "--help")
                .redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), "./ziggurat --help took over 30 s");
        assertEquals(0, process.exitValue(), out);
        return out;
    }

    @Test
    void helpListsEverySettingTheLauncherReads() throws Exception {
        String script = Files.readString(ManifestsTest.ROOT.resolve("ziggurat"));
        Set<String> read = readByTheLauncher(script);
        // The ones that were left out once, and the test's own sanity: it finds what the script reads.
        assertTrue(read.containsAll(Set.of("ZIGGURAT_DB_URL", "ZIGGURAT_OPERATORS",
                "ZIGGURAT_EVENTS_WEBHOOKS_ALLOWED_NETWORKS")), "the check reads no settings: " + read);
        assertFalse(read.contains("ZIGGURAT_AUTH_ISSUER"), "a setting the launcher only passes on counts as read");
        String help = help();
        Set<String> missing = new TreeSet<>();
        for (String name : read) {
            if (!Pattern.compile("(?<![A-Z0-9_])" + name + "(?![A-Z0-9_])").matcher(help).find()) {
                missing.add(name);
            }
        }
        assertTrue(missing.isEmpty(), "./ziggurat --help does not list these settings the launcher reads: " + missing);
    }
}
