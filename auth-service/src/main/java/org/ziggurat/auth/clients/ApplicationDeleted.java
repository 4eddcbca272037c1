package org.ziggurat.auth.clients;

/**
 * An application was deleted through this replica (a CDI event, fired before the deletion is
 * answered): whatever is kept in memory about its tokens must go. Other replicas hear of it from
 * the database's notifications.
 */
public record ApplicationDeleted(long applicationId) {
}
