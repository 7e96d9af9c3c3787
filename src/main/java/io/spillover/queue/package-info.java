/**
 * The queue policy as the service runs it: its configuration ({@code spillover.queue}) and each team's fair
 * share and expected run times, read from the jobs' history for the scheduler and the admin API.
 */
package io.spillover.queue;
