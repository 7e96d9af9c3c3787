package io.spillover.catalog;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.io.ClassPathResource;

@Configuration(proxyBeanMethods = false)
class CatalogConfiguration {

    static final String RESOURCE = "catalog/instance-types.csv";

    /** The built-in catalog, with {@code spillover.catalog.cuda-drivers.<family>} overriding driver branches. */
    @Bean
    Catalog catalog(Environment environment) {
        Map<String, Integer> drivers = Binder.get(environment)
                .bind("spillover.catalog.cuda-drivers", Bindable.mapOf(String.class, Integer.class))
                .orElse(Map.of());
        try (InputStream csv = new ClassPathResource(RESOURCE).getInputStream()) {
            return Catalog.readCsv(csv).withCudaDrivers(drivers);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the catalog " + RESOURCE, e);
        }
    }

    @Bean
    Equivalents equivalents(Catalog catalog) {
        return new Equivalents(catalog);
    }
}
