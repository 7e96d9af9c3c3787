/** The append-only record of who did what to the platform, and of failed sign-ins and token uses. */
package io.spillover.audit;
