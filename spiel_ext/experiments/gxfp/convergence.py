"""gxfp_convergence: Schulze's Figures 4-5 (Tim P. Schulze, "A Generalized
Extensive-Form Fictitious Play Algorithm", 2023, arXiv:2310.09658).

The value of the strategy pair to player 1 and NashConv vs iterations for
CFR, XFP and GXFP from random initial strategies, the continuous game
value -88/1083 as reference (Fig. 4); perturbed XFP vs GXFP with the
perturbed game's NashConv (Fig. 5); the paper's side remarks (alternating
updates, cost per iteration, integer counting) as claims of their own.
"""

from __future__ import annotations

import functools

from spiel_ext.experiments.gxfp import measures_convergence as measures
from spiel_ext.experiments.gxfp import settings
from spiel_ext.experiments.gxfp.declare import (ScheduleClaim,
                                                schedule_experiment)
from spiel_ext.experiments.gxfp.figures import summarize_convergence
from spiel_ext.experiments.gxfp.paper_values import (LABELS, PAPER,
                                                     XFP_AS_RUN,
                                                     schedule_variants,
                                                     vnm_game)
from spiel_ext.experiments.gxfp.timing import time_main_solvers
from spiel_ext.results.claims import ClaimSpec
from spiel_ext.results.report import Variant, verdict_from

SIMILAR_ERROR = ("The error (NashConv) and its decay are similar for CFR, "
                 "XFP and GXFP (Fig. 4)")
SCHEDULE_ROLES = measures.MAIN_ROLES + measures.perturbed_roles(LABELS)
SCHEDULE_VARIANTS = schedule_variants(SCHEDULE_ROLES)
HEAVY_START = Variant(
    "heavy CFR start", tuple(LABELS.heavy_cfr[s] for s in LABELS.schedules),
    "CFR from U(0, 1) regrets and policy, worth ~N iterations of regret "
    "(our earlier runs' start)")
UNIFORM_START = Variant(
    "uniform CFR start",
    tuple(LABELS.uniform_cfr[s] for s in LABELS.schedules),
    "CFR from the uniform strategy (deterministic, one run)")
INTEGER = Variant("integer counting", (LABELS.integer_gxfp,),
                  "simultaneous GXFP counting best decisions in integers (a "
                  "consistency check of the two implementations)")
_ON = dict(labels=LABELS)
# Figs. 4-5's claims, each judged on each schedule; every one reads XFP.
SCHEDULE_CLAIMS = (
    ScheduleClaim("The value of the strategy pair to player 1 is "
                  "comparable in magnitude with the game value (Fig. 4, "
                  "top: the continuous game's drawn; the discrete game's "
                  "nears it as N grows)", "-88/1083 (continuous game)",
                  measures.game_value, measures.value_verdict,
                  measures.FINAL_VALUES, XFP_AS_RUN),
    ScheduleClaim("CFR, XFP and GXFP have similar cost per iteration (Fig. "
                  "4 discussion)", "similar", functools.partial(
                      measures.cost_alone, timer=time_main_solvers),
                  measures.COST_SIMILAR, measures.COST_TABLE, XFP_AS_RUN),
    ScheduleClaim(SIMILAR_ERROR, "similar", measures.error_similar,
                  measures.ERROR_SIMILAR, measures.FINAL_VALUES, XFP_AS_RUN),
    ScheduleClaim("Convergence in the perturbed game is much faster than in "
                  "the unperturbed one (Fig. 5)", "qualitative",
                  measures.perturbed_faster,
                  measures.perturbed_faster_verdict, measures.FINAL_VALUES,
                  XFP_AS_RUN))


def _start_claim(variant: Variant) -> ClaimSpec:
  """An ablation of CFR's start: how far it moves Fig. 4's claim."""
  return ClaimSpec(PAPER, f"{SIMILAR_ERROR}, with CFR's start changed",
                   "similar", functools.partial(
                       measures.cfr_start, variant=variant, **_ON),
                   measures.start_verdict, measures.FINAL_VALUES)


GXFP_CONVERGENCE = schedule_experiment(
    "gxfp_convergence",
    "GXFP Figs. 4-5: value and NashConv vs iterations for CFR, XFP, GXFP on "
    "the raise variant; perturbed XFP vs GXFP; on each update schedule; "
    "CFR-start ablations; integer vs float counting; cost per iteration "
    "timed alone",
    games=[(vnm_game(hands, "raise"),)
           for hands in settings.CONVERGENCE_HANDS],
    iterations=settings.CONVERGENCE_ITERATIONS,
    runs=settings.CONVERGENCE_SEEDS,
    summarize=functools.partial(summarize_convergence,
                                timer=time_main_solvers),
    choices=settings.CONVERGENCE_CHOICES,
    roles=SCHEDULE_ROLES, claims=SCHEDULE_CLAIMS,
    ablations=(HEAVY_START, UNIFORM_START, INTEGER),
    ablation_claims=(
        ClaimSpec(PAPER, "All three converge much more quickly with "
                  "alternating updates (section 6)", "qualitative",
                  functools.partial(measures.alternating_faster,
                                    variants=SCHEDULE_VARIANTS,
                                    substitution=XFP_AS_RUN, **_ON),
                  verdict_from, measures.FINAL_VALUES),
        _start_claim(HEAVY_START), _start_claim(UNIFORM_START),
        ClaimSpec(PAPER, "GXFP can count best decisions in integers, free "
                  "of round-off (section 6); consistency check only: "
                  "integer and float GXFP must agree, which does not test "
                  "the round-off claim", "qualitative", functools.partial(
                      measures.integer_counting, variant=INTEGER, **_ON),
                  measures.consistency_verdict, measures.FINAL_VALUES)))
