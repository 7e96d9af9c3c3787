package io.spillover.providers;

import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.util.List;

/**
 * The VPC a SageMaker job's instances join (CreateTrainingJob {@code VpcConfig}, CreateProcessingJob
 * {@code NetworkConfig.VpcConfig}); SageMaker's limits: 1 to 5 security groups, 1 to 16 subnets.
 */
public record SageMakerVpc(
        @NotEmpty @Size(max = 5) List<@Pattern(regexp = "sg-[0-9a-f]{1,32}",
                message = "must be a security group id (sg-...)") String> securityGroupIds,
        @NotEmpty @Size(max = 16) List<@Pattern(regexp = "subnet-[0-9a-f]{1,32}",
                message = "must be a subnet id (subnet-...)") String> subnets) {

    public SageMakerVpc {
        securityGroupIds = securityGroupIds == null ? null : List.copyOf(securityGroupIds);
        subnets = subnets == null ? null : List.copyOf(subnets);
    }
}
