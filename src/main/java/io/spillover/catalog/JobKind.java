package io.spillover.catalog;

/** The kinds of SageMaker job; each instance type is valid for one or both. */
public enum JobKind {
    TRAINING, PROCESSING
}
