/**
 * The shared kernel: a broken rule ({@link io.spillover.shared.Violation}) and the exceptions every feature
 * answers the API with. Plain Java depending on nothing (not even an annotation: ArchitectureTest keeps it so),
 * so the pure placement core can use it too.
 */
package io.spillover.shared;
