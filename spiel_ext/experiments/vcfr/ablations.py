"""vcfr_ablations: the VCFR paper's Figures 5-6 (Qiu, Wang, Ma, Wen, Zhang,
"Combining Counterfactual Regret Minimization with Information Gain to Solve
Extensive Games with Unknown Environments", 2023).

The information gain on other learners: VDCFR vs Naive-DCFR and VFSP vs
FSP on unknown Kuhn, Leduc(4) and Leduc(5), both readings of each (the
text's and the authors' code's), beside their noise floors.
"""

from __future__ import annotations

import functools

from spiel_ext.experiments.vcfr import settings
from spiel_ext.experiments.vcfr.claims import (CODE, NOISE_FLOOR, TEXT,
                                               comparison, noise_floor, paired)
from spiel_ext.results.report import Variant

ABLATIONS = ("VDCFR", "Naive-DCFR", "Naive-DCFR (current)", "VFSP", "FSP",
             "VFSP (fitted-Q)", "FSP (fitted-Q)", "VDCFR (replicate)",
             "VFSP (replicate)")
_NOISE = Variant(NOISE_FLOOR, ("VDCFR (replicate)", "VFSP (replicate)"),
                 "VDCFR and VFSP with another learner seed")
# The fitted-Q pair has no replicate of its own: VFSP's, the first, is the
# nearer learner.
_pair = functools.partial(paired, replicates=("VFSP", "VDCFR"))

VCFR_ABLATIONS = comparison(
    "vcfr_ablations",
    "VCFR Figs. 5-6: VDCFR vs Naive-DCFR, VFSP vs FSP (both readings of "
    "each) on unknown Kuhn, Leduc(4), Leduc(5)", ABLATIONS,
    claims=(
        _pair("VDCFR", "Naive-DCFR", "The information gain helps DCFR (Fig. "
              "5): VDCFR vs Naive-DCFR, which differ only in the bonus "
              "(both DCFR on a posterior draw, episodes with the average)",
              TEXT),
        _pair("VDCFR", "Naive-DCFR (current)", "The information gain helps "
              "DCFR (Fig. 5): VDCFR vs the authors' code's Naive-DCFR, which "
              "also plays its current strategy", CODE),
        _pair("VFSP", "FSP", "The information gain helps FSP (Fig. 6): the "
              "authors' FSP, exact best responses on a posterior draw, with "
              "and without the bonus on it", CODE),
        _pair("VFSP (fitted-Q)", "FSP (fitted-Q)", "The information gain "
              "helps FSP (Fig. 6): the text's fitted-Q FSP with and without "
              "the bonus", TEXT),
        noise_floor("VDCFR", _NOISE.label),
        noise_floor("VFSP", _NOISE.label)),
    choices=settings.SHARED + (settings.NAIVE, settings.FSP),
    variants=(
        Variant(TEXT, ("VDCFR", "Naive-DCFR", "VFSP (fitted-Q)",
                       "FSP (fitted-Q)"),
                "fitted-Q FSP, Naive-DCFR with its average"),
        Variant(CODE, ("VDCFR", "Naive-DCFR (current)", "VFSP", "FSP"),
                "model-based FSP, Naive-DCFR with its current strategy"),
        _NOISE))
