package io.spillover.whatif;

import java.util.UUID;

/** A what-if run moved on: it started, replayed more jobs, finished or failed. For pages that show it live. */
public record WhatIfProgressed(UUID run, WhatIfStatus status, double progress) {
}
