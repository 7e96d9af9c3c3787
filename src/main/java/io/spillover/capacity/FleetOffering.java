package io.spillover.capacity;

/** On-demand capacity a provider declares for a type in a region. */
public record FleetOffering(String region, String instanceType, int onDemandCapacity) {
}
