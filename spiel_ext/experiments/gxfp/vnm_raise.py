"""gxfp_vnm_raise: Schulze's Figures 2-3 (Tim P. Schulze, "A Generalized
Extensive-Form Fictitious Play Algorithm", 2023, arXiv:2310.09658).

The raise variant: player 1's sequences given the first action (as the
paper draws them), player 2 after a check, player 2 facing a bet;
unperturbed GXFP (Fig. 2), perturbed XFP vs GXFP with the continuous
thresholds (Fig. 3; player 1's movable check-raise boundaries dotted).
"""

from __future__ import annotations

import functools

from spiel_ext.experiments.gxfp import measures_raise as measures
from spiel_ext.experiments.gxfp import settings
from spiel_ext.experiments.gxfp.figures import summarize_raise
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
  """Figs. 2-3's three claims, judged on one schedule."""
  on = dict(variant=variant, **_ON)
  return (
      ClaimSpec(PAPER, "Unperturbed GXFP mixes for most hands; the "
                "perturbation removes the weakly dominated mixing (Figs. "
                "2-3)", "qualitative", functools.partial(
                    measures.hands_mixing, **on), measures.mixing_verdict,
                measures.THRESHOLDS),
      ClaimSpec(PAPER, "Perturbed XFP and GXFP give nearly identical "
                "strategies (Fig. 3)", "qualitative", functools.partial(
                    measures.xfp_gxfp_gap, **on), measures.XFP_GXFP_GAP,
                measures.THRESHOLDS),
      ClaimSpec(PAPER, "The perturbed solutions fit the continuous "
                "thresholds (Fig. 3)", "qualitative", functools.partial(
                    measures.continuum_fit, **on), measures.fit_verdict,
                measures.THRESHOLDS))


def _scale(scale: int) -> Scale:
  return Scale(iterations=settings.RAISE_ITERATIONS[scale], seeds=2,
               games=(vnm_game(settings.RAISE_HANDS[scale], "raise"),),
               algorithms=ALGORITHMS)


GXFP_VNM_RAISE = Experiment(
    name="gxfp_vnm_raise",
    description="GXFP Figs. 2-3: raise-variant strategies vs hand, "
                "unperturbed GXFP, perturbed XFP vs GXFP, continuous "
                "thresholds, on each update schedule",
    quick=_scale(0),
    paper=_scale(1),
    metrics=METRICS,
    summarize=functools.partial(summarize_raise, **_ON),
    cost="quick: about 30 s; paper: 18 minutes with --workers=1 (2 busy "
         "cores)",
    claims=tuple(claim for variant in VARIANTS
                 for claim in _claims(variant)),
    choices=settings.RAISE_CHOICES,
    variants=VARIANTS)
