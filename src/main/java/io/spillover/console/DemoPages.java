package io.spillover.console;

import io.spillover.demo.DemoService;
import io.spillover.shared.ConflictException;
import io.spillover.system.Access;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/**
 * The demo on the dashboard, for platform admins: a button that starts it, what it says as it goes (redrawn
 * live on {@code demo-changed}), and a button that stops it.
 */
@Controller
class DemoPages {

    private final ConsoleAccess access;
    private final DemoService demo;

    DemoPages(ConsoleAccess access, DemoService demo) {
        this.access = access;
        this.demo = demo;
    }

    /** The dashboard's demo panel alone, for live redraws. */
    @GetMapping("/admin/demo/panel")
    String panel(Model model) {
        access.require(Access.Level.PLATFORM_ADMIN, null);
        model.addAttribute("demo", demo.view());
        return "fragments/demo :: panel";
    }

    @PostMapping("/admin/demo")
    String start(RedirectAttributes redirect) {
        access.require(Access.Level.PLATFORM_ADMIN, null);
        try {
            demo.start();
            redirect.addFlashAttribute("flash", "The demo started: it says below what it does.");
        } catch (ConflictException refused) {
            redirect.addFlashAttribute("flashError", refused.getMessage());
        }
        return "redirect:/#demo";
    }

    @PostMapping("/admin/demo/stop")
    String stop(RedirectAttributes redirect) {
        access.require(Access.Level.PLATFORM_ADMIN, null);
        demo.stop();
        redirect.addFlashAttribute("flash", "The demo stopped.");
        return "redirect:/#demo";
    }
}
