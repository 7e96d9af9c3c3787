package io.spillover.catalog;

import io.spillover.system.Access;
import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/v1/catalog")
class CatalogController {

    private final Catalog catalog;
    private final Equivalents equivalents;

    CatalogController(Catalog catalog, Equivalents equivalents) {
        this.catalog = catalog;
        this.equivalents = equivalents;
    }

    /**
     * Counts of other types giving at least the same accelerators ({@code basis=accelerators}, the default)
     * or accelerator memory ({@code basis=acceleratorMemory}) as {@code instanceCount} of {@code instanceType},
     * closest first; {@code kind} keeps only types valid for that kind of job.
     */
    @GetMapping("/equivalents")
    @Access(Access.Level.AUTHENTICATED)
    List<Equivalents.Suggestion> equivalents(@RequestParam String instanceType,
                                             @RequestParam(defaultValue = "1") int instanceCount,
                                             @RequestParam(defaultValue = "accelerators") String basis,
                                             @RequestParam(required = false) JobKind kind) {
        var violations = new java.util.ArrayList<io.spillover.shared.Violation>();
        if (!catalog.contains(instanceType)) {
            violations.add(new io.spillover.shared.Violation("instanceType", "unknown instance type " + instanceType));
        }
        if (instanceCount < 1 || instanceCount > 10_000) {
            violations.add(new io.spillover.shared.Violation("instanceCount", "must be from 1 to 10000"));
        }
        Equivalents.Basis chosen = switch (basis) {
            case "accelerators" -> Equivalents.Basis.ACCELERATORS;
            case "acceleratorMemory" -> Equivalents.Basis.ACCELERATOR_MEMORY;
            default -> null;
        };
        if (chosen == null) {
            violations.add(new io.spillover.shared.Violation("basis", "must be accelerators or acceleratorMemory"));
        }
        if (!violations.isEmpty()) {
            throw new io.spillover.shared.InvalidRequestException(violations);
        }
        return equivalents.of(catalog.get(instanceType), instanceCount, chosen, kind);
    }

    /** Every instance type Spillover knows, with the facts placement and checks use. */
    @GetMapping("/instance-types")
    @Access(Access.Level.AUTHENTICATED)
    List<InstanceTypeView> instanceTypes() {
        return catalog.all().stream().map(InstanceTypeView::of).toList();
    }

    record InstanceTypeView(String instanceType, String family, AcceleratorKind acceleratorKind,
                            String acceleratorModel, int acceleratorCount, int acceleratorMemoryGiB, int vcpus,
                            int memoryGiB, boolean efa, boolean accelerated, boolean training, boolean processing,
                            String cudaComputeCapability, Integer cudaDriver) {

        static InstanceTypeView of(InstanceType t) {
            return new InstanceTypeView(t.name(), t.family(), t.acceleratorKind(), t.acceleratorModel(),
                    t.acceleratorCount(), t.acceleratorMemoryGiB(), t.vcpus(), t.memoryGiB(), t.efa(),
                    t.accelerated(), t.training(), t.processing(), t.cudaComputeCapability(), t.cudaDriver());
        }
    }
}
