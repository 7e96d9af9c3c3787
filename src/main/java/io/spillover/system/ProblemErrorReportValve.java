package io.spillover.system;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;

/**
 * Tomcat's own refusals (a URI with an encoded slash or a NUL, a request line or headers too large) come from
 * the connector, before any servlet or filter runs; Tomcat's default valve answers them with an HTML page. This
 * one answers as the API does, with an RFC 9457 problem document. Installed as the host's error report valve
 * by {@link WebServerSettings}; it must stay public with a public constructor, Tomcat makes it by class name.
 */
public class ProblemErrorReportValve extends ErrorReportValve {

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        String reason = response.getMessage() == null || response.getMessage().isBlank() ? null
                : response.getMessage().replaceAll("[\\p{Cntrl}\"\\\\]", " ");
        try {
            response.setContentType("application/problem+json");
            response.setCharacterEncoding(StandardCharsets.UTF_8.name());
            Writer writer = response.getReporter();
            if (writer != null) {
                writer.write("{\"title\":\"" + title(status) + "\",\"status\":" + status + ",\"detail\":\""
                        + (reason != null ? reason : "the request was refused before it reached the service: "
                        + "its URI, request line or headers are malformed or too large") + "\"}");
                response.finishResponse();
            }
        } catch (IOException | IllegalStateException e) {
            // the client went away, or the response was already on its way: nothing more to say
        }
    }

    private static String title(int status) {
        return switch (status) {
            case 400 -> "Bad Request";
            case 404 -> "Not Found";
            case 413 -> "Content Too Large";
            case 414 -> "URI Too Long";
            case 431 -> "Request Header Fields Too Large";
            case 503 -> "Service Unavailable";
            default -> status < 500 ? "Client Error" : "Server Error";
        };
    }
}
