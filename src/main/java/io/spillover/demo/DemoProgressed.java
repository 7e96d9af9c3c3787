package io.spillover.demo;

/** The demo said something, or started or ended: for the pages and streams that show it live. */
public record DemoProgressed(String run, DemoView.Status status) {
}
