package io.spillover.placement;

import static io.spillover.placement.Decision.Outcome.HELD_BACK;
import static io.spillover.placement.Decision.Outcome.NOTHING_FITS;
import static io.spillover.placement.Decision.Outcome.SELECTED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DecisionTest {

    private static final EntryVerdict P5_FULL = new EntryVerdict(0, "ml.p5.48xlarge", 2, "us-east-1", "on-demand",
            false, "on-demand ml.p5.48xlarge in us-east-1 has 0 of 2 instances free, 2 needed");
    private static final EntryVerdict P4D_SELECTED = new EntryVerdict(1, "ml.p4d.24xlarge", 4, "us-east-1",
            "on-demand", true, "selected");
    private static final EntryVerdict G6E_FITS_TOO = new EntryVerdict(2, "ml.g6e.48xlarge", 8, "us-east-1",
            "on-demand", true, "fits too; entry 1 comes first");

    @Test
    void selectionNamesTheFirstEntryThatFits() {
        Decision decision = new Decision(SELECTED, List.of(P5_FULL, P4D_SELECTED, G6E_FITS_TOO));

        assertThat(decision.isSelected()).isTrue();
        assertThat(decision.selected()).contains(P4D_SELECTED);
    }

    @Test
    void rejectsSelectionWithoutAnEntryThatFits() {
        assertThatIllegalArgumentException().isThrownBy(() -> new Decision(SELECTED, List.of(P5_FULL)))
                .withMessage("a selection needs an entry that fits");
    }

    @Test
    void rejectsWaitingWithAnEntryThatFits() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new Decision(NOTHING_FITS, List.of(P5_FULL, P4D_SELECTED)))
                .withMessage("NOTHING_FITS cannot have an entry that fits");
        assertThatIllegalArgumentException().isThrownBy(() -> new Decision(HELD_BACK, List.of(P4D_SELECTED)))
                .withMessage("HELD_BACK cannot have an entry that fits");
    }

    @Test
    void waitingSelectsNothing() {
        Decision decision = new Decision(NOTHING_FITS, List.of(P5_FULL));

        assertThat(decision.isSelected()).isFalse();
        assertThat(decision.selected()).isEmpty();
    }

    @Test
    void heldBackGivesEveryEntryTheSameReason() {
        var preferences = new PreferenceList(List.of(
                new PreferenceEntry("ml.p5.48xlarge", 2, "us-east-1", "h100-q4"),
                new PreferenceEntry("ml.p4d.24xlarge", 4, "us-west-2", null)));
        String reason = "job llama-ft-41 ahead in the strict-FIFO queue waits";

        Decision decision = Decision.heldBack(preferences, reason);

        assertThat(decision).isEqualTo(new Decision(HELD_BACK, List.of(
                new EntryVerdict(0, "ml.p5.48xlarge", 2, "us-east-1", "plan:h100-q4", false, reason),
                new EntryVerdict(1, "ml.p4d.24xlarge", 4, "us-west-2", "on-demand", false, reason))));
        assertThat(decision.selected()).isEmpty();
    }

    @Test
    void keepsItsOwnCopyOfTheVerdicts() {
        var verdicts = new ArrayList<>(List.of(P5_FULL, P4D_SELECTED));
        Decision decision = new Decision(SELECTED, verdicts);

        verdicts.clear();

        assertThat(decision.entries()).containsExactly(P5_FULL, P4D_SELECTED);
    }
}
