package io.spillover;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The placement core stays pure, so the scheduler, explain, benchmarks and simulator share it as it is. */
class ArchitectureTest {

    private final JavaClasses classes = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.spillover");

    @Test
    void thePlacementCoreUsesNoFrameworkNoClockAndNoIo() {
        noClasses().that().resideInAPackage("io.spillover.placement..")
                .should().dependOnClassesThat().resideInAnyPackage("org.springframework..", "jakarta..",
                        "org.hibernate..", "java.sql..", "java.net..", "java.nio.file..", "tools.jackson..")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("java.time.Clock")
                .orShould().callMethod(java.time.Instant.class, "now")
                .orShould().callMethod(System.class, "currentTimeMillis")
                .check(classes);
    }

    @Test
    void thePlacementCoreDependsOnlyOnTheCatalogWithinSpillover() {
        noClasses().that().resideInAPackage("io.spillover.placement..")
                .should().dependOnClassesThat().resideInAnyPackage("io.spillover.jobs..", "io.spillover.scheduling..",
                        "io.spillover.capacity..", "io.spillover.tenancy..", "io.spillover.providers..",
                        "io.spillover.system..")
                .check(classes);
    }

    @Test
    void onlyTheSchedulerTalksToTheProviderAboutLaunchesAndStops() {
        noClasses().that().resideOutsideOfPackages("io.spillover.scheduling..", "io.spillover.providers..")
                .should().callMethod(io.spillover.providers.CapacityProvider.class, "launch",
                        io.spillover.providers.LaunchRequest.class)
                .orShould().callMethod(io.spillover.providers.CapacityProvider.class, "stop", String.class)
                .check(classes);
    }
}
