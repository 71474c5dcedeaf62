"""gxfp_vnm_asymmetric: Schulze's Figure 1 (Tim P. Schulze, "A Generalized
Extensive-Form Fictitious Play Algorithm", 2023, arXiv:2310.09658).

vN&M's asymmetric game with N hands: player 1's bet and player 2's call
probability vs hand strength for GXFP unperturbed and perturbed (every
action >= eps), the continuous solution's thresholds as vertical lines;
bottom row, the action-value differences (bet - check, call - fold).
Several N show the thresholds approaching the continuum.
"""

from __future__ import annotations

from spiel_ext.experiments.gxfp import measures_asymmetric as measures
from spiel_ext.experiments.gxfp import settings
from spiel_ext.experiments.gxfp.declare import ScheduleClaim, hand_experiment
from spiel_ext.experiments.gxfp.figures import ASYMMETRIC
from spiel_ext.experiments.gxfp.paper_values import vnm_game

# Fig. 1's claims, top row then bottom row, each judged on each schedule.
CLAIMS = (
    ScheduleClaim("Perturbed GXFP removes player 2's weakly dominated "
                  "mixing; unperturbed it drifts among mixed equilibria "
                  "(Fig. 1)", "qualitative (Fig. 1)", measures.p2_mixing,
                  measures.drift_verdict, measures.THRESHOLDS),
    ScheduleClaim("Player 1's unperturbed and perturbed bet probabilities "
                  "are nearly indistinguishable (Fig. 1)", "qualitative",
                  measures.p1_bet_gap, measures.BET_GAP, measures.THRESHOLDS),
    ScheduleClaim("The discrete solution approaches the continuous "
                  "thresholds (a = 1/9, b = 7/9, c = 5/9) as N grows (Fig. "
                  "1)", "qualitative", measures.threshold_approach,
                  measures.approach_verdict, measures.THRESHOLDS),
    ScheduleClaim("Forced to bet with probability eps where it would check "
                  "(between a and b), player 1 loses more to player 2's "
                  "dominant strategy (perturbed) than to its weakly "
                  "dominated ones (Fig. 1, bottom left)", "qualitative",
                  measures.forced_bets_punished, measures.punished_verdict,
                  measures.THRESHOLDS),
    ScheduleClaim("Player 2's call - fold value shows no significant "
                  "difference perturbed and unperturbed (Fig. 1, bottom "
                  "right)", "qualitative", measures.payoff_gap,
                  measures.PAYOFF_GAP, measures.THRESHOLDS),
    ScheduleClaim("Unperturbed, player 2 is indifferent between calling and "
                  "folding throughout the region where mixed equilibria "
                  "exist (Fig. 1, bottom right)", "qualitative",
                  measures.indifference, measures.INDIFFERENT,
                  measures.THRESHOLDS))

GXFP_VNM_ASYMMETRIC = hand_experiment(
    "gxfp_vnm_asymmetric",
    "GXFP Fig. 1: asymmetric vN&M poker, strategies and action values vs "
    "hand, perturbed and not, continuous thresholds, on each update "
    "schedule",
    games=[tuple(vnm_game(n, "asymmetric") for n in hands)
           for hands in settings.ASYMMETRIC_HANDS],
    iterations=settings.ASYMMETRIC_ITERATIONS,
    choices=settings.ASYMMETRIC_CHOICES,
    figures=ASYMMETRIC, claims=CLAIMS)
