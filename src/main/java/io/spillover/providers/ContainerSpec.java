package io.spillover.providers;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.util.List;
import java.util.Map;

/**
 * What to run. Under the local provider a job with a {@code command} runs it as a process; under SageMaker
 * the image runs with the command as entrypoint.
 */
public record ContainerSpec(
        @Size(max = 512) String image,
        @Size(max = 64) List<@NotBlank @Size(max = 4096) String> command,
        @Size(max = 100) Map<@Pattern(regexp = "[A-Za-z_][A-Za-z0-9_]{0,127}",
                message = "must be a valid environment variable name") String, @Size(max = 4096) String> environment) {

    public ContainerSpec {
        command = command == null ? List.of() : List.copyOf(command);
        environment = environment == null ? Map.of() : Map.copyOf(environment);
    }
}
