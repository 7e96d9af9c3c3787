/**
 * The default provider: a declared fleet on this machine. Jobs with a command run as local processes with
 * their output kept as the job's log; jobs without one are simulated for a set time.
 */
package io.spillover.providers.local;
