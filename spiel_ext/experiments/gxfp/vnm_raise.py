"""gxfp_vnm_raise: Schulze's Figures 2-3 (Tim P. Schulze, "A Generalized
Extensive-Form Fictitious Play Algorithm", 2023, arXiv:2310.09658).

The raise variant: player 1's sequences given the first action (as the
paper draws them), player 2 after a check, player 2 facing a bet;
unperturbed GXFP (Fig. 2), perturbed XFP vs GXFP with the continuous
thresholds (Fig. 3; player 1's movable check-raise boundaries dotted).
"""

from __future__ import annotations

from spiel_ext.experiments.gxfp import measures_raise as measures
from spiel_ext.experiments.gxfp import settings
from spiel_ext.experiments.gxfp.declare import ScheduleClaim, hand_experiment
from spiel_ext.experiments.gxfp.figures import RAISE
from spiel_ext.experiments.gxfp.paper_values import XFP_AS_RUN, vnm_game

# Figs. 2-3's claims, each judged on each schedule; those reading XFP name
# what it runs.
CLAIMS = (
    ScheduleClaim("Unperturbed GXFP mixes for most hands; the perturbation "
                  "removes the weakly dominated mixing (Figs. 2-3)",
                  "qualitative", measures.hands_mixing,
                  measures.mixing_verdict, measures.THRESHOLDS),
    ScheduleClaim("Perturbed XFP and GXFP give nearly identical strategies "
                  "(Fig. 3)", "qualitative", measures.xfp_gxfp_gap,
                  measures.XFP_GXFP_GAP, measures.THRESHOLDS, XFP_AS_RUN),
    ScheduleClaim("The perturbed solutions fit the continuous thresholds "
                  "(Fig. 3)", "qualitative", measures.continuum_fit,
                  measures.fit_verdict, measures.THRESHOLDS, XFP_AS_RUN),
    ScheduleClaim("The perturbed solutions' mixing near the thresholds, a "
                  "boundary effect of the discrete game, diminishes as the "
                  "number of hands N grows (Fig. 3)", "qualitative",
                  measures.mixing_by_hands, measures.shrink_verdict,
                  measures.THRESHOLDS, XFP_AS_RUN))

GXFP_VNM_RAISE = hand_experiment(
    "gxfp_vnm_raise",
    "GXFP Figs. 2-3: raise-variant strategies vs hand, unperturbed GXFP, "
    "perturbed XFP vs GXFP, continuous thresholds, on each update schedule",
    games=[(vnm_game(hands, "raise"),) for hands in settings.RAISE_HANDS],
    iterations=settings.RAISE_ITERATIONS,
    choices=settings.RAISE_CHOICES,
    figures=RAISE, claims=CLAIMS)
