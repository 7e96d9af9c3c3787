package io.spillover.system;

import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * With no {@code spring.datasource.url}, Spillover runs its own PostgreSQL: real binaries from Maven
 * Central, data under {@code spillover.data-dir}, kept across restarts.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnExpression("'${spring.datasource.url:}'.isEmpty()")
class EmbeddedPostgresConfiguration {

    static final String DATABASE = "spillover";
    private static final Logger log = LoggerFactory.getLogger(EmbeddedPostgresConfiguration.class);

    @Bean(destroyMethod = "close")
    EmbeddedPostgres embeddedPostgres(@Value("${spillover.data-dir}") Path dataDir) {
        Path pgData = dataDir.toAbsolutePath().resolve("postgres");
        try {
            Files.createDirectories(pgData);
            EmbeddedPostgres postgres = EmbeddedPostgres.builder()
                    .setDataDirectory(pgData)
                    .setCleanDataDirectory(false)
                    // the library's binaries run with fsync=off and synchronous_commit=off (fast for tests): a
                    // crash could then lose a submission already answered 201, or the database itself; the
                    // service's own database writes its WAL to disk at every commit
                    .setServerConfig("fsync", "on")
                    .setServerConfig("synchronous_commit", "on")
                    .start();
            createDatabaseIfMissing(postgres);
            log.info("Embedded PostgreSQL on port {} with data in {}", postgres.getPort(), pgData);
            return postgres;
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the embedded PostgreSQL in " + pgData, e);
        }
    }

    @Bean
    DataSource dataSource(EmbeddedPostgres postgres) {
        var dataSource = new HikariDataSource();
        dataSource.setJdbcUrl(postgres.getJdbcUrl("postgres", DATABASE));
        dataSource.setUsername("postgres");
        dataSource.setMaximumPoolSize(20);
        dataSource.setConnectionTimeout(5_000); // as application.yml sets for an external database
        dataSource.setPoolName("spillover-embedded");
        return dataSource;
    }

    private static void createDatabaseIfMissing(EmbeddedPostgres postgres) {
        try (Connection connection = postgres.getPostgresDatabase().getConnection()) {
            var exists = connection.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?");
            exists.setString(1, DATABASE);
            if (!exists.executeQuery().next()) {
                connection.createStatement().execute("CREATE DATABASE " + DATABASE);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not create the database " + DATABASE, e);
        }
    }
}
