package io.spillover.console;

import io.spillover.shared.ConflictException;
import io.spillover.shared.InvalidRequestException;
import io.spillover.shared.NotFoundException;
import io.spillover.shared.OutsideTeamException;
import io.spillover.shared.Violation;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.springframework.ui.Model;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/**
 * The console's one way to answer a form: a change that went through redirects with a flash message; one
 * that broke rules shows the form again, as it was filled in, with each violation beside the input it is
 * about (those no input owns at the top of the form, under {@link #WHOLE}).
 */
final class Forms {

    /** The error slot of the form as a whole. */
    static final String WHOLE = "form";

    private Forms() {
    }

    /**
     * A form's inputs, and which of them shows a request field of another name: {@code team} for the input
     * {@code name}, say. A field under an input ({@code instanceLimits.ml.p5.48xlarge} under
     * {@code instanceLimits}) goes where that input goes.
     */
    record Fields(Map<String, String> inputs) {

        static Fields of(String... inputs) {
            var byField = new LinkedHashMap<String, String>();
            for (String input : inputs) {
                byField.put(input, input);
            }
            return new Fields(byField);
        }

        /** Also shows the violations of {@code field} (and of fields under it) beside {@code input}. */
        Fields showing(String field, String input) {
            var byField = new LinkedHashMap<>(inputs);
            byField.put(field, input);
            return new Fields(byField);
        }

        Fields showing(Set<String> fields) {
            var byField = new LinkedHashMap<>(inputs);
            fields.forEach(field -> byField.put(field, field));
            return new Fields(byField);
        }

        /** The violations by the input that shows them; several for one input joined. */
        Map<String, String> errors(List<Violation> violations) {
            var errors = new HashMap<String, String>();
            violations.forEach(v -> errors.merge(inputOf(v.field()), v.message(), (a, b) -> a + "; " + b));
            return errors;
        }

        private String inputOf(String field) {
            for (String prefix = field; !prefix.isEmpty(); prefix = parent(prefix)) {
                if (inputs.containsKey(prefix)) {
                    return inputs.get(prefix);
                }
            }
            return WHOLE;
        }

        private static String parent(String field) {
            int cut = Math.max(field.lastIndexOf('.'), field.lastIndexOf('['));
            return cut < 0 ? "" : field.substring(0, cut);
        }
    }

    /**
     * Makes the change: on success redirects to {@code page} flashing what it answers (if anything); on a validation
     * failure shows {@code form} again with the errors and the values sent; a missing or conflicting thing
     * is flashed as an error on {@code page}, but a caller outside the page's team gets the 404 its pages give.
     */
    static String submit(Model model, RedirectAttributes redirect, String page, Fields fields,
                         Map<String, String> values, Supplier<String> change, Supplier<String> form) {
        try {
            String done = change.get();
            if (done != null) {
                redirect.addFlashAttribute("flash", done);
            }
        } catch (InvalidRequestException e) {
            model.addAttribute("errors", fields.errors(e.violations()));
            model.addAttribute("values", values);
            return form.get();
        } catch (OutsideTeamException e) {
            throw e; // the team's pages answer 404 to outsiders; so do its forms
        } catch (NotFoundException | ConflictException e) {
            redirect.addFlashAttribute("flashError", e.getMessage());
        }
        return "redirect:" + page;
    }
}
