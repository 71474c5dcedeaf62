"""gxfp_vnm_asymmetric: Schulze's Figure 1 (Tim P. Schulze, "A Generalized
Extensive-Form Fictitious Play Algorithm", 2023, arXiv:2310.09658).

vN&M's asymmetric game with N hands: player 1's bet and player 2's call
probability vs hand strength for GXFP unperturbed and perturbed (every
action >= eps), the continuous solution's thresholds as vertical lines;
bottom row, the action-value differences (bet - check, call - fold).
Several N show the thresholds approaching the continuum.
"""

from __future__ import annotations

import functools

from spiel_ext.experiments.gxfp import measures_asymmetric as measures
from spiel_ext.experiments.gxfp import settings
from spiel_ext.experiments.gxfp.figures import summarize_asymmetric
from spiel_ext.experiments.gxfp.paper_values import (LABELS, METRICS, PAPER,
                                                     algorithms_of,
                                                     schedule_variants,
                                                     vnm_game)
from spiel_ext.experiments.spec import Experiment, Scale
from spiel_ext.results.claims import ClaimSpec
from spiel_ext.results.report import Variant

VARIANTS = schedule_variants(measures.roles(LABELS))
ALGORITHMS = algorithms_of(VARIANTS)
_ON = dict(labels=LABELS)


def _claims(variant: Variant) -> tuple[ClaimSpec, ...]:
  """Fig. 1's three claims, judged on one schedule."""
  on = dict(variant=variant, **_ON)
  return (
      ClaimSpec(PAPER, "Perturbed GXFP removes player 2's weakly dominated "
                "mixing; unperturbed it drifts among mixed equilibria (Fig. "
                "1)", "qualitative (Fig. 1)", functools.partial(
                    measures.p2_mixing, **on), measures.drift_verdict,
                measures.THRESHOLDS),
      ClaimSpec(PAPER, "Player 1's unperturbed and perturbed bet "
                "probabilities are nearly indistinguishable (Fig. 1)",
                "qualitative", functools.partial(measures.p1_bet_gap, **on),
                measures.BET_GAP, measures.THRESHOLDS),
      ClaimSpec(PAPER, "The discrete solution approaches the continuous "
                "thresholds (a = 1/9, b = 7/9, c = 5/9) as N grows (Fig. 1)",
                "qualitative", functools.partial(
                    measures.threshold_approach, **on),
                measures.approach_verdict, measures.THRESHOLDS))


def _scale(scale: int) -> Scale:
  return Scale(iterations=settings.ASYMMETRIC_ITERATIONS[scale], seeds=2,
               games=tuple(vnm_game(n, "asymmetric")
                           for n in settings.ASYMMETRIC_HANDS[scale]),
               algorithms=ALGORITHMS)


GXFP_VNM_ASYMMETRIC = Experiment(
    name="gxfp_vnm_asymmetric",
    description="GXFP Fig. 1: asymmetric vN&M poker, strategies and action "
                "values vs hand, perturbed and not, continuous thresholds, "
                "on each update schedule",
    quick=_scale(0),
    paper=_scale(1),
    metrics=METRICS,
    summarize=functools.partial(summarize_asymmetric, **_ON),
    cost="quick: about 1 minute; paper: 9 minutes with --workers=1 (2 "
         "busy cores)",
    claims=tuple(claim for variant in VARIANTS
                 for claim in _claims(variant)),
    choices=settings.ASYMMETRIC_CHOICES,
    variants=VARIANTS)
