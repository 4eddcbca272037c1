package org.ziggurat.platform.testing;

import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.SerializationConfig;
import com.fasterxml.jackson.databind.deser.BeanDeserializerBuilder;
import com.fasterxml.jackson.databind.deser.BeanDeserializerModifier;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.BeanPropertyWriter;
import com.fasterxml.jackson.databind.ser.BeanSerializerModifier;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.jackson.ObjectMapperCustomizer;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.inject.Singleton;

import java.security.CodeSource;
import java.util.List;

/**
 * Keeps the reflection registrations of native images complete. A bean of every service's tests
 * (this test jar has a beans.xml) that gives the service's ObjectMapper a Jackson module: when
 * Jackson builds a serializer or deserializer for a class of a service's main code that is
 * not registered for reflection, it throws, so the request fails and so does the test that made
 * the service write or read that class. In a JVM Jackson reads any class reflectively; in a
 * native image, only the registered ones, and Quarkus registers the types of REST signatures
 * but not a Response's entity nor what code hands an ObjectMapper. So every JSON type of ours is
 * registered explicitly ({@code @RegisterForReflection}, on it or on the class that nests it).
 */
@Singleton
public class NativeReflectionAudit implements ObjectMapperCustomizer {

    @Override
    public void customize(ObjectMapper mapper) {
        mapper.registerModule(module());
    }

    static SimpleModule module() {
        SimpleModule module = new SimpleModule("native-reflection-audit");
        module.setSerializerModifier(new BeanSerializerModifier() {
            @Override
            public List<BeanPropertyWriter> changeProperties(SerializationConfig config, BeanDescription bean,
                    List<BeanPropertyWriter> properties) {
                requireRegistered(bean.getBeanClass());
                return properties;
            }
        });
        module.setDeserializerModifier(new BeanDeserializerModifier() {
            @Override
            public BeanDeserializerBuilder updateBuilder(DeserializationConfig config, BeanDescription bean,
                    BeanDeserializerBuilder builder) {
                requireRegistered(bean.getBeanClass());
                return builder;
            }
        });
        return module;
    }

    static void requireRegistered(Class<?> type) {
        if (!type.getName().startsWith("org.ziggurat.") || !isMainCode(type)) {
            return;
        }
        for (Class<?> c = type; c != null; c = c.getEnclosingClass()) {
            RegisterForReflection registration = c.getAnnotation(RegisterForReflection.class);
            if (registration != null && (c == type || !registration.ignoreNested())) {
                return;
            }
        }
        throw new IllegalStateException(type.getName() + " is written or read as JSON but not registered for "
                + "reflection: a native image would not see its properties (add @RegisterForReflection)");
    }

    /** Test code (doubles, fixtures) never goes into an image. */
    static boolean isMainCode(Class<?> type) {
        CodeSource source = type.getProtectionDomain().getCodeSource();
        String where = source == null || source.getLocation() == null ? "" : source.getLocation().toString();
        return !where.contains("/test-classes") && !where.endsWith("-tests.jar");
    }
}
