/** The built-in catalog of SageMaker instance types and the facts placement and checks rely on. */
package io.spillover.catalog;
