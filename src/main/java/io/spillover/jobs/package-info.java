/** Jobs: submission and its checks, the job's life from PENDING to its end, and its audit trail. */
package io.spillover.jobs;
