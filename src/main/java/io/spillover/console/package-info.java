/** The browser console: server-rendered pages over the same services as the REST API. */
package io.spillover.console;
