package io.spillover.console;

import io.spillover.security.Callers;
import io.spillover.shared.ConflictException;
import io.spillover.shared.ForbiddenException;
import io.spillover.shared.InvalidRequestException;
import io.spillover.shared.NotFoundException;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.ModelAttribute;

/** What every console page shows (who is signed in, their teams) and how its errors look. */
@ControllerAdvice(basePackageClasses = ConsoleAdvice.class)
class ConsoleAdvice {

    private final Callers callers;
    private final ConsoleAccess access;

    ConsoleAdvice(Callers callers, ConsoleAccess access) {
        this.callers = callers;
        this.access = access;
    }

    @ModelAttribute
    void signedIn(Model model) {
        callers.current().ifPresent(caller -> {
            model.addAttribute("me", caller);
            model.addAttribute("myTeams", access.teamsOf(caller));
        });
    }

    @ExceptionHandler(NotFoundException.class)
    String notFound(NotFoundException e, Model model, HttpServletResponse response) {
        return error(404, e.getMessage(), model, response);
    }

    @ExceptionHandler(ForbiddenException.class)
    String forbidden(ForbiddenException e, Model model, HttpServletResponse response) {
        return error(403, e.getMessage(), model, response);
    }

    @ExceptionHandler(ConflictException.class)
    String conflict(ConflictException e, Model model, HttpServletResponse response) {
        return error(409, e.getMessage(), model, response);
    }

    @ExceptionHandler(InvalidRequestException.class)
    String invalid(InvalidRequestException e, Model model, HttpServletResponse response) {
        return error(400, e.summary(), model, response);
    }

    /** An error page; exception handlers get a fresh model, so the signed-in person is added again. */
    private String error(int status, String message, Model model, HttpServletResponse response) {
        response.setStatus(status);
        signedIn(model);
        model.addAttribute("status", status);
        model.addAttribute("message", message);
        return "error/problem";
    }
}
