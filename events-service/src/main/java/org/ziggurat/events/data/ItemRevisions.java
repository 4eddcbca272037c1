package org.ziggurat.events.data;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * What an event's commits do to the items they name, apart from the database: each commit is the
 * next revision of its item, and its changeset (JSON Patch) is taken against the item's payload
 * just before it, which is an earlier commit of the same event when the event names the item
 * twice. The items come in locked and at their stored revision; only those a commit touched are
 * written back.
 */
final class ItemRevisions {

    private ItemRevisions() {
    }

    /** An item as read (locked) from the database, then as the event's commits leave it. */
    static final class Item {
        final long id;
        final int startRevision;
        int revision;
        JsonNode payload;

        Item(long id, int revision, JsonNode payload) {
            this.id = id;
            this.startRevision = revision;
            this.revision = revision;
            this.payload = payload;
        }

        boolean changed() {
            return revision != startRevision;
        }
    }

    /** The commits' columns, in the event's order. */
    record Revised(Integer[] positions, String[] commitTypes, Long[] itemIds, Integer[] revisions, String[] payloads,
            String[] changesets) {
    }

    /**
     * Whether the changesets are worth a thread of their own: together the stored payloads and
     * the commits' hold more than {@link Changesets#SMALL} values.
     */
    static boolean large(Collection<Item> items, List<EventInput.CommitInput> commits) {
        int values = 0;
        for (Item item : items) {
            values += Changesets.values(item.payload, Changesets.SMALL);
        }
        for (EventInput.CommitInput c : commits) {
            values += Changesets.values(c.payload(), Changesets.SMALL);
        }
        return values > Changesets.SMALL;
    }

    /** Applies the commits in order to {@code items} (every identifier the commits name). */
    static Revised apply(List<EventInput.CommitInput> commits, Map<EventInput.Identifier, Item> items) {
        int n = commits.size();
        Revised r = new Revised(new Integer[n], new String[n], new Long[n], new Integer[n], new String[n], new String[n]);
        for (int i = 0; i < n; i++) {
            EventInput.CommitInput c = commits.get(i);
            Item state = items.get(c.identifier());
            JsonNode changeset = Changesets.diff(state.payload, c.payload());
            state.revision++;
            state.payload = c.payload();
            r.positions()[i] = i;
            r.commitTypes()[i] = c.type();
            r.itemIds()[i] = state.id;
            r.revisions()[i] = state.revision;
            r.payloads()[i] = c.payload().toString();
            r.changesets()[i] = changeset.toString();
        }
        return r;
    }
}
