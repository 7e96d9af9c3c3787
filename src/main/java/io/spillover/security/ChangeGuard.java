package io.spillover.security;

import io.spillover.audit.AuditEntry;
import io.spillover.audit.ChangeRecords;
import io.spillover.shared.ForbiddenException;
import io.spillover.system.Change;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.aspectj.lang.ProceedingJoinPoint;
import org.aspectj.lang.annotation.Around;
import org.aspectj.lang.annotation.Aspect;
import org.aspectj.lang.reflect.MethodSignature;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/**
 * The one gate every {@link Change} passes, whether the console or the API asked for it: the caller's access
 * is checked with {@link AccessRules}, and the attempt is recorded in the audit log, refused or not.
 */
@Aspect
@Component
@Order(Ordered.LOWEST_PRECEDENCE - 1) // just outside @Transactional: the change's transaction, begun inside, takes the record
class ChangeGuard {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([A-Za-z0-9]+)(?:\\.([A-Za-z0-9]+))?}");

    private final Callers callers;
    private final ChangeRecords records;
    private final Clock clock;

    ChangeGuard(Callers callers, ChangeRecords records, Clock clock) {
        this.callers = callers;
        this.records = records;
        this.clock = clock;
    }

    @Around("@annotation(change)")
    Object guard(ProceedingJoinPoint call, Change change) throws Throwable {
        if (!(RequestContextHolder.getRequestAttributes() instanceof ServletRequestAttributes request)) {
            return call.proceed(); // Spillover itself, outside any request: seeding, scheduled syncs
        }
        Caller caller = callers.current().orElseThrow(() -> new ForbiddenException("not signed in"));
        Map<String, Object> arguments = arguments(call);
        AuditEntry attempt = new AuditEntry(clock.instant(), caller.name(), change.action(),
                target(change.target(), arguments), null, request.getRequest().getRemoteAddr());
        return records.record(attempt, () -> {
            AccessRules.check(change.level(), caller, (String) arguments.get("team"));
            return call.proceed();
        });
    }

    private static Map<String, Object> arguments(ProceedingJoinPoint call) {
        Method method = ((MethodSignature) call.getSignature()).getMethod();
        Parameter[] parameters = method.getParameters(); // a copy at each call
        Object[] values = call.getArgs();
        var arguments = new HashMap<String, Object>();
        for (int i = 0; i < parameters.length; i++) {
            arguments.put(parameters[i].getName(), values[i]);
        }
        return arguments;
    }

    /** The target with each {@code {name}} replaced by that argument, {@code {name.part}} by its record component. */
    static String target(String template, Map<String, Object> arguments) {
        Matcher placeholder = PLACEHOLDER.matcher(template);
        var target = new StringBuilder();
        while (placeholder.find()) {
            Object value = arguments.get(placeholder.group(1));
            if (value != null && placeholder.group(2) != null) {
                value = component(value, placeholder.group(2));
            }
            placeholder.appendReplacement(target, Matcher.quoteReplacement(String.valueOf(value)));
        }
        return placeholder.appendTail(target).toString();
    }

    private static Object component(Object value, String name) {
        try {
            return value.getClass().getMethod(name).invoke(value);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("no " + name + " on " + value.getClass().getSimpleName(), e);
        }
    }
}
