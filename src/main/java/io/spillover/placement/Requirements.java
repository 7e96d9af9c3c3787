package io.spillover.placement;

import io.spillover.catalog.InstanceType;
import io.spillover.shared.Violation;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a job's container needs of the hardware (SPEC §3.6), checked against the catalog for every entry.
 * Null fields ask nothing.
 *
 * @param acceleratorKinds  any of GPU, TRAINIUM, INFERENTIA
 * @param acceleratorModels any of these models (H100, A100, ...)
 * @param minCudaDriver     the NVIDIA driver the container needs ({@code 535} or {@code 535.54.03}); its branch
 *                          (the first number) is compared with the catalog's
 */
public record Requirements(Boolean efa, Integer minAcceleratorMemoryGiB, List<String> acceleratorKinds,
                           List<String> acceleratorModels, String minCudaDriver) {

    public static final Requirements NONE = new Requirements(null, null, null, null, null);

    /** Why the type cannot run the job, each reason in words; empty when it can. */
    public List<String> unmetBy(InstanceType type) {
        var unmet = new ArrayList<String>();
        if (Boolean.TRUE.equals(efa) && !type.efa()) {
            unmet.add("has no EFA");
        }
        if (minAcceleratorMemoryGiB != null && type.acceleratorMemoryGiB() < minAcceleratorMemoryGiB) {
            unmet.add("has " + type.acceleratorMemoryGiB() + " GiB per accelerator, not " + minAcceleratorMemoryGiB);
        }
        if (acceleratorKinds != null && !acceleratorKinds.isEmpty() && acceleratorKinds.stream()
                .noneMatch(kind -> kind != null && kind.equalsIgnoreCase(type.acceleratorKind().name()))) {
            unmet.add("has " + type.acceleratorKind() + " accelerators, not " + String.join(" or ", acceleratorKinds));
        }
        if (acceleratorModels != null && !acceleratorModels.isEmpty() && acceleratorModels.stream()
                .noneMatch(model -> model != null && model.equalsIgnoreCase(type.acceleratorModel()))) {
            unmet.add("has " + (type.acceleratorModel() == null ? "no accelerators" : type.acceleratorModel())
                    + ", not " + String.join(" or ", acceleratorModels));
        }
        Integer branch = driverBranch();
        if (branch != null && (type.cudaDriver() == null || type.cudaDriver() < branch)) {
            unmet.add(type.cudaDriver() == null ? "has no NVIDIA driver"
                    : "has NVIDIA driver " + type.cudaDriver() + ", older than " + minCudaDriver);
        }
        return unmet;
    }

    /** Whether the requirement fields themselves are well formed; each problem names its field. */
    public List<Violation> malformed(String prefix) {
        var violations = new ArrayList<Violation>();
        if (minAcceleratorMemoryGiB != null && (minAcceleratorMemoryGiB < 1 || minAcceleratorMemoryGiB > 10_000)) {
            violations.add(new Violation(prefix + ".minAcceleratorMemoryGiB", "must be from 1 to 10000"));
        }
        if (minCudaDriver != null && !minCudaDriver.matches("\\d{1,4}(\\.\\d{1,6}){0,3}")) {
            violations.add(new Violation(prefix + ".minCudaDriver", "must be a driver version such as 535 or 535.54.03"));
        }
        if (acceleratorKinds != null) {
            for (int i = 0; i < acceleratorKinds.size(); i++) {
                String kind = acceleratorKinds.get(i);
                if (kind == null || !List.of("GPU", "TRAINIUM", "INFERENTIA").contains(kind.toUpperCase(Locale.ROOT))) {
                    violations.add(new Violation(prefix + ".acceleratorKinds[" + i + "]",
                            "must be GPU, TRAINIUM or INFERENTIA"));
                }
            }
        }
        return violations;
    }

    private Integer driverBranch() {
        if (minCudaDriver == null || !minCudaDriver.matches("\\d{1,4}(\\.\\d{1,6}){0,3}")) {
            return null;
        }
        return Integer.valueOf(minCudaDriver.split("\\.")[0]);
    }
}
