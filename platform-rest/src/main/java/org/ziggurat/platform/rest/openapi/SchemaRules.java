package org.ziggurat.platform.rest.openapi;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.models.Components;
import org.eclipse.microprofile.openapi.models.media.Schema;

/** What {@link ApiContract} completes in the schemas: nullable references, real examples. */
final class SchemaRules {

    private SchemaRules() {
    }


    /** Where a service keeps real answers of its API, by schema name, as the schemas' examples. */
    static final String EXAMPLES = "META-INF/openapi-examples.json";


    /**
     * Each schema named in the service's {@link #EXAMPLES} gets that real answer as its example
     * (the lint checks that it fits the schema).
     */
    static void examples(Components components) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        try (var in = loader == null ? null : loader.getResourceAsStream(EXAMPLES)) {
            if (in == null) {
                return;
            }
            Map<String, Object> examples = new com.fasterxml.jackson.databind.ObjectMapper().readValue(in,
                    new com.fasterxml.jackson.core.type.TypeReference<java.util.LinkedHashMap<String, Object>>() { });
            examples.forEach((name, example) -> {
                Schema schema = components.getSchemas().get(name);
                if (schema == null) {
                    throw new IllegalStateException(EXAMPLES + " names " + name + ", which no schema of this API is");
                }
                schema.setExample(example);
            });
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(EXAMPLES + " cannot be read", e);
        }
    }


    /**
     * OpenAPI 3.0 cannot make a referenced schema nullable: "allOf: [$ref], nullable: true" still
     * refuses null, in validators as in generated clients. A nullable property that refers to
     * another schema gets a copy of it, nullable.
     */
    static void inlineNullableReferences(Schema schema, Components components) {
        if (schema.getProperties() == null) {
            return;
        }
        Map<String, Schema> properties = new java.util.LinkedHashMap<>(schema.getProperties());
        properties.replaceAll((name, property) -> {
            boolean nullable = property.getType() != null && property.getType().contains(Schema.SchemaType.NULL);
            // The model writes a nullable reference as anyOf: [{$ref}, {type: null}].
            String ref = property.getRef() != null ? property.getRef() : property.getAnyOf() == null ? null
                    : property.getAnyOf().stream().map(Schema::getRef).filter(java.util.Objects::nonNull).findFirst().orElse(null);
            if (!nullable || ref == null) {
                return property;
            }
            Schema target = components.getSchemas().get(ref.substring(ref.lastIndexOf('/') + 1));
            if (target == null || target.getType() == null) {
                return property;
            }
            List<Schema.SchemaType> types = new ArrayList<>(target.getType());
            types.add(Schema.SchemaType.NULL);
            return OASFactory.createSchema().type(types).format(target.getFormat()).properties(target.getProperties())
                    .required(target.getRequired()).items(target.getItems())
                    .description(property.getDescription() != null ? property.getDescription() : target.getDescription());
        });
        schema.setProperties(properties); // the model hands out a copy of its properties
    }
}
