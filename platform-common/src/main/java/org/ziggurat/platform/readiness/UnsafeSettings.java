package org.ziggurat.platform.readiness;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.URL;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;

/**
 * What makes a production run unsafe, collected so that an operator reads every problem in one
 * failed start instead of one per restart. A plain class: {@link StartupChecks} fills it at start.
 */
public final class UnsafeSettings {

    /**
     * Allows public URLs over plain HTTP on a host that is not loopback: for a development cluster
     * without TLS (the dev overlay), never for production.
     */
    public static final String ALLOW_PLAIN_HTTP = "ziggurat.allow-plain-http";

    private final List<String> problems = new ArrayList<>();
    private final boolean plainHttpAllowed;

    public UnsafeSettings(boolean plainHttpAllowed) {
        this.plainHttpAllowed = plainHttpAllowed;
    }

    /**
     * A URL the public reaches: absolute http(s), and https unless its host is loopback (a local
     * run) or {@link #ALLOW_PLAIN_HTTP} is set. Over plain HTTP, tokens and passwords cross the
     * network readable to anyone on the way.
     */
    public void publicUrl(String setting, String url) {
        URI uri;
        try {
            uri = URI.create(url);
        } catch (IllegalArgumentException e) {
            problems.add(setting + " must be an absolute https URL, not '" + url + "'");
            return;
        }
        if (!uri.isAbsolute() || uri.getHost() == null || !uri.getScheme().matches("https?")) {
            problems.add(setting + " must be an absolute https URL, not '" + url + "'");
        } else if (uri.getScheme().equals("http") && !loopback(uri.getHost()) && !plainHttpAllowed) {
            problems.add(setting + " is plain HTTP on a host that is not loopback ('" + url + "'): use https, or set "
                    + ALLOW_PLAIN_HTTP + "=true for a development cluster without TLS");
        }
    }

    /** A secret of at least {@code minChars} characters, and none of the values published with the code. */
    public void secret(String setting, Optional<String> value, int minChars, Set<String> published) {
        if (value.isEmpty() || value.get().isBlank()) {
            problems.add(setting + " is not set");
        } else if (published.contains(value.get().strip())) {
            problems.add(setting + " is a value published with the code (for development and tests): generate one");
        } else if (value.get().length() < minChars) {
            problems.add(setting + " must be at least " + minChars + " characters");
        }
    }

    /** A file the process reads (a path, or a {@code file:} URL). */
    public void readableFile(String setting, Optional<String> location) {
        if (location.isEmpty() || location.get().isBlank()) {
            problems.add(setting + " is not set");
            return;
        }
        String path = location.get().startsWith("file:") ? URI.create(location.get()).getPath() : location.get();
        if (path == null || !Files.isReadable(Path.of(path))) {
            problems.add(setting + " names no readable file ('" + location.get() + "')");
        }
    }

    /** A problem no method here knows how to find. */
    public void add(String problem) {
        problems.add(problem);
    }

    public List<String> problems() {
        return List.copyOf(problems);
    }

    /** Refuses to start when anything is unsafe, saying everything at once. */
    public void requireNone(String who) {
        if (!problems.isEmpty()) {
            throw new IllegalStateException(who + "'s settings are not safe to run with: " + String.join("; ", problems));
        }
    }

    /**
     * The values a setting has in any profile of the {@code application.properties} shipped with
     * the code ({@code %dev.}, {@code %test.}): public, so never a production secret.
     */
    public static Set<String> publishedValues(String setting) {
        Set<String> values = new HashSet<>();
        try {
            Enumeration<URL> files = Thread.currentThread().getContextClassLoader().getResources("application.properties");
            while (files.hasMoreElements()) {
                Properties properties = new Properties();
                try (InputStream in = files.nextElement().openStream()) {
                    properties.load(in);
                }
                properties.forEach((key, value) -> {
                    String name = key.toString();
                    if (name.startsWith("%") && name.endsWith("." + setting)
                            && name.indexOf('.') == name.length() - setting.length() - 1) {
                        values.add(value.toString().strip());
                    }
                });
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return values;
    }

    static boolean loopback(String host) {
        if (host.equals("localhost") || host.endsWith(".localhost")) {
            return true;
        }
        // Only literal addresses: a name is not looked up here (it may resolve elsewhere later).
        if (!host.matches("[0-9.]+|\\[[0-9a-fA-F:.]+\\]")) {
            return false;
        }
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
