/** What every module leans on: the embedded database, the clock, configuration and error responses. */
package io.spillover.system;
