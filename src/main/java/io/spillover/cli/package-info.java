/**
 * The command-line client for pipelines ({@code java -jar spillover.jar cli ...}, {@code bin/spillover}): it speaks
 * to a running Spillover over the REST API only, with the JDK's HTTP client, Jackson and picocli. It starts before
 * and without Spring and uses no other module, not even an annotation: ArchitectureTest keeps it so, which is why
 * this package-info declares nothing for ModulesTest.
 */
package io.spillover.cli;
