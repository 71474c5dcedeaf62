"""vcfr_unknown_env: the VCFR paper's Figures 3-4 (Qiu, Wang, Ma, Wen, Zhang,
"Combining Counterfactual Regret Minimization with Information Gain to Solve
Extensive Games with Unknown Environments", 2023).

NashConv on the true game (log axis) vs episodes for VCFR, PSRLCFR, FSP,
MCCFR-OS, Naive-CFR and Random on unknown Kuhn, Leduc(4) and Leduc(5),
mean and 90% band over environment seeds (each environment seed is one
game: its hidden chance and rewards); both readings of FSP and Naive.
"""

from __future__ import annotations

import functools

from spiel_ext.analysis.claims import ClaimSpec
from spiel_ext.experiments.vcfr import settings
from spiel_ext.experiments.vcfr.claims import (CODE, NOISE_FLOOR, PAPER, TEXT,
                                               comparison, noise_floor, paired)
from spiel_ext.experiments.vcfr.figures import FINAL
from spiel_ext.experiments.vcfr.measures import leduc5
from spiel_ext.experiments.vcfr.paper_values import leduc5_paper_value
from spiel_ext.results.report import PAPER_SETTING, Variant, verdict_from

MAIN = ("VCFR", "PSRLCFR", "FSP", "FSP (fitted-Q)", "MCCFR-OS", "Naive-CFR",
        "Naive-CFR (current)", "Random", "VCFR (replicate)")
_NOISE = Variant(NOISE_FLOOR, ("VCFR (replicate)",),
                 "VCFR with another learner seed")
_pair = functools.partial(paired, replicates=("VCFR",))

CLAIMS = (
    ClaimSpec(PAPER, "Leduc(5) after 20,000 iterations: log "
              "exploitability of each learner (Fig. 4(b))",
              leduc5_paper_value(), leduc5(TEXT), verdict_from, FINAL),
    _pair("VCFR", "PSRLCFR", "VCFR reaches lower exploitability than "
          "PSRLCFR (Figs. 3-4)", PAPER_SETTING, paper_value=(
              "qualitative (paper, log base not stated: Leduc(5) -1.230 "
              "VCFR vs -0.980 PSRLCFR; its Leduc(4) pair, -0.135 vs "
              "-0.864, puts VCFR above PSRLCFR although the text calls "
              "it a VCFR win)")),
    _pair("VCFR", "FSP", "VCFR beats FSP (Figs. 3-4); FSP as the "
          "authors' code (exact best responses on a posterior draw)",
          CODE),
    _pair("VCFR", "FSP (fitted-Q)", "VCFR beats FSP (Figs. 3-4); FSP as "
          "the text (fitted-Q)", TEXT),
    _pair("VCFR", "MCCFR-OS", "VCFR beats MCCFR-OS (Figs. 3-4)",
          PAPER_SETTING),
    _pair("VCFR", "Naive-CFR", "VCFR beats Naive-CFR (Figs. 3-4); Naive "
          "plays its average, as the text (VCFR without the bonus)",
          TEXT),
    _pair("VCFR", "Naive-CFR (current)", "VCFR beats Naive-CFR (Figs. "
          "3-4); Naive plays its current strategy, as the authors' "
          "code", CODE),
    _pair("VCFR", "Random", "VCFR beats Random exploration (Figs. 3-4)",
          PAPER_SETTING),
    noise_floor("VCFR", _NOISE.label))

VCFR_UNKNOWN_ENV = comparison(
    "vcfr_unknown_env",
    "VCFR Figs. 3-4: NashConv vs episodes for VCFR (Algorithm 1), PSRLCFR, "
    "FSP, MCCFR-OS, Naive-CFR, Random (both readings of FSP and Naive) on "
    "unknown Kuhn, Leduc(4), Leduc(5)", MAIN,
    claims=CLAIMS,
    choices=settings.SHARED + (settings.NAIVE, settings.PSRL_EXPLORATION,
                               settings.FSP),
    variants=(
        Variant(TEXT, ("VCFR", "PSRLCFR", "FSP (fitted-Q)", "MCCFR-OS",
                       "Naive-CFR", "Random"),
                "FSP with fitted-Q, Naive with its average strategy"),
        Variant(CODE, ("VCFR", "PSRLCFR", "FSP", "MCCFR-OS",
                       "Naive-CFR (current)", "Random"),
                "FSP with exact best responses on a draw, Naive with its "
                "current strategy"),
        _NOISE))
