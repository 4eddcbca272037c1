package org.ziggurat.platform.time;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import io.quarkus.jackson.ObjectMapperCustomizer;
import jakarta.inject.Singleton;

import java.io.IOException;
import java.time.Instant;

/** Every {@link Instant} in a JSON body is written in the platform's timestamp form. */
@Singleton
public class PlatformJacksonCustomizer implements ObjectMapperCustomizer {

    /** Last, so that no default Java-time module registered after it takes {@link Instant} back. */
    @Override
    public int priority() {
        return MINIMUM_PRIORITY;
    }

    @Override
    public void customize(ObjectMapper mapper) {
        SimpleModule module = new SimpleModule("ziggurat-timestamps");
        module.addSerializer(Instant.class, new StdSerializer<>(Instant.class) {
            @Override
            public void serialize(Instant value, JsonGenerator gen, SerializerProvider provider) throws IOException {
                gen.writeString(Timestamps.format(value));
            }
        });
        mapper.registerModule(module);
    }
}
