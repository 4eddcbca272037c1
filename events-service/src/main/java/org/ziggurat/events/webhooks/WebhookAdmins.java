package org.ziggurat.events.webhooks;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.ziggurat.directory.client.NamespaceDirectory;
import org.ziggurat.events.Operators;
import org.ziggurat.platform.permissions.NamespaceAccess;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.token.Caller;
import org.ziggurat.platform.token.ScopeNames;

/**
 * Who manages a place's webhooks: a namespace's admins (with the {@code admin} scope), the audit
 * stream's operators ({@link Operators}: their own token only); and, for a while after their way to
 * act ended elsewhere, not with a token from before ({@link #notEnded}).
 */
@ApplicationScoped
public class WebhookAdmins {

    private static final Logger SECURITY = Logger.getLogger("org.ziggurat.events.security");

    private final NamespaceDirectory namespaces;
    private final Operators operators;
    private final EndedAccessRepository ends;
    private final WebhookSettings settings;

    WebhookAdmins(NamespaceDirectory namespaces, Operators operators, EndedAccessRepository ends,
            WebhookSettings settings) {
        this.namespaces = namespaces;
        this.operators = operators;
        this.ends = ends;
        this.settings = settings;
    }

    /**
     * The place's namespace as the directory names it (null for the audit stream), if the caller
     * administers it: for a namespace, 404 for those who may not read it, 403 for the others; for
     * the audit stream, its operators alone.
     */
    Uni<String> administered(WebhookService.Place place, Caller caller) {
        if (place.audit()) {
            operators.require(caller);
            return Uni.createFrom().nullItem();
        }
        String namespace = place.namespace();
        long person = caller.requireUserWithScope(ScopeNames.ADMIN);
        return namespaces.lookup(namespace, caller).map(ns -> {
            NamespaceAccess.requireRead(namespace, ns.read(), ns.withheld());
            if (ns.withheld() != NamespaceAccess.Withheld.NOTHING) {
                // A member whose rights wait for a second factor is told so, as for the namespace's data.
                NamespaceAccess.requireWrite(ns.name(), false, ns.withheld());
            }
            if (!ns.admin()) {
                SECURITY.infof("event=webhook_refused namespace=%s person_id=%d", ns.name(), person);
                throw ProblemException.forbidden("Only the admins of '" + ns.name() + "' manage its webhooks.");
            }
            return ns.name();
        });
    }

    /**
     * 403 while the caller's way to act ended elsewhere within the grace ({@link WebhookSettings#endedAccessGrace}):
     * a token from before the end may still pass the gateway, and must not make or take on a webhook.
     */
    Uni<Void> notEnded(Caller caller) {
        return ends.endedWithin(caller.requireUser(), caller.clientId().orElse(null), settings.endedAccessGrace())
                .invoke(ended -> {
                    if (ended) {
                        SECURITY.infof("event=webhook_refused reason=access_ended person_id=%d client_id=%s",
                                caller.requireUser(), caller.clientId().orElse("-"));
                        throw ProblemException.forbidden("This way to act ended a moment ago (an application's access "
                                + "revoked, or the account recovered): sign in again and try in a few minutes.");
                    }
                }).replaceWithVoid();
    }

}
