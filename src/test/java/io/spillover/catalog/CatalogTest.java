package io.spillover.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class CatalogTest {

    private static final String HEADER = String.join(",", Catalog.COLUMNS);
    private static final String M5_LARGE = "ml.m5.large,m5,NONE,,0,0,2,8,false,true,true,,";
    private static final String P5_48XLARGE = "ml.p5.48xlarge,p5,GPU,H100,8,80,192,2048,true,true,false,9.0,535";

    private final Catalog bundled = Catalog.readCsv(getClass().getResourceAsStream("/catalog/instance-types.csv"));

    @Test
    void readsTheBundledCatalog() {
        assertThat(bundled.all()).isNotEmpty();
        assertThat(bundled.get("ml.p5.48xlarge")).isEqualTo(new InstanceType("ml.p5.48xlarge", "p5",
                AcceleratorKind.GPU, "H100", 8, 80, 192, 2048, true, true, false, "9.0", 535));
        assertThat(bundled.get("ml.m5.large")).isEqualTo(new InstanceType("ml.m5.large", "m5",
                AcceleratorKind.NONE, null, 0, 0, 2, 8, false, true, true, null, null));
    }

    @ParameterizedTest
    @ValueSource(strings = {"p4d", "p4de", "p5", "p5e", "p5en", "p6-b200", "g4dn", "g5", "g6", "g6e",
            "trn1", "trn1n", "trn2", "m5", "c5", "r5", "t3"})
    void listsEveryRequiredFamily(String family) {
        assertThat(bundled.all()).filteredOn(type -> type.family().equals(family)).isNotEmpty()
                .allSatisfy(type -> assertThat(type.name()).startsWith("ml." + family + "."));
    }

    static Stream<Arguments> familiesAndWhetherAccelerated() {
        return Stream.of(
                Arguments.of("p4d", true), Arguments.of("p4de", true), Arguments.of("p5", true),
                Arguments.of("p5e", true), Arguments.of("p5en", true), Arguments.of("p6-b200", true),
                Arguments.of("g4dn", true), Arguments.of("g5", true), Arguments.of("g6", true),
                Arguments.of("g6e", true), Arguments.of("trn1", true), Arguments.of("trn1n", true),
                Arguments.of("trn2", true),
                Arguments.of("m5", false), Arguments.of("c5", false), Arguments.of("r5", false),
                Arguments.of("t3", false));
    }

    @ParameterizedTest(name = "{0} accelerated: {1}")
    @MethodSource("familiesAndWhetherAccelerated")
    void marksPgAndTrnFamiliesAccelerated(String family, boolean accelerated) {
        assertThat(bundled.all()).filteredOn(type -> type.family().equals(family)).isNotEmpty()
                .allSatisfy(type -> assertThat(type.accelerated()).as(type.name()).isEqualTo(accelerated));
    }

    @Test
    void everyAcceleratedTypeHasAcceleratorsAndNoOtherDoes() {
        assertThat(bundled.all()).allSatisfy(type -> {
            assertThat(type.acceleratorCount() > 0).as(type.name()).isEqualTo(type.accelerated());
            assertThat(type.training() || type.processing()).as(type.name() + " serves some job kind").isTrue();
        });
    }

    @Test
    void findsKnownTypesAndNothingElse() {
        assertThat(bundled.find("ml.g6e.48xlarge")).contains(bundled.get("ml.g6e.48xlarge"));
        assertThat(bundled.find("ml.x9.huge")).isEmpty();
        assertThat(bundled.find(null)).isEmpty();
        assertThat(bundled.contains("ml.trn2.48xlarge")).isTrue();
        assertThat(bundled.contains("ml.x9.huge")).isFalse();
        assertThat(bundled.contains(null)).isFalse();
        assertThatIllegalArgumentException().isThrownBy(() -> bundled.get("ml.x9.huge"))
                .withMessage("unknown instance type ml.x9.huge");
    }

    @Test
    void keepsTheFileOrderAndSkipsBlankLines() {
        Catalog catalog = read(HEADER, P5_48XLARGE, "", M5_LARGE, "   ");

        assertThat(catalog.all()).extracting(InstanceType::name).containsExactly("ml.p5.48xlarge", "ml.m5.large");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "instanceType,family", "instanceType,family,acceleratorKind,acceleratorModel,"
            + "acceleratorCount,acceleratorMemoryGiB,vcpus,memoryGiB,efa,processing,training,cudaComputeCapability,cudaDriver"})
    void rejectsWrongHeader(String header) {
        assertThatIllegalArgumentException().isThrownBy(() -> read(header, M5_LARGE))
                .withMessage("catalog header must be " + HEADER);
    }

    @Test
    void rejectsEmptyFile() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Catalog.readCsv(new ByteArrayInputStream(new byte[0])))
                .withMessage("catalog header must be " + HEADER);
    }

    @ParameterizedTest
    @ValueSource(strings = {"ml.m5.large,m5,NONE,,0,0,2,8,false,true,true,",
            "ml.m5.large,m5,NONE,,0,0,2,8,false,true,true,,,extra"})
    void rejectsLineWithWrongColumnCount(String line) {
        assertThatIllegalArgumentException().isThrownBy(() -> read(HEADER, line))
                .withMessage("catalog line needs 13 columns: " + line);
    }

    static Stream<Arguments> badValues() {
        return Stream.of(
                Arguments.of("ml.m5.large,m5,NONE,,0,0,2,8,yes,true,true,,", "expected true or false, not yes"),
                Arguments.of("ml.m5.large,m5,NONE,,0,0,2,8,false,TRUE,true,,", "expected true or false, not TRUE"),
                Arguments.of("ml.m5.large,m5,CPU,,0,0,2,8,false,true,true,,", "CPU"),
                Arguments.of("ml.m5.large,m5,NONE,,0,0,two,8,false,true,true,,", "two"),
                Arguments.of("ml.m5.large,m5,NONE,,4,0,2,8,false,true,true,,", "accelerator kind and count disagree"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("badValues")
    void rejectsBadValueNamingTheLine(String line, String problem) {
        assertThatIllegalArgumentException().isThrownBy(() -> read(HEADER, line))
                .withMessageStartingWith("catalog line " + line + ": ")
                .withMessageContaining(problem);
    }

    @Test
    void rejectsTypeListedTwice() {
        assertThatIllegalArgumentException().isThrownBy(() -> read(HEADER, M5_LARGE, P5_48XLARGE, M5_LARGE))
                .withMessage("instance type listed twice: ml.m5.large");
    }

    @Test
    void computesTotalAcceleratorMemoryAndSuitability() {
        InstanceType p5 = bundled.get("ml.p5.48xlarge");

        assertThat(p5.totalAcceleratorMemoryGiB()).isEqualTo(p5.acceleratorCount() * p5.acceleratorMemoryGiB());
        assertThat(p5.suits(JobKind.TRAINING)).isTrue();
        assertThat(p5.suits(JobKind.PROCESSING)).isFalse();
        assertThat(bundled.get("ml.m5.large").totalAcceleratorMemoryGiB()).isZero();
    }

    @Test
    void aPlatformOverridesTheDriverBranchOfAFamily() {
        Catalog overridden = bundled.withCudaDrivers(java.util.Map.of("p4d", 550));

        assertThat(overridden.get("ml.p4d.24xlarge").cudaDriver()).isEqualTo(550);
        assertThat(overridden.get("ml.p5.48xlarge").cudaDriver()).isEqualTo(bundled.get("ml.p5.48xlarge").cudaDriver());
    }

    @Test
    void rejectsImpossibleFacts() {
        assertThatIllegalArgumentException().isThrownBy(() -> new InstanceType("ml.x.large", "x",
                        AcceleratorKind.GPU, "H100", 0, 80, 8, 32, false, true, true, "9.0", 535))
                .withMessage("ml.x.large: accelerator kind and count disagree");
        assertThatIllegalArgumentException().isThrownBy(() -> new InstanceType("ml.x.large", "x",
                        AcceleratorKind.NONE, null, 0, 0, 0, 32, false, true, true, null, null))
                .withMessage("impossible facts for ml.x.large");
    }

    private static Catalog read(String... lines) {
        return Catalog.readCsv(new ByteArrayInputStream(String.join("\n", List.of(lines))
                .getBytes(StandardCharsets.UTF_8)));
    }
}
