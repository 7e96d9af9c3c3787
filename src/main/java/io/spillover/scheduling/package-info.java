/**
 * The scheduler: woken by events (never polling the provider), each cycle takes a snapshot, lets the
 * placement core decide, then applies: books and launches selections, logs the rest. One instance
 * schedules at a time, elected through a PostgreSQL advisory lock.
 */
package io.spillover.scheduling;
