/**
 * Who is calling and what they may do: API tokens and console sign-in, team roles, tenant isolation
 * (another team's things answer 404), and limits on failed attempts.
 */
package io.spillover.security;
