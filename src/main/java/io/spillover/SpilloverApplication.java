package io.spillover;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

@SpringBootApplication
@ConfigurationPropertiesScan
public class SpilloverApplication {

    public static void main(String[] args) {
        SpringApplication.run(SpilloverApplication.class, args);
    }
}
