package io.spillover.providers.local;

import io.spillover.capacity.FleetOffering;
import io.spillover.catalog.Catalog;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.core.io.Resource;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/** The local provider's declared fleet, read from YAML and checked against the catalog at startup. */
record LocalFleet(List<FleetOffering> offerings, Set<String> regions) {

    static LocalFleet read(Resource resource, Catalog catalog) {
        try (InputStream in = resource.getInputStream()) {
            Object document = new Yaml(new SafeConstructor(new LoaderOptions())).load(in);
            return parse(document, catalog, resource.getDescription());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the local fleet " + resource.getDescription(), e);
        }
    }

    static LocalFleet parse(Object document, Catalog catalog, String source) {
        if (!(document instanceof Map<?, ?> root) || !(root.get("regions") instanceof Map<?, ?> regions)) {
            throw new IllegalArgumentException(source + ": expected 'regions:' mapping regions to instance types");
        }
        var offerings = new ArrayList<FleetOffering>();
        var names = new LinkedHashSet<String>();
        for (Map.Entry<?, ?> region : regions.entrySet()) {
            String regionName = String.valueOf(region.getKey());
            names.add(regionName);
            if (region.getValue() == null) {
                continue;
            }
            if (!(region.getValue() instanceof Map<?, ?> types)) {
                throw new IllegalArgumentException(source + ": region " + regionName + " must map instance types to counts");
            }
            for (Map.Entry<?, ?> type : types.entrySet()) {
                String typeName = String.valueOf(type.getKey());
                if (!catalog.contains(typeName)) {
                    throw new IllegalArgumentException(source + ": unknown instance type " + typeName + " in " + regionName);
                }
                if (!(type.getValue() instanceof Integer count) || count < 0) {
                    throw new IllegalArgumentException(source + ": " + typeName + " in " + regionName
                            + " needs a capacity of 0 or more, not " + type.getValue());
                }
                offerings.add(new FleetOffering(regionName, typeName, count));
            }
        }
        return new LocalFleet(List.copyOf(offerings), Set.copyOf(names));
    }
}
