package io.spillover.cli;

import java.util.Arrays;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code spillover}: the command-line client for pipelines, run as {@code java -jar spillover.jar cli ...} or
 * {@code bin/spillover ...}. It calls a running Spillover's REST API; the exit status tells how it went
 * ({@link ExitCode}).
 */
@Command(name = "spillover", mixinStandardHelpOptions = true, versionProvider = SpilloverCli.Version.class,
        description = "Submits and watches Spillover jobs from a pipeline, through the service's REST API.",
        subcommands = {LoginCommand.class, SubmitCommand.class, JobsCommand.class, DescribeCommand.class,
                LogsCommand.class, StopCommand.class, WaitCommand.class, ExplainCommand.class, ProfilesCommand.class,
                TokenCommand.class, DemoCommand.class},
        commandListHeading = "%nCommands:%n")
public final class SpilloverCli implements Runnable {

    final Invocation invocation;

    @Spec
    CommandSpec spec;

    SpilloverCli(Invocation invocation) {
        this.invocation = invocation;
    }

    /** Runs one command in this process's surroundings and returns its exit status; never starts Spring. */
    public static int run(String... args) {
        return run(Invocation.ofThisProcess(), args);
    }

    static int run(Invocation invocation, String... args) {
        CommandLine cli = new CommandLine(new SpilloverCli(invocation))
                .setOut(invocation.out()).setErr(invocation.err())
                .setCaseInsensitiveEnumValuesAllowed(true).setUsageHelpWidth(100)
                .setExecutionExceptionHandler(SpilloverCli::failed);
        String exitCodes = Arrays.stream(ExitCode.values())
                .map(c -> String.format("  %2d  %s", c.code, c.meaning)).collect(Collectors.joining("%n"));
        footer(cli, exitCodes);
        return cli.execute(args);
    }

    private static void footer(CommandLine command, String exitCodes) {
        command.getCommandSpec().usageMessage().footerHeading("%nExit codes:%n").footer(exitCodes,
                "%nConnection: ~/.spillover/config (written by `spillover login`, mode 600; SPILLOVER_CONFIG_FILE moves"
                        + " it), overridden by SPILLOVER_URL, SPILLOVER_TOKEN and SPILLOVER_TEAM.");
        command.getSubcommands().values().forEach(sub -> footer(sub, exitCodes));
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "give a command: "
                + String.join(", ", spec.subcommands().keySet()));
    }

    /** An error while a command ran, told in one line (and, for a program, as JSON on standard output). */
    private static int failed(Exception error, CommandLine command, CommandLine.ParseResult parsed) {
        Invocation invocation = ((SpilloverCli) rootOf(command).getCommand()).invocation;
        boolean json = command.getCommand() instanceof ApiCommand api && api.json();
        if (error instanceof UsageException) {
            invocation.err().println("spillover: " + error.getMessage());
            if (json) {
                printJson(invocation, problem(0, error.getMessage()));
            }
            invocation.err().flush();
            return ExitCode.USAGE.code;
        }
        if (error instanceof ApiException refused) {
            invocation.err().println("error: " + refused.getMessage());
            refused.fieldErrors().forEach(e -> invocation.err().println("  " + e));
            if (json) {
                printJson(invocation, refused.problem != null ? refused.problem : problem(0, refused.getMessage()));
            }
            invocation.err().flush();
            return ExitCode.API_ERROR.code;
        }
        if (error instanceof JobWait.TimedOut timedOut) {
            invocation.err().println("spillover: " + timedOut.getMessage());
            if (json) {
                printJson(invocation, timedOut.job);
            }
            invocation.err().flush();
            return ExitCode.WAIT_TIMEOUT.code;
        }
        invocation.err().println("spillover: internal error: " + error);
        if (invocation.env("SPILLOVER_DEBUG") != null) {
            error.printStackTrace(invocation.err());
        }
        invocation.err().flush();
        return ExitCode.INTERNAL.code;
    }

    private static ObjectNode problem(int status, String detail) {
        ObjectNode problem = SpilloverApi.JSON.createObjectNode();
        problem.put("status", status);
        problem.put("detail", detail);
        return problem;
    }

    private static void printJson(Invocation invocation, JsonNode node) {
        invocation.out().println(SpilloverApi.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(node));
        invocation.out().flush();
    }

    private static CommandLine rootOf(CommandLine command) {
        CommandLine root = command;
        while (root.getParent() != null) {
            root = root.getParent();
        }
        return root;
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = SpilloverCli.class.getPackage().getImplementationVersion();
            return new String[] {"spillover CLI " + (version == null ? "(development build)" : version)};
        }
    }
}
