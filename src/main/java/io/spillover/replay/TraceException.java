package io.spillover.replay;

/**
 * A trace that cannot be read, naming where: its line (the header is line 1) and, when one field is at fault, its
 * column.
 */
public final class TraceException extends IllegalArgumentException {

    private final int line;
    private final String column;
    private final String problem;

    public TraceException(int line, String column, String problem) {
        super("trace line " + line + (column == null ? "" : ", column " + column) + ": " + problem);
        this.line = line;
        this.column = column;
        this.problem = problem;
    }

    public int line() {
        return line;
    }

    /** The column at fault, null when the line as a whole is. */
    public String column() {
        return column;
    }

    /** What is wrong, without where. */
    public String problem() {
        return problem;
    }
}
