package io.spillover.whatif;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code spillover.what-if}: how many what-if runs replay at a time, and how many more may wait for a worker.
 * Replays take whole cores for seconds to minutes; one at a time (the default) leaves the rest of the machine to
 * the service. A start past the waiting room answers 409.
 *
 * @param concurrency runs replaying at once (default 1)
 * @param waiting     runs that may wait for a worker (default 4)
 */
@ConfigurationProperties("spillover.what-if")
public record WhatIfProperties(Integer concurrency, Integer waiting) {

    public WhatIfProperties {
        concurrency = concurrency == null ? 1 : concurrency;
        waiting = waiting == null ? 4 : waiting;
        if (concurrency < 1 || waiting < 0) {
            throw new IllegalArgumentException("spillover.what-if.concurrency must be at least 1 and waiting 0 or more");
        }
    }
}
