package io.spillover.system;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.web.WebProperties;
import org.springframework.boot.web.error.ErrorAttributeOptions;
import org.springframework.boot.webmvc.autoconfigure.error.BasicErrorController;
import org.springframework.boot.webmvc.autoconfigure.error.ErrorViewResolver;
import org.springframework.boot.webmvc.error.ErrorAttributes;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;

/**
 * The error page for what no handler answered itself (a 406 decided while choosing the handler, a status sent
 * with {@code sendError}): an RFC 9457 problem document like every other API error, where Spring Boot's own
 * writes {@code {"timestamp", "error", "path"}}. Browsers still get the HTML error page.
 */
@Controller
class ProblemErrorController extends BasicErrorController {

    ProblemErrorController(ErrorAttributes attributes, WebProperties web, ObjectProvider<ErrorViewResolver> resolvers) {
        super(attributes, web.getError(), resolvers.orderedStream().toList());
    }

    @Override
    public ResponseEntity<Map<String, Object>> error(HttpServletRequest request) {
        HttpStatus status = getStatus(request);
        if (status == HttpStatus.NO_CONTENT) {
            return new ResponseEntity<>(status);
        }
        Map<String, Object> attributes = getErrorAttributes(request, ErrorAttributeOptions.of(
                ErrorAttributeOptions.Include.PATH));
        var problem = new LinkedHashMap<String, Object>();
        problem.put("type", "about:blank");
        problem.put("title", status.getReasonPhrase());
        problem.put("status", status.value());
        problem.put("detail", status.getReasonPhrase());
        if (attributes.get("path") != null) {
            problem.put("instance", attributes.get("path"));
        }
        return ResponseEntity.status(status).contentType(MediaType.APPLICATION_PROBLEM_JSON).body(problem);
    }

    /**
     * Opened directly rather than forwarded to by an error, {@code /error} has nothing to report: that is a 404,
     * where Spring Boot's own answer is a 500 (IsolationTest found it).
     */
    @Override
    protected HttpStatus getStatus(HttpServletRequest request) {
        if (request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE) == null) {
            return HttpStatus.NOT_FOUND;
        }
        return super.getStatus(request);
    }
}
