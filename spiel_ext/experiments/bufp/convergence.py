"""bufp_convergence: the BUFP paper's Figures 1-2 (Qi Ju, Zhemei Fang,
Yunfeng Luo, "Beyond Nash Equilibrium: Achieving Bayesian Perfect
Equilibrium with Belief Update Fictitious Play", DDCLS 2024,
arXiv:2409.02706).

NashConv (Fig. 1) and the perfect-Bayesian gap, the paper's "total
exploitability" (Fig. 2), against iterations on Kuhn and Leduc, 30 runs
each. The paper's CFR is RLCard's CFR agent (chance-sampled, uniform start:
"CS-CFR"); full-width CFR from the uniform start is the deterministic
reference. BUFP(EF), BUFP(X) and XFP run from random starts with step
1/(t+1) and, as the authors' code does, with a first step of size 1 (step
1/t) and ties split evenly. From a full-support start BUFP(X) is XFP
exactly; the first step of size 1 leaves infosets off path, where they
differ.
"""

from __future__ import annotations

import functools

from spiel_ext.experiments.bufp import measures_convergence as measures
from spiel_ext.experiments.bufp import settings
from spiel_ext.experiments.bufp.algorithms import (BUFP_X_FIRST_STEP,
                                                   XFP_FIRST_STEP)
from spiel_ext.experiments.bufp.figures import (FIG1, FIG2, FINAL_VALUES,
                                                summarize_convergence)
from spiel_ext.experiments.bufp.paper_values import PAPER
from spiel_ext.experiments.spec import Experiment, Scale
from spiel_ext.results.claims import ClaimSpec
from spiel_ext.results.labels import game_label
from spiel_ext.results.report import verdict_from

FASTER = ("BUFP(X) converges faster in NashConv than CFR and BUFP(EF) (Fig. "
          "1): stays below both from the first tenth of the run on")
LOWEST_GAP = ("BUFP(EF) reaches the lowest perfect-Bayesian gap (total "
              "exploitability, Fig. 2): stays below BUFP(X) and CFR to the end")
VARIES = ("BUFP(EF)'s NashConv varies considerably (Fig. 1): its relative "
          "5-95% band is wider than BUFP(X)'s at most evaluation points")
ON_PAR = ("BUFP(X) converges on par with CFR (section 6): its final "
          f"NashConv at most {measures.ON_PAR_RATIO:g}x CFR's")
SLOWER_FIRST = ("BUFP(EF) may converge more slowly initially (section 5.2, "
                "Fig. 2): its perfect-Bayesian gap above both BUFP(X)'s and "
                "CFR's at some evaluation point in the first tenth of the "
                "run")
_OFF_PATH = "not in the paper (full-support starts leave no infoset off path)"
_RANDOM, _FIRST_STEP = settings.CONVERGENCE_VARIANTS[:2]


def _variant_claims(variant) -> tuple[ClaimSpec, ...]:
  """Section 5.1's three claims, judged on ``variant``."""
  on = dict(variant=variant, label=game_label)
  return (
      ClaimSpec(PAPER, FASTER, "qualitative (Fig. 1)", functools.partial(
          measures.faster_nash_conv, **on), verdict_from, FIG1),
      ClaimSpec(PAPER, LOWEST_GAP, "qualitative (Fig. 2)", functools.partial(
          measures.lowest_gap, **on), verdict_from, FIG2),
      ClaimSpec(PAPER, VARIES, "qualitative (Fig. 1)", functools.partial(
          measures.wider_spread, **on), verdict_from, FINAL_VALUES),
      ClaimSpec(PAPER, ON_PAR, "qualitative (\"a convergence rate on par "
                "with CFR\")", functools.partial(
                    measures.on_par_with_cfr, **on), verdict_from, FIG1),
      ClaimSpec(PAPER, SLOWER_FIRST, "qualitative (\"may converge more "
                "slowly initially\")", functools.partial(
                    measures.slower_initially, **on), verdict_from, FIG2))


def _bufp_x_vs_xfp(bufp_x: str, xfp: str, same: bool, text: str,
                   variant) -> ClaimSpec:
  """Ours: BUFP(X) equals XFP (``same``) or differs from it."""
  return ClaimSpec(
      "ours", f"BUFP(X) {'equals' if same else 'differs from'} XFP ({text})",
      _OFF_PATH, functools.partial(
          measures.bufp_x_vs_xfp, bufp_x=bufp_x, xfp=xfp, same=same,
          setting=variant.label, variants=settings.CONVERGENCE_VARIANTS,
          label=game_label), verdict_from, FINAL_VALUES)


BUFP_CONVERGENCE = Experiment(
    name="bufp_convergence",
    description="BUFP Figs. 1-2: NashConv and perfect-Bayesian gap vs "
                "iterations on Kuhn and Leduc: RLCard's CFR, full-width "
                "uniform CFR, BUFP(EF), BUFP(X), XFP (random starts and the "
                "authors' first step 1)",
    quick=Scale(iterations=300, seeds=3, games=settings.CONVERGENCE_GAMES,
                algorithms=settings.QUICK_CONVERGENCE_ALGORITHMS),
    paper=Scale(iterations=20_000, seeds=30, games=settings.CONVERGENCE_GAMES,
                algorithms=settings.CONVERGENCE_ALGORITHMS),
    metrics=("nash_conv", "sequential_gap_mean", "sequential_gap_max"),
    summarize=functools.partial(
        summarize_convergence, order=settings.CONVERGENCE_ALGORITHMS,
        dashed=settings.DASHED, dashed_prefix=settings.DASHED_PREFIX),
    claims=(
        ClaimSpec(PAPER, "BUFP(X) converges faster in NashConv than CFR and "
                  "BUFP(EF) (Fig. 1); BUFP(EF) reaches the lowest "
                  "perfect-Bayesian gap (Fig. 2)",
                  "qualitative (Figs. 1-2)", functools.partial(
                      measures.no_variant,
                      variants=settings.CONVERGENCE_VARIANTS),
                  measures.not_run, FIG1),
        *(claim for variant in settings.CONVERGENCE_VARIANTS
          for claim in _variant_claims(variant)),
        _bufp_x_vs_xfp("BUFP(X)", "XFP", True, "random starts, step 1/(t+1)",
                       _RANDOM),
        _bufp_x_vs_xfp(BUFP_X_FIRST_STEP.id, XFP_FIRST_STEP.id, False,
                       "the authors' first step 1", _FIRST_STEP)),
    choices=settings.CONVERGENCE_CHOICES,
    variants=settings.CONVERGENCE_VARIANTS)
