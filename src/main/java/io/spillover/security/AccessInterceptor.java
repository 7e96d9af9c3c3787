package io.spillover.security;

import io.spillover.audit.AuditEntry;
import io.spillover.audit.AuditLog;
import io.spillover.shared.ForbiddenException;
import io.spillover.shared.NotFoundException;
import io.spillover.system.Access;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.time.Clock;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.HandlerMapping;

/**
 * Enforces each API operation's {@link Access} rule. A caller outside the path's team gets 404, exactly as
 * for a team that does not exist, so names do not leak; a caller in the team without the role gets 403. An
 * operation without a rule is refused. A change it refuses never reaches its service's {@link ChangeGuard},
 * so the refusal is recorded here; every change that gets through is recorded by that guard.
 */
@Component
class AccessInterceptor implements HandlerInterceptor {

    private static final Logger log = LoggerFactory.getLogger(AccessInterceptor.class);
    private static final Set<String> CHANGES = Set.of("POST", "PUT", "PATCH", "DELETE");

    private final Callers callers;
    private final AuditLog audit;
    private final Clock clock;

    AccessInterceptor(Callers callers, AuditLog audit, Clock clock) {
        this.callers = callers;
        this.audit = audit;
        this.clock = clock;
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        if (!(handler instanceof HandlerMethod method)) {
            return true;
        }
        if (request.getDispatcherType() == jakarta.servlet.DispatcherType.ASYNC) {
            return true; // the closing dispatch of a stream whose request was checked when it came in
        }
        Access access = method.getMethodAnnotation(Access.class);
        if (access == null) {
            log.error("{} has no @Access rule; refusing it", method);
            throw new ForbiddenException("this operation has no access rule");
        }
        Caller caller = callers.current().orElseThrow(() -> new ForbiddenException("not signed in"));
        try {
            AccessRules.check(access.value(), caller, team(request));
        } catch (ForbiddenException | NotFoundException refused) {
            if (CHANGES.contains(request.getMethod())) {
                record(request, caller.name(), refused instanceof NotFoundException ? "not found" : "refused");
            }
            throw refused;
        }
        return true;
    }

    private void record(HttpServletRequest request, String actor, String outcome) {
        audit.record(new AuditEntry(clock.instant(), actor, request.getMethod() + " " + request.getRequestURI(),
                request.getRequestURI(), outcome, request.getRemoteAddr()));
    }

    @SuppressWarnings("unchecked")
    private static String team(HttpServletRequest request) {
        var variables = (Map<String, String>) request.getAttribute(HandlerMapping.URI_TEMPLATE_VARIABLES_ATTRIBUTE);
        return variables == null ? null : variables.get("team");
    }
}
