package io.spillover;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.springframework.modulith.ApplicationModule;
import org.springframework.modulith.core.ApplicationModules;
import org.springframework.modulith.docs.Documenter;

/**
 * Every direct subpackage of {@code io.spillover} is a module, and {@code verify()} holds them to three
 * things: no cycle between modules; no use of another module's internals (its subpackages, such as
 * {@code providers.local}); and no dependency a module has not declared in its {@code package-info}
 * ({@code @ApplicationModule(allowedDependencies = ...)}), where each one that is not plain use of the kernel
 * says why it is there. The lists run one way, from the bottom up:
 * <ul>
 *   <li>{@code shared} (Violation, the API's exceptions) and {@code system} (database, clock, errors, the
 *       {@code @Access} annotation) serve everyone and use no feature;</li>
 *   <li>{@code catalog} and the {@code placement} core are used by most features: they are the facts and the
 *       rules, and use nothing above them; the {@code replay}, the core run in virtual time, uses only them;</li>
 *   <li>{@code providers} implements the ports of {@code capacity} ({@code ProviderFleet}) and {@code plans}
 *       ({@code PlanSource}), so it depends on them and not the other way;</li>
 *   <li>{@code capacity} and {@code profiles} read the caller from {@code security} in their controllers;</li>
 *   <li>{@code console} may use every feature's API, and nothing uses it;</li>
 *   <li>{@code cli}, the command-line client, uses no other module (it speaks to the service over HTTP), and
 *       nothing uses it but the application's main, which is in no module.</li>
 * </ul>
 * {@code placement}, {@code replay}, {@code shared} and {@code cli} carry no annotation, to stay free of Spring even there:
 * ArchitectureTest holds them to an allow-list instead.
 */
class ModulesTest {

    static final ApplicationModules MODULES = ApplicationModules.of(SpilloverApplication.class);
    static final List<String> GUARDED_BY_ARCHITECTURE_TEST = List.of("placement", "replay", "shared", "cli");
    static final Path DIAGRAMS = Path.of("docs/modules");

    @Test
    void modulesFormNoCycleAndUseOnlyWhatTheyDeclare() {
        MODULES.verify();
    }

    @Test
    void everyModuleDeclaresWhatItMayUse() throws ClassNotFoundException {
        for (var module : MODULES) {
            String name = module.getIdentifier().toString();
            if (GUARDED_BY_ARCHITECTURE_TEST.contains(name)) {
                continue;
            }
            var declared = Class.forName(module.getBasePackage().getName() + ".package-info")
                    .getAnnotation(ApplicationModule.class);
            assertThat(declared).as("@ApplicationModule(allowedDependencies) in %s's package-info", name).isNotNull();
        }
    }

    /**
     * The diagrams in docs/modules are those of the code as it is; after a change of dependencies, write them
     * anew with {@code ./mvnw test -Dtest=ModulesTest -Dmodules.write=true} and commit them. They are compared
     * line by line in any order: the Documenter's order of lines moves with unrelated changes of the code.
     */
    @Test
    void theModuleDiagramsInDocsAreCurrent() throws IOException {
        Path written = Path.of("target/modules");
        new Documenter(MODULES, Documenter.Options.defaults().withOutputFolder(written.toString()))
                .writeModulesAsPlantUml()
                .writeIndividualModulesAsPlantUml();
        if (Boolean.getBoolean("modules.write")) {
            Files.createDirectories(DIAGRAMS);
            for (Path old : diagrams(DIAGRAMS)) {
                if (!Files.exists(written.resolve(old.getFileName()))) {
                    Files.delete(old);
                }
            }
            for (Path file : diagrams(written)) {
                Path target = DIAGRAMS.resolve(file.getFileName());
                if (!Files.exists(target) || !lines(target).equals(lines(file))) {
                    Files.copy(file, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
        assertThat(names(diagrams(DIAGRAMS))).isEqualTo(names(diagrams(written)));
        for (Path file : diagrams(written)) {
            assertThat(lines(DIAGRAMS.resolve(file.getFileName())))
                    .as("docs/modules/%s is stale: run with -Dmodules.write=true", file.getFileName())
                    .isEqualTo(lines(file));
        }
    }

    private static List<String> lines(Path file) throws IOException {
        return Files.readAllLines(file).stream().sorted().toList();
    }

    private static List<Path> diagrams(Path folder) throws IOException {
        if (!Files.isDirectory(folder)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(folder)) {
            return files.filter(f -> f.toString().endsWith(".puml")).sorted().toList();
        }
    }

    private static String names(List<Path> files) {
        return files.stream().map(f -> f.getFileName().toString()).collect(Collectors.joining(", "));
    }
}
