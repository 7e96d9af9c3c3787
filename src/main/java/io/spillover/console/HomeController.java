package io.spillover.console;

import io.spillover.security.Callers;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;

@Controller
class HomeController {

    private final Callers callers;

    HomeController(Callers callers) {
        this.callers = callers;
    }

    @GetMapping("/")
    String home(Model model) {
        model.addAttribute("caller", callers.current().orElseThrow());
        return "home";
    }
}
