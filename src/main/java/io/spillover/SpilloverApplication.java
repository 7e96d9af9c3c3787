package io.spillover;

import io.spillover.cli.SpilloverCli;
import java.util.Arrays;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

@SpringBootApplication
@ConfigurationPropertiesScan
public class SpilloverApplication {

    /** The service; or, with {@code cli} first, the command-line client, which starts fast and without Spring. */
    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("cli")) {
            System.exit(SpilloverCli.run(Arrays.copyOfRange(args, 1, args.length)));
        }
        SpringApplication.run(SpilloverApplication.class, args);
    }
}
