package io.spillover.system;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.JacksonModule;
import tools.jackson.databind.KeyDeserializer;
import tools.jackson.databind.deser.jdk.StringDeserializer;
import tools.jackson.databind.module.SimpleModule;

/**
 * What every request body's strings must be. PostgreSQL stores no NUL character (U+0000) in text or JSON, so a
 * string holding one, as a value or as a key, is refused when the body is read (a 400 naming the field), not
 * when the database refuses it.
 */
@Configuration(proxyBeanMethods = false)
class JsonInput {

    static final String NUL = "must not contain the NUL character (U+0000)";

    @Bean
    JacksonModule noNulStrings() {
        return new SimpleModule("no-nul-strings")
                .addDeserializer(String.class, new StringDeserializer() {
                    @Override
                    public String deserialize(JsonParser parser, DeserializationContext context) {
                        return checked(super.deserialize(parser, context), context);
                    }
                })
                .addKeyDeserializer(String.class, new KeyDeserializer() {
                    @Override
                    public Object deserializeKey(String key, DeserializationContext context) {
                        return checked(key, context);
                    }
                });
    }

    private static String checked(String value, DeserializationContext context) {
        if (value != null && value.indexOf('\0') >= 0) {
            throw context.weirdStringException(value, String.class, NUL);
        }
        return value;
    }
}
