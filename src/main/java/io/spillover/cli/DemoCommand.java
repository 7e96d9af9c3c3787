package io.spillover.cli;

import java.io.IOException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import tools.jackson.databind.JsonNode;

@Command(name = "demo", description = {"Starts the demo (a platform admin's token; the local provider): a scripted"
        + " workload of about two minutes on the demo fleet, as the demo teams vision and nlp, that shows a job falling"
        + " back, a job waiting for its first choice, a queue with estimated starts and a deadline. It prints what the"
        + " demo says as it goes, until the demo is over.", "Ctrl-C stops printing, not the demo: `spillover demo"
        + " --stop` stops it and its jobs."})
final class DemoCommand extends ApiCommand {

    static final String PATH = "/api/v1/admin/demo";
    /** Reconnections in a row without an event before following gives up (the demo goes on). */
    static final int RECONNECTS = 8;

    @Option(names = "--stop", description = "stop the demo in progress and its jobs")
    boolean stop;

    @Option(names = "--no-follow", description = "start it and return at once")
    boolean noFollow;

    @Override
    ExitCode run() {
        SpilloverApi api = connection().api();
        JsonNode demo = api.post(stop ? PATH + ":stop" : PATH, null);
        if (!stop && !noFollow) {
            if (!json()) {
                demo.path("lines").forEach(line -> print(line(line)));
            }
            demo = follow(api, demo.path("lines").size());
        }
        if (json()) {
            printJson(demo);
        } else if (stop || noFollow) {
            print(stop ? "demo " + JobText.text(demo, "run") + ": " + JobText.text(demo, "status")
                    : "demo " + JobText.text(demo, "run") + " started; `spillover demo --stop` stops it");
        } else {
            print("demo " + JobText.text(demo, "run") + ": " + JobText.text(demo, "status"));
        }
        return ExitCode.OK;
    }

    /** Prints each line the demo says after {@code after} until it is over; the demo as it ended. */
    private JsonNode follow(SpilloverApi api, int after) {
        String lastId = Integer.toString(after);
        int reconnects = 0;
        while (reconnects < RECONNECTS) {
            try (EventStream stream = api.events(PATH + "/events", lastId)) {
                EventStream.Event event;
                while ((event = stream.next(() -> { })) != null) {
                    reconnects = 0;
                    JsonNode data = SpilloverApi.JSON.readTree(event.data());
                    if ("line".equals(event.name())) {
                        lastId = event.id();
                        if (!json()) {
                            print(line(data));
                        }
                    } else if ("end".equals(event.name())) {
                        return data;
                    }
                }
            } catch (IOException cut) {
                // the stream broke: open it again where it stopped
            } catch (ApiException refused) {
                if (refused.status != 0 && refused.status != 503) {
                    throw refused;
                }
                // the instance went away for a moment: open the stream again where it stopped
            }
            reconnects++;
        }
        return api.get(PATH);
    }

    private static String line(JsonNode line) {
        return JobText.text(line, "offset") + "  " + JobText.text(line, "text");
    }
}
