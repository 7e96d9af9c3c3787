package io.spillover.system;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/** Tells whoever started Spillover where to find it. */
@Component
class StartupBanner {

    private static final Logger log = LoggerFactory.getLogger(StartupBanner.class);

    @EventListener
    void ready(ApplicationReadyEvent event) {
        if (event.getApplicationContext() instanceof WebServerApplicationContext web) {
            int port = web.getWebServer().getPort();
            log.info("Spillover is up: API at http://localhost:{}/api/v1, OpenAPI UI at http://localhost:{}/swagger-ui.html",
                    port, port);
        }
    }
}
