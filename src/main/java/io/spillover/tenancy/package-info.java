/** Teams, their quotas and what they use: who may run what, and how much. */
package io.spillover.tenancy;
