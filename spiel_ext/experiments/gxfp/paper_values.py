"""What the GXFP paper's three experiments share: the paper, the games,
the metrics, and which algorithm plays which role on each update schedule
(Tim P. Schulze, "A Generalized Extensive-Form Fictitious Play Algorithm",
2023, arXiv:2310.09658).

The paper does not say whether players update at once or in turn, and its
summary says all three algorithms converge much faster in turn; every
figure therefore runs all its algorithms on one schedule, once per
schedule ("paper setting (simultaneous)", "paper setting (alternating)").
"""

from __future__ import annotations

from typing import Sequence

from spiel_ext.experiments.common_algorithms import GXFP_EPSILON
from spiel_ext.experiments.gxfp.shared import (ALTERNATING, SIMULTANEOUS,
                                               GXFPLabels, perturbed_name)
from spiel_ext.experiments.metrics import perturbed_metric_name
from spiel_ext.results.report import Variant

PAPER = "GXFP (Schulze 2023)"
SCHEDULES = (SIMULTANEOUS, ALTERNATING)
XFP_EPS = perturbed_name("XFP", GXFP_EPSILON)
GXFP_EPS = perturbed_name("GXFP", GXFP_EPSILON)
_ALTERNATING_EPS = f"alternating, eps={GXFP_EPSILON:g}"
# What our XFP runs in place of the paper's: the paper renormalises its
# behaviour strategies every iteration (its eq. 18), ours does not. A claim
# read on XFP names it in its verdict's setting.
XFP_AS_RUN = "XFP without eq. 18's renormalisation"

# Each schedule's algorithm id for each role the figures draw; CFR's other
# starts and integer counting (ablations of gxfp_convergence).
LABELS = GXFPLabels(
    epsilon=GXFP_EPSILON,
    roles={SIMULTANEOUS: {"CFR": "CFR (simultaneous, light start)",
                          "XFP": "XFP", "GXFP": "GXFP", XFP_EPS: XFP_EPS,
                          GXFP_EPS: GXFP_EPS},
           ALTERNATING: {"CFR": "CFR (light start)",
                         "XFP": "XFP (alternating)",
                         "GXFP": "GXFP (alternating)",
                         XFP_EPS: f"XFP ({_ALTERNATING_EPS})",
                         GXFP_EPS: f"GXFP ({_ALTERNATING_EPS})"}},
    heavy_cfr={SIMULTANEOUS: "CFR (simultaneous)", ALTERNATING: "CFR"},
    uniform_cfr={SIMULTANEOUS: "CFR (simultaneous, uniform)",
                 ALTERNATING: "CFR (uniform)"},
    integer_gxfp="GXFP (integer)",
    perturbed_metric=perturbed_metric_name(GXFP_EPSILON))
METRICS = ("nash_conv", LABELS.perturbed_metric, "value_player_0")

_SCHEDULE_TEXT = {
    SIMULTANEOUS: "both players best-respond to sigma_t, then both update "
                  "(OpenSpiel's XFP)",
    ALTERNATING: "player 2 answers player 1's updated strategy (the paper's "
                 "summary: all three converge much faster so)"}


def vnm_game(hands: int, variant: str) -> str:
  """The ``spiel_ext_vnm_poker`` game string with N = ``hands``."""
  return f"spiel_ext_vnm_poker(hands={hands},variant={variant})"


def schedule_roles(schedule: str) -> dict[str, str]:
  """{role: algorithm id} of a schedule: roles "CFR", "XFP", "GXFP",
  "XFP (eps=...)", "GXFP (eps=...)"."""
  return dict(LABELS.roles[schedule])


def schedule_variants(roles: Sequence[str]) -> tuple[Variant, ...]:
  """One paper-setting variant per schedule, running ``roles``."""
  return tuple(Variant(f"paper setting ({schedule})",
                       tuple(LABELS.roles[schedule][role] for role in roles),
                       _SCHEDULE_TEXT[schedule]) for schedule in SCHEDULES)


def algorithms_of(variants: Sequence[Variant]) -> tuple[str, ...]:
  """Every algorithm id of ``variants``, in order, once."""
  return tuple(dict.fromkeys(label for variant in variants
                             for label in variant.algorithms))
