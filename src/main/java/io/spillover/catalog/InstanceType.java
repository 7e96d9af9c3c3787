package io.spillover.catalog;

import java.util.Objects;

/**
 * One SageMaker instance type and the facts Spillover knows of it.
 *
 * @param acceleratorMemoryGiB memory of one accelerator, 0 without accelerators
 * @param cudaComputeCapability NVIDIA compute capability ("9.0"), null for other kinds
 * @param cudaDriver            the NVIDIA driver branch on SageMaker's hosts of this type (535), null when
 *                              not a GPU type
 */
public record InstanceType(
        String name,
        String family,
        AcceleratorKind acceleratorKind,
        String acceleratorModel,
        int acceleratorCount,
        int acceleratorMemoryGiB,
        int vcpus,
        int memoryGiB,
        boolean efa,
        boolean training,
        boolean processing,
        String cudaComputeCapability,
        Integer cudaDriver) {

    public InstanceType {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(family, "family");
        Objects.requireNonNull(acceleratorKind, "acceleratorKind");
        if (acceleratorCount < 0 || acceleratorMemoryGiB < 0 || vcpus < 1 || memoryGiB < 1) {
            throw new IllegalArgumentException("impossible facts for " + name);
        }
        if ((acceleratorKind == AcceleratorKind.NONE) != (acceleratorCount == 0)) {
            throw new IllegalArgumentException(name + ": accelerator kind and count disagree");
        }
    }

    /** SageMaker's "accelerated" families: ml.p*, ml.g*, ml.trn*, ml.inf*. */
    public boolean accelerated() {
        return family.startsWith("p") || family.startsWith("g") || family.startsWith("trn") || family.startsWith("inf");
    }

    public InstanceType withCudaDriver(Integer driver) {
        return new InstanceType(name, family, acceleratorKind, acceleratorModel, acceleratorCount,
                acceleratorMemoryGiB, vcpus, memoryGiB, efa, training, processing, cudaComputeCapability, driver);
    }

    /** What one instance counts for in fair share: its accelerators, or 1 for a type without any. */
    public int shareUnits() {
        return Math.max(1, acceleratorCount);
    }

    public int totalAcceleratorMemoryGiB() {
        return acceleratorCount * acceleratorMemoryGiB;
    }

    public boolean suits(JobKind kind) {
        return kind == JobKind.TRAINING ? training : processing;
    }
}
