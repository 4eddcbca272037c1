package org.ziggurat.directory.api;

import org.ziggurat.platform.http.PathIds;

/**
 * An organization and a person named by a path ({@code /organizations/{id}/members/{userId}},
 * {@code …/memberships/{userId}}): both ids read before anything else, as every organization path
 * reads its id.
 */
record MemberPath(long orgId, long personId) {

    static MemberPath of(String id, String userId) {
        return new MemberPath(PathIds.parse(id, "organization"), PathIds.parse(userId, "person"));
    }
}
