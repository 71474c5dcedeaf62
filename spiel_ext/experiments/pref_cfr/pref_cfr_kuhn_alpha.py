"""pref_cfr_kuhn_alpha: Figure 3 of the Pref-CFR paper (Ju, Tellier, Sun,
Fang, Luo, "Preference-CFR: Beyond Nash Equilibrium for Better Game
Strategies", ICML 2025, arXiv:2411.01217).

Vanilla CFR from random initial cumulative regrets and policies on Kuhn
poker: NashConv and alpha (player 1's Bet probability with the Jack, the
parameter of Kuhn's equilibrium family) vs iterations, mean and 90% band
over the runs, and the distribution of the final alpha. The paper states
that every run ends near alpha = 0.2 "regardless of the initial strategy".
The paper setting is the authors' simultaneous schedule from U(0, 1)
starts; alternating updates and heavier starts are ablations (see
:mod:`.settings`).
"""

import functools

from spiel_ext.analysis.claims import ClaimSpec, figure
from spiel_ext.experiments.pref_cfr.figures import FINAL_ALPHA, summarize_alpha
from spiel_ext.experiments.pref_cfr.measures_kuhn import (
    ALPHA_SHARE, alpha_measurements, kuhn_exploitability_claim)
from spiel_ext.experiments.pref_cfr.paper_values import PAPER, PAPER_ALPHA_RUNS
from spiel_ext.experiments.pref_cfr.settings import KUHN_ALPHA_CHOICES
from spiel_ext.experiments.spec import Experiment, Scale
from spiel_ext.results.report import PAPER_SETTING, Variant

VARIANTS = (
    Variant(PAPER_SETTING, ("CFR (simultaneous)",),
            "simultaneous updates, U(0, 1) start (the authors' code)"),
    Variant("alternating updates", ("CFR",), "U(0, 1) start"),
    Variant("U(0, 10) start", ("CFR (simultaneous, U(0,10))",),
            "simultaneous updates"),
    Variant("U(0, 100) start", ("CFR (simultaneous, U(0,100))",),
            "simultaneous updates"),
)

PREF_CFR_KUHN_ALPHA = Experiment(
    name="pref_cfr_kuhn_alpha",
    description="Pref-CFR Fig. 3: CFR from random starts on Kuhn, NashConv "
                "and alpha vs iterations, distribution of the final alpha; "
                "the authors' simultaneous schedule, alternating updates "
                "and heavier starts beside it",
    quick=Scale(iterations=2000, seeds=20, games=("kuhn_poker",),
                algorithms=("CFR (simultaneous)", "CFR")),
    paper=Scale(iterations=10_000, seeds=100, games=("kuhn_poker",),
                algorithms=tuple(v.algorithms[0] for v in VARIANTS)),
    metrics=("nash_conv", "kuhn_alpha"),
    summarize=functools.partial(summarize_alpha, variants=VARIANTS),
    claims=(
        ClaimSpec(PAPER, "CFR from any initial strategy converges to alpha "
                  "= 0.2 on Kuhn poker (Fig. 3)", PAPER_ALPHA_RUNS,
                  functools.partial(alpha_measurements, variants=VARIANTS),
                  ALPHA_SHARE, FINAL_ALPHA),
        kuhn_exploitability_claim(VARIANTS, figure("nash_conv"))),
    choices=KUHN_ALPHA_CHOICES,
    variants=VARIANTS)
