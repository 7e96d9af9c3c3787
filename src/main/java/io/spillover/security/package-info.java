/**
 * Who is calling and what they may do: API tokens and console sign-in, team roles, tenant isolation
 * (another team's things answer 404), limits on failed attempts, and the gate every change passes.
 */
package io.spillover.security;
