package org.ziggurat.e2e;

import org.junit.jupiter.api.Test;
import org.ziggurat.client.ApiClient;
import org.ziggurat.client.ApiException;
import org.ziggurat.client.api.ConceptsApi;
import org.ziggurat.client.api.DataEventsApi;
import org.ziggurat.client.api.OAuthApi;
import org.ziggurat.client.api.OrganizationsApi;
import org.ziggurat.client.api.PeopleApi;
import org.ziggurat.client.api.VocabulariesApi;
import org.ziggurat.client.model.CommitInput;
import org.ziggurat.client.model.Concept;
import org.ziggurat.client.model.ConceptInput;
import org.ziggurat.client.model.Concepts;
import org.ziggurat.client.model.DataEvent;
import org.ziggurat.client.model.DataEventInput;
import org.ziggurat.client.model.ItemIdentifier;
import org.ziggurat.client.model.LabelInput;
import org.ziggurat.client.model.Organization;
import org.ziggurat.client.model.OrganizationInput;
import org.ziggurat.client.model.Person;
import org.ziggurat.client.model.Scheme;
import org.ziggurat.client.model.SchemeInput;
import org.ziggurat.client.model.SignUp;
import org.ziggurat.client.model.TokenResponse;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A journey with nothing but the Java client that openapi-generator makes from the committed
 * description (api/openapi.json, generated into e2e/target/generated-client): sign up, a token,
 * an organization, a vocabulary with concepts, a data event, and everything read back. A
 * description a generator cannot turn into a working client fails here.
 */
class GeneratedClientJourneyTest {

    @Test
    void aJourneyWithTheGeneratedClient() throws Exception {
        ApiClient client = new ApiClient();
        client.updateBaseUri(Platform.api());
        String username = "gen-" + UUID.randomUUID().toString().substring(0, 8);
        String password = "generated " + UUID.randomUUID();

        Person person = new PeopleApi(client).signUp(new SignUp().username(username).password(password)
                .email(username + "@example.org").displayName("Generated client"));
        assertEquals(username, person.getUsername());

        // No DPoP proof, code, redirect URI or verifier; no second factor's code; no refresh token or device
        // code; no client (the client-less password grant) nor its assertion; no resource, audience or exchange.
        TokenResponse token = new OAuthApi(client).token("password", null, null, null, null, username, password, null, null,
                null, "user write update admin", null, null, null, null, null, null, null, null, null);
        assertEquals(TokenResponse.TokenTypeEnum.BEARER, token.getTokenType());
        assertNotNull(token.getRefreshToken());
        client.setRequestInterceptor(request -> request.header("Authorization", "Bearer " + token.getAccessToken()));
        assertEquals(username, new PeopleApi(client).getCurrentUser().getUsername());

        OrganizationsApi organizations = new OrganizationsApi(client);
        String orgName = username + "-lab";
        Organization org = organizations.createOrganization(new OrganizationInput().name(orgName)
                .displayName("Generated lab").visibility(OrganizationInput.VisibilityEnum.PRIVATE));
        assertEquals(orgName, org.getName());
        assertEquals(List.of(person.getId()), organizations.getOrganization(Long.toString(org.getId())).getMemberIds());

        VocabulariesApi vocabularies = new VocabulariesApi(client);
        Scheme scheme = vocabularies.createScheme(orgName, new SchemeInput().slug("rivers").title("Rivers"));
        assertEquals("rivers", scheme.getId());
        ConceptsApi concepts = new ConceptsApi(client);
        Concept nile = concepts.createConcept(orgName, "rivers", new ConceptInput().labels(List.of(
                new LabelInput().type(LabelInput.TypeEnum.PREFERRED).body("Nile").language("en"),
                new LabelInput().type(LabelInput.TypeEnum.PREFERRED).body("Nil").language("fr")))).getConcepts().get(0);
        concepts.createConcept(orgName, "rivers", new ConceptInput().labels(List.of(
                new LabelInput().body("Blue Nile").language("en"))).broader(List.of(nile.getId())));
        assertEquals("Nile", nile.getDefaultLabel());

        DataEventsApi events = new DataEventsApi(client);
        DataEvent recorded = events.createDataEvent(orgName, "gauges", new DataEventInput().note("Gauge readings")
                .kind(DataEventInput.KindEnum.FILE_UPLOAD).commitsAttributes(List.of(new CommitInput()
                        .type("Aggregation::Commit::Legacy").identifier(new ItemIdentifier().id("aswan").type("Gauge")
                                .agent("generated-client")).payload(Map.of("level_m", 92.5)))), null);
        assertEquals(1, recorded.getCommitsCount());

        // Read back.
        assertEquals("Rivers", vocabularies.getScheme(orgName, "rivers").getTitle());
        assertEquals(1, vocabularies.listSchemes(orgName, null, null).size());
        Concepts listed = client.getObjectMapper().convertValue(
                concepts.listSchemeConcepts(orgName, "rivers", null, null, null, null, null, null, null, null), Concepts.class);
        assertEquals(2, listed.getConcepts().size());
        Concept blueNile = listed.getConcepts().stream().filter(c -> c.getDefaultLabel().equals("Blue Nile")).findFirst()
                .orElseThrow();
        assertEquals("Nile", blueNile.getBroader().get(0).getDefaultLabel());
        DataEvent read = events.getDataEvent(orgName, "gauges", Long.toString(recorded.getId()));
        assertEquals("Gauge readings", read.getNote());
        assertEquals("FileUpload", read.getKind());
        assertEquals("aswan", read.getCommits().get(0).getIdentifier().getId());
        assertEquals(1, events.listDataEvents(orgName, "gauges", null, null, null, null).size());
        assertTrue(new PeopleApi(client).listCurrentUserOrganizations().stream().anyMatch(o -> o.getName().equals(orgName)));

        // An error arrives as the problem the description names.
        ApiException missing = assertThrows(ApiException.class, () -> vocabularies.getScheme(orgName, "lakes"));
        assertEquals(404, missing.getCode());
        assertTrue(missing.getResponseBody().contains("\"status\":404"), missing.getResponseBody());
    }
}
