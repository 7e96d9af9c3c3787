package io.spillover.providers.sagemaker;

import io.spillover.catalog.Catalog;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.services.servicequotas.model.ListServiceQuotasRequest;
import software.amazon.awssdk.services.servicequotas.model.ServiceQuota;

/**
 * The account's applied SageMaker quotas of instance types, read with ListServiceQuotas (service code
 * {@code sagemaker}, every page). Quotas are named per type and job kind: "ml.p5.48xlarge for training job
 * usage", "ml.p5.48xlarge for processing job usage"; other SageMaker quotas, and types the catalog does not
 * know, are left out.
 */
final class ServiceQuotas {

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

    ServiceQuotas(SageMakerClients clients, Catalog catalog) {
        this.clients = clients;
        this.catalog = catalog;
    }

    /** By instance type, the account's applied quotas in the region; throws when the region cannot be read. */
    Map<String, TypeQuotas> read(String region) {
        var byType = new TreeMap<String, TypeQuotas>();
        clients.quotasIn(region).listServiceQuotasPaginator(ListServiceQuotasRequest.builder()
                        .serviceCode(SERVICE_CODE).maxResults(100).build())
                .quotas().forEach(quota -> add(quota, byType));
        return byType;
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
