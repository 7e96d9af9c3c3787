/** Named, versioned preference profiles a team saves once and its jobs reuse. */
package io.spillover.profiles;
