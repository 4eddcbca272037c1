package org.ziggurat.events.data;

import org.ziggurat.platform.problem.ProblemException;

import java.util.regex.Pattern;

/** A repository's name in a path: what is not one names no repository (404). */
public final class RepositoryNames {

    private static final Pattern REPOSITORY_NAME = Pattern.compile("[A-Za-z0-9._-]{1,100}");

    private RepositoryNames() {
    }

    public static String checked(String name) {
        if (name == null || !REPOSITORY_NAME.matcher(name).matches() || name.equals(".") || name.equals("..")) {
            throw ProblemException.notFound("No repository is called '" + name + "'.");
        }
        return name;
    }
}
