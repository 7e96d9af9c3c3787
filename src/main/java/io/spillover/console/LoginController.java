package io.spillover.console;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.client.registration.ClientRegistrationRepository;
import org.springframework.security.oauth2.client.registration.InMemoryClientRegistrationRepository;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;

@Controller
class LoginController {

    private final ObjectProvider<ClientRegistrationRepository> oidc;

    LoginController(ObjectProvider<ClientRegistrationRepository> oidc) {
        this.oidc = oidc;
    }

    /** The sign-in form, with a link per OpenID Connect provider when any is configured. */
    @GetMapping("/login")
    String login(Model model) {
        var providers = new java.util.ArrayList<ClientRegistration>();
        if (oidc.getIfAvailable() instanceof InMemoryClientRegistrationRepository registrations) {
            registrations.forEach(providers::add);
        }
        model.addAttribute("providers", providers);
        return "login";
    }
}
