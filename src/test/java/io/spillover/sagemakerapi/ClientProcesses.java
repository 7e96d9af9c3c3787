package io.spillover.sagemakerapi;

import io.spillover.support.Api;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;

/**
 * Runs clients nobody here wrote as the separate programs they are: the AWS SDK for JavaScript v3 (a fixture project
 * under {@code src/test/js/sagemaker-client}, its packages installed with {@code npm ci} from its committed lock file
 * when missing) under the machine's Node.js, and the AWS CLI on the PATH ({@code .ci/run} installs Debian's when
 * there is none). Each gets the access key in its environment, as a pipeline would hold it, and no AWS configuration
 * of the machine.
 */
final class ClientProcesses {

    static final Path JS = Path.of("src", "test", "js", "sagemaker-client").toAbsolutePath();
    /** botocore's data override (AWS_DATA_PATH): the CLI's own waiters, polling every second instead of 60 or 120. */
    static final Path AWS_DATA = Path.of("src", "test", "resources", "aws-data").toAbsolutePath();

    record Run(int exit, String out, String err) {

        /** What it printed, as JSON: the AWS CLI prints one document, the JavaScript driver one line last. */
        JsonNode json() {
            String[] lines = out.strip().split("\n");
            return Api.JSON.readTree(out.strip().startsWith("{\n") ? out : lines[lines.length - 1]);
        }
    }

    private ClientProcesses() {
    }

    /** {@code node drive.mjs <scenario>} with the key and the job's names. */
    static Run node(String scenario, Map<String, String> env) throws Exception {
        synchronized (ClientProcesses.class) {
            if (!Files.isDirectory(JS.resolve("node_modules/@aws-sdk/client-sagemaker"))) {
                Run installed = run(List.of(npm(), "ci", "--no-audit", "--no-fund"), JS, Map.of(), 300);
                if (installed.exit() != 0) {
                    throw new AssertionError("npm ci failed in " + JS + ": " + installed.err());
                }
            }
        }
        return run(List.of(executable("node"), "drive.mjs", scenario), JS, env, 180);
    }

    /** {@code aws sagemaker ...} against the endpoint. */
    static Run aws(Map<String, String> env, String... args) throws Exception {
        var command = new ArrayList<String>();
        command.add(executable("aws"));
        command.addAll(List.of(args));
        return run(command, Path.of(".").toAbsolutePath(), env, 180);
    }

    /** The environment an AWS client takes its key and region from, and nothing of this machine's AWS set-up. */
    static Map<String, String> awsEnvironment(String accessKeyId, String secret, String region, Path home) {
        return Map.of("AWS_ACCESS_KEY_ID", accessKeyId, "AWS_SECRET_ACCESS_KEY", secret, "AWS_REGION", region,
                "AWS_DEFAULT_REGION", region, "AWS_CONFIG_FILE", home.resolve("config").toString(),
                "AWS_SHARED_CREDENTIALS_FILE", home.resolve("credentials").toString(), "AWS_DATA_PATH",
                AWS_DATA.toString(), "AWS_PAGER", "", "AWS_EC2_METADATA_DISABLED", "true");
    }

    private static String npm() {
        return executable("npm");
    }

    /** The program as found on the PATH; the test fails saying what to install when it is not there. */
    static String executable(String name) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(dir, name);
            if (Files.isExecutable(candidate)) {
                return candidate.toString();
            }
        }
        throw new AssertionError(name + " is not on the PATH: install it (Debian: apt-get install "
                + (name.equals("aws") ? "awscli" : "nodejs npm") + "; .ci/run does)");
    }

    private static Run run(List<String> command, Path dir, Map<String, String> env, int timeoutSeconds)
            throws IOException, InterruptedException {
        Path out = Files.createTempFile("client-out", ".txt");
        Path err = Files.createTempFile("client-err", ".txt");
        try {
            var builder = new ProcessBuilder(command).directory(dir.toFile())
                    .redirectOutput(out.toFile()).redirectError(err.toFile());
            builder.environment().keySet().removeIf(k -> k.startsWith("AWS_"));
            builder.environment().putAll(env);
            Process process = builder.start();
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError(String.join(" ", command) + " did not end within " + timeoutSeconds
                        + " s: " + Files.readString(err));
            }
            return new Run(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}
