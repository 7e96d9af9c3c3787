package io.spillover.cli;

/** How a command shows its answer: lines for a person, or the API's JSON for a program. */
enum Output {
    text, json
}
