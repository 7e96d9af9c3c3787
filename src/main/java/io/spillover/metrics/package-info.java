/** What Spillover reports to Prometheus: placement, queue, utilization, provider errors, leadership. */
package io.spillover.metrics;
