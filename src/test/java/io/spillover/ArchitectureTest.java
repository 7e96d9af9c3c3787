package io.spillover;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The placement core and the replay stay pure, so the scheduler, explain, benchmarks and what-if runs share them as they are. */
class ArchitectureTest {

    private static final String[] FRAMEWORKS_AND_IO = {"org.springframework..", "jakarta..", "org.hibernate..",
        "java.sql..", "java.net..", "java.nio.file..", "tools.jackson.."};

    private final JavaClasses classes = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.spillover");

    @Test
    void thePlacementCoreUsesNoFrameworkNoClockAndNoIo() {
        noClasses().that().resideInAPackage("io.spillover.placement..")
                .should().dependOnClassesThat().resideInAnyPackage(FRAMEWORKS_AND_IO)
                .orShould().dependOnClassesThat().haveFullyQualifiedName("java.time.Clock")
                .orShould().callMethod(java.time.Instant.class, "now")
                .orShould().callMethod(System.class, "currentTimeMillis")
                .check(classes);
    }

    /**
     * An allow-list: the JDK's language, collections and time (the clock is refused above), the catalog's facts
     * and the shared kernel. ModulesTest leaves the core unannotated, so this is its list of dependencies.
     */
    @Test
    void thePlacementCoreDependsOnlyOnTheJdkTheCatalogAndTheSharedKernel() {
        classes().that().resideInAPackage("io.spillover.placement..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("java.lang..", "java.util..", "java.time..",
                        "java.math..", "io.spillover.placement..", "io.spillover.catalog..", "io.spillover.shared..")
                .check(classes);
    }

    /** The catalog's types that the core uses are held to the core's own rule, as if they were part of it. */
    @Test
    void theCatalogTypesTheCoreUsesAreFrameworkFreeToo() {
        DescribedPredicate<JavaClass> usedByTheCore = DescribedPredicate.describe("are used by the placement core",
                type -> type.getDirectDependenciesToSelf().stream()
                        .anyMatch(d -> d.getOriginClass().getPackageName().startsWith("io.spillover.placement")));
        noClasses().that().resideInAPackage("io.spillover.catalog..").and(usedByTheCore)
                .should().dependOnClassesThat().resideInAnyPackage(FRAMEWORKS_AND_IO)
                .check(classes);
    }

    /**
     * The replay serves a stream of jobs in virtual time with the core as it is, for the benchmarks and the what-if
     * runs: pure as the core, with no clock of its own (a caller hands in a stopwatch to time it) and no files,
     * network or JSON (a caller opens what it reads).
     */
    @Test
    void theReplayUsesNoFrameworkNoClockAndNoIo() {
        noClasses().that().resideInAPackage("io.spillover.replay..")
                .should().dependOnClassesThat().resideInAnyPackage(FRAMEWORKS_AND_IO)
                .orShould().dependOnClassesThat().haveFullyQualifiedName("java.time.Clock")
                .orShould().callMethod(java.time.Instant.class, "now")
                .orShould().callMethod(System.class, "currentTimeMillis")
                .orShould().callMethod(System.class, "nanoTime")
                .check(classes);
    }

    /**
     * The replay's allow-list: the core's, {@code java.io} to read a trace from a stream it is given, and the core
     * itself. ModulesTest leaves the replay unannotated, so this is its list of dependencies.
     */
    @Test
    void theReplayDependsOnlyOnTheJdkTheCoreTheCatalogAndTheSharedKernel() {
        classes().that().resideInAPackage("io.spillover.replay..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("java.lang..", "java.util..", "java.time..",
                        "java.math..", "java.io..", "io.spillover.replay..", "io.spillover.placement..",
                        "io.spillover.catalog..", "io.spillover.shared..")
                .check(classes);
    }

    /** The kernel every module uses, the core included, depends on nothing but the JDK. */
    @Test
    void theSharedKernelIsPlainJava() {
        classes().that().resideInAPackage("io.spillover.shared..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("java.lang..", "java.util..",
                        "io.spillover.shared..")
                .check(classes);
    }

    /**
     * The CLI is a client of the REST API, not of the code behind it: the JDK (its HTTP client and files), Jackson
     * and picocli, no Spring and no other module, so it starts fast, never boots the service and never reaches
     * past what a pipeline may do. ModulesTest leaves it unannotated, so this is its list of dependencies.
     */
    @Test
    void theCliUsesOnlyTheJdkJacksonAndPicocli() {
        classes().that().resideInAPackage("io.spillover.cli..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("java..",
                        "io.spillover.cli..", "tools.jackson..", "com.fasterxml.jackson.annotation..", "picocli..")
                .check(classes);
    }

    /** Nothing of the service uses the CLI; only the application's main starts it, before Spring. */
    @Test
    void onlyTheApplicationsMainStartsTheCli() {
        noClasses().that().resideOutsideOfPackage("io.spillover.cli..")
                .and().doNotHaveFullyQualifiedName(SpilloverApplication.class.getName())
                .should().dependOnClassesThat().resideInAPackage("io.spillover.cli..")
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
