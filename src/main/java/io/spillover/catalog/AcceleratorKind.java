package io.spillover.catalog;

public enum AcceleratorKind {
    GPU, TRAINIUM, INFERENTIA, NONE
}
