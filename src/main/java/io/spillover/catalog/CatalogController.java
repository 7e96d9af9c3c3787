package io.spillover.catalog;

import io.spillover.system.Access;
import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/v1/catalog")
class CatalogController {

    private final Catalog catalog;

    CatalogController(Catalog catalog) {
        this.catalog = catalog;
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
                            String cudaComputeCapability) {

        static InstanceTypeView of(InstanceType t) {
            return new InstanceTypeView(t.name(), t.family(), t.acceleratorKind(), t.acceleratorModel(),
                    t.acceleratorCount(), t.acceleratorMemoryGiB(), t.vcpus(), t.memoryGiB(), t.efa(),
                    t.accelerated(), t.training(), t.processing(), t.cudaComputeCapability());
        }
    }
}
