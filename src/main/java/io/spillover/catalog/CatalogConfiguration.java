package io.spillover.catalog;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ClassPathResource;

@Configuration(proxyBeanMethods = false)
class CatalogConfiguration {

    static final String RESOURCE = "catalog/instance-types.csv";

    @Bean
    Catalog catalog() {
        try (InputStream csv = new ClassPathResource(RESOURCE).getInputStream()) {
            return Catalog.readCsv(csv);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the catalog " + RESOURCE, e);
        }
    }
}
