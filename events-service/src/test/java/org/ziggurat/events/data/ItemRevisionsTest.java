package org.ziggurat.events.data;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The revisions and changesets an event's commits give their items, without the database. */
class ItemRevisionsTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final EventInput.Identifier SHEET = new EventInput.Identifier("sheet-1", "Sheet", "curator");
    static final EventInput.Identifier MAP = new EventInput.Identifier("map-1", "Map", "curator");

    static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static EventInput.CommitInput commit(String type, EventInput.Identifier item, String payload) {
        return new EventInput.CommitInput(type, item, json(payload));
    }

    @Test
    void eachCommitIsTheNextRevisionAndDiffersFromTheOneBeforeIt() {
        Map<EventInput.Identifier, ItemRevisions.Item> items = new HashMap<>();
        items.put(SHEET, new ItemRevisions.Item(7, 3, json("{\"title\":\"Draft\"}")));
        items.put(MAP, new ItemRevisions.Item(8, 0, json("{}")));
        ItemRevisions.Item unused = new ItemRevisions.Item(9, 5, json("{\"kept\":true}"));
        items.put(new EventInput.Identifier("other", "Sheet", "curator"), unused);

        ItemRevisions.Revised revised = ItemRevisions.apply(List.of(
                commit("Edit", SHEET, "{\"title\":\"Final\"}"),
                commit("Create", MAP, "{\"scale\":5000}"),
                commit("Edit", SHEET, "{\"title\":\"Final\",\"pages\":2}")), items);

        assertArrayEquals(new Integer[] {0, 1, 2}, revised.positions());
        assertArrayEquals(new String[] {"Edit", "Create", "Edit"}, revised.commitTypes());
        assertArrayEquals(new Long[] {7L, 8L, 7L}, revised.itemIds());
        assertArrayEquals(new Integer[] {4, 1, 5}, revised.revisions());
        assertArrayEquals(new String[] {"{\"title\":\"Final\"}", "{\"scale\":5000}", "{\"title\":\"Final\",\"pages\":2}"},
                revised.payloads());
        // The second edit of the sheet is taken against the first, not against what was stored.
        assertEquals(json("[{\"op\":\"replace\",\"path\":\"/title\",\"value\":\"Final\"}]"), json(revised.changesets()[0]));
        assertEquals(json("[{\"op\":\"add\",\"path\":\"/scale\",\"value\":5000}]"), json(revised.changesets()[1]));
        assertEquals(json("[{\"op\":\"add\",\"path\":\"/pages\",\"value\":2}]"), json(revised.changesets()[2]));

        ItemRevisions.Item sheet = items.get(SHEET);
        assertEquals(5, sheet.revision);
        assertEquals(json("{\"title\":\"Final\",\"pages\":2}"), sheet.payload);
        assertTrue(sheet.changed());
        assertTrue(items.get(MAP).changed());
        assertFalse(unused.changed(), "an item no commit names is not written back");
        assertEquals(5, unused.revision);
    }

    @Test
    void changesetsAreLargePastTheSmallBoundOfValuesInAll() {
        // An object of k members holds k + 1 values.
        ItemRevisions.Item stored = new ItemRevisions.Item(1, 1, members(999)); // 1000 values
        List<EventInput.CommitInput> atTheBound = List.of(new EventInput.CommitInput("Edit", SHEET, members(999)));
        assertEquals(Changesets.SMALL, 2000);
        assertFalse(ItemRevisions.large(List.of(stored), atTheBound));
        List<EventInput.CommitInput> pastIt = List.of(new EventInput.CommitInput("Edit", SHEET, members(1000)));
        assertTrue(ItemRevisions.large(List.of(stored), pastIt));
        // Stored payloads count as much as the commits'.
        assertTrue(ItemRevisions.large(List.of(stored, new ItemRevisions.Item(2, 0, json("{}"))), atTheBound));
        assertFalse(ItemRevisions.large(List.of(), List.of(new EventInput.CommitInput("Edit", SHEET, members(1999)))));
        assertTrue(ItemRevisions.large(List.of(), List.of(new EventInput.CommitInput("Edit", SHEET, members(2000)))));
    }

    static ObjectNode members(int k) {
        ObjectNode node = JSON.createObjectNode();
        for (int i = 0; i < k; i++) {
            node.put("m" + i, i);
        }
        return node;
    }
}
