package io.spillover.providers.sagemaker;

import io.spillover.catalog.Catalog;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.servicequotas.model.ListAwsDefaultServiceQuotasRequest;
import software.amazon.awssdk.services.servicequotas.model.ListServiceQuotasRequest;
import software.amazon.awssdk.services.servicequotas.model.ServiceQuota;

/**
 * The account's SageMaker quotas of instance types: AWS's defaults (ListAWSDefaultServiceQuotas, read once per
 * region: they change only with AWS), overridden by the applied values (ListServiceQuotas, every reading), both
 * for service code {@code sagemaker} and every page. ListServiceQuotas leaves out a quota whose applied value is
 * not available, so the default stands for it. Quotas are named per type and job kind: "ml.p5.48xlarge for
 * training job usage", "ml.p5.48xlarge for processing job usage"; other SageMaker quotas, and types the catalog
 * does not know, are left out.
 */
final class ServiceQuotas {

    private static final Logger log = LoggerFactory.getLogger(ServiceQuotas.class);
    static final String SERVICE_CODE = "sagemaker";
    private static final Pattern INSTANCE_QUOTA = Pattern.compile("(ml\\.[a-z0-9.-]+) for (training|processing) job usage");

    /** The quotas of one type; null for a kind the account lists none for. */
    record TypeQuotas(Integer training, Integer processing) {

        TypeQuotas with(String kind, int value) {
            return kind.equals("training") ? new TypeQuotas(value, processing) : new TypeQuotas(training, value);
        }
    }

    private final SageMakerClients clients;
    private final Catalog catalog;
    private final Map<String, Map<String, TypeQuotas>> defaults = new ConcurrentHashMap<>();

    ServiceQuotas(SageMakerClients clients, Catalog catalog) {
        this.clients = clients;
        this.catalog = catalog;
    }

    /**
     * By instance type, the account's quotas in the region; throws when the applied quotas cannot be read. AWS's
     * defaults that cannot be read are done without (and asked for again next time).
     */
    Map<String, TypeQuotas> read(String region) {
        var client = clients.quotasIn(region);
        var byType = new TreeMap<>(defaults(region));
        client.listServiceQuotasPaginator(ListServiceQuotasRequest.builder()
                        .serviceCode(SERVICE_CODE).maxResults(100).build())
                .quotas().forEach(quota -> add(quota, byType));
        return byType;
    }

    private Map<String, TypeQuotas> defaults(String region) {
        Map<String, TypeQuotas> known = defaults.get(region);
        if (known != null) {
            return known;
        }
        try {
            var byType = new TreeMap<String, TypeQuotas>();
            clients.quotasIn(region).listAWSDefaultServiceQuotasPaginator(ListAwsDefaultServiceQuotasRequest.builder()
                            .serviceCode(SERVICE_CODE).maxResults(100).build())
                    .quotas().forEach(quota -> add(quota, byType));
            defaults.put(region, Map.copyOf(byType));
            return byType;
        } catch (RuntimeException e) {
            log.warn("AWS's default SageMaker quotas in {} not read; applied quotas only: {}", region, e.getMessage());
            return Map.of();
        }
    }

    private void add(ServiceQuota quota, Map<String, TypeQuotas> byType) {
        Matcher name = INSTANCE_QUOTA.matcher(quota.quotaName() == null ? "" : quota.quotaName().trim());
        if (!name.matches() || !catalog.contains(name.group(1)) || quota.value() == null) {
            return;
        }
        int value = (int) Math.max(0, Math.min(Integer.MAX_VALUE, Math.floor(quota.value())));
        byType.merge(name.group(1), new TypeQuotas(null, null).with(name.group(2), value),
                (old, added) -> added.training() != null ? old.with("training", added.training())
                        : old.with("processing", added.processing()));
    }
}
