package org.ziggurat.vocab.concepts;

import org.eclipse.microprofile.openapi.annotations.media.Schema;
import io.quarkus.runtime.annotations.RegisterForReflection;
import org.ziggurat.platform.rest.http.PublicUrls;
import org.ziggurat.vocab.Languages;
import org.ziggurat.vocab.schemes.SchemeRow;
import org.ziggurat.vocab.schemes.SchemeViews;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The spec's Concept, and its synset form. */
public final class ConceptViews {

    private ConceptViews() {
    }

    @RegisterForReflection
    @Schema(name = "ConceptContributor")
    public record Person(String name, String url, String htmlUrl) {
    }

    @RegisterForReflection
    @Schema(name = "RelatedConcept")
    public record Related(String defaultLabel, String url, String htmlUrl) {
    }

    @RegisterForReflection
    @Schema(name = "ConceptLabel")
    public record Label(String type, String body, String language, boolean abbreviation, String vernacular, String historical) {
    }

    @RegisterForReflection
    @Schema(name = "ConceptNote")
    public record Note(String type, String body, String language) {
    }

    @RegisterForReflection
    public record Concept(String id, String status, String defaultLabel, String url, String htmlUrl, Instant createdAt,
            Instant updatedAt, Person creator, List<Person> contributors, List<Related> broader, List<Related> narrower,
            List<ConceptInput.Match> matches, List<Note> notes, List<Label> labels, SchemeViews.Scheme inScheme) {
    }

    @RegisterForReflection
    public record Concepts(List<Concept> concepts) {
    }

    public static Concept concept(ConceptRow row, SchemeRow scheme, ConceptRepository.Details d,
            PublicUrls urls) {
        String base = "/" + scheme.namespace() + "/vocab/schemes/" + scheme.slug() + "/concepts/";
        return new Concept(row.id(), row.status(), defaultLabel(row.id(), scheme, d.preferredByLanguage()),
                urls.api(base + row.id()), urls.web("/" + scheme.namespace() + "/vocab/" + scheme.slug() + "/" + row.id()),
                row.createdAt(), row.updatedAt(), person(row.creatorUsername(), urls),
                row.contributors().stream().map(u -> person(u, urls)).toList(),
                related(d.broader().getOrDefault(row.id(), List.of()), scheme, d, urls, base),
                related(d.narrower().getOrDefault(row.id(), List.of()), scheme, d, urls, base),
                d.matches().getOrDefault(row.id(), List.of()),
                d.notes().getOrDefault(row.id(), List.of()).stream()
                        .map(n -> new Note(n.type(), n.body(), Languages.display(n.language()))).toList(),
                d.labels().getOrDefault(row.id(), List.of()).stream()
                        .map(l -> new Label(l.type(), l.body(), Languages.display(l.language()), l.abbreviation(),
                                l.vernacular(), l.historical())).toList(),
                SchemeViews.scheme(scheme, urls));
    }

    /** Preferred, Alternative and Hidden label bodies of any language. */
    public static List<String> synset(String id, ConceptRepository.Details d) {
        List<String> bodies = new ArrayList<>();
        for (String type : List.of("Preferred", "Alternative", "Hidden")) {
            d.labels().getOrDefault(id, List.of()).stream().filter(l -> l.type().equals(type)).forEach(l -> bodies.add(l.body()));
        }
        return bodies;
    }

    /** The Preferred label in the scheme's default language, else any Preferred label. */
    static String defaultLabel(String id, SchemeRow scheme, Map<String, Map<String, String>> preferred) {
        Map<String, String> byLanguage = preferred.getOrDefault(id, Map.of());
        String label = byLanguage.get(scheme.defaultLanguage());
        return label != null ? label : byLanguage.values().stream().findFirst().orElse("");
    }

    private static List<Related> related(List<String> ids, SchemeRow scheme, ConceptRepository.Details d, PublicUrls urls,
            String base) {
        return ids.stream().map(id -> new Related(defaultLabel(id, scheme, d.preferredByLanguage()), urls.api(base + id),
                urls.web("/" + scheme.namespace() + "/vocab/" + scheme.slug() + "/" + id))).toList();
    }

    private static Person person(String username, PublicUrls urls) {
        return new Person(username, urls.api("/people/" + username), urls.web("/" + username));
    }
}
