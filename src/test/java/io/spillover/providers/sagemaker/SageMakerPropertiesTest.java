package io.spillover.providers.sagemaker;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.catalog.Catalog;
import java.io.InputStream;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A misconfigured SageMaker provider refuses to start, saying every problem at once. */
class SageMakerPropertiesTest {

    private static final Catalog CATALOG = catalog();

    @Test
    void aGoodConfigurationHasNoProblems() {
        var properties = new SageMakerProperties("us-east-1", null, URI.create("https://vpce.example"),
                "arn:aws:iam::111122223333:role/SpilloverJobs", "s3://bucket/out",
                List.of("arn:aws:iam::111122223333:role/spillover-{team}-*"), null, null, null, null, null, null,
                List.of(new SageMakerProperties.Quota(null, "ml.p4d.24xlarge", 4)));

        assertThat(properties.problems(CATALOG)).isEmpty();
        assertThat(properties.regions()).containsExactly("us-east-1");
        assertThat(properties.volumeSizeGb()).isEqualTo(50);
    }

    @Test
    void aRegionAloneIsEnough() {
        var properties = new SageMakerProperties("us-east-1", null, null, null, null, null, null, null, null, null,
                null, null, null);

        assertThat(properties.problems(CATALOG)).isEmpty();
        assertThat(properties.roleArn()).isNull();
        assertThat(properties.outputS3Uri()).isNull();
        assertThat(properties.allowedRoleArns()).isEmpty();
    }

    @Test
    void namesEveryProblemWithItsProperty() {
        var properties = new SageMakerProperties(null, null, null, "arn:aws:iam::111122223333:user/someone",
                "https://bucket/out", List.of("spillover-{team}-*"), null, null, null, null, null, null,
                List.of(new SageMakerProperties.Quota("eu-west-1", "ml.p9.huge", -1)));

        assertThat(properties.problems(CATALOG)).containsExactly(
                "spillover.sagemaker.region is required (the default region, e.g. us-east-1)",
                "spillover.sagemaker.role-arn must be an IAM role ARN (arn:aws:iam::<account>:role/<name>),"
                        + " not arn:aws:iam::111122223333:user/someone",
                "spillover.sagemaker.output-s3-uri must be an s3:// URI, not https://bucket/out",
                "spillover.sagemaker.allowed-role-arns[0] must be an IAM role ARN pattern"
                        + " (arn:aws:iam::<account>:role/<name>, with {team} and *), not spillover-{team}-*",
                "spillover.sagemaker.fleet[0].instance-type: unknown instance type ml.p9.huge",
                "spillover.sagemaker.fleet[0].on-demand-capacity must be 0 or more",
                "spillover.sagemaker.fleet[0].region eu-west-1 is not one of spillover.sagemaker.regions []");
    }

    private static Catalog catalog() {
        try (InputStream csv = SageMakerPropertiesTest.class.getResourceAsStream("/catalog/instance-types.csv")) {
            return Catalog.readCsv(csv);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
