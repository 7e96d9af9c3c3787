package io.spillover.system;

import javax.sql.DataSource;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Wraps the application's DataSource, whichever configuration made it (the embedded database's or Spring Boot's for
 * an external one), in a {@link RoutedDataSource}, so that {@link DedicatedPool}s can serve the threads that work on
 * them.
 */
@Configuration(proxyBeanMethods = false)
class DataSourceRouting {

    @Bean
    static BeanPostProcessor routedDataSource() {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String name) {
                return bean instanceof DataSource application && !(bean instanceof RoutedDataSource)
                        ? new RoutedDataSource(application) : bean;
            }
        };
    }
}
