"""pref_cfr_styles: the play styles of the Pref-CFR paper's section 5.2
(Ju, Tellier, Sun, Fang, Luo, "Preference-CFR: Beyond Nash Equilibrium for
Better Game Strategies", ICML 2025, arXiv:2411.01217; Tables 2-3, Figures
5-6), on two-player and three-player poker.

- **Normal**: vanilla CFR (the paper's hold'em text: "standard CFR"), or
  Pref-CFR(BR) with no preference (the authors' Leduc code,
  Zealoter/PrefCFR ``PrefCFRMain.py``): both readings run, as two paper
  settings.
- **Aggressive**: Pref-CFR(BR) with preference degree delta = 5 on the
  raises and vulnerability beta = 0.05 at player 1's (seat 0's) first
  decisions only (delta = 1, beta = 0 everywhere else).
- **Loose-passive**: the same with delta(Call) = 5 (a check is OpenSpiel's
  Call).

All start from the uniform strategy (deterministic: one run each). The
games, which actions are raises and the unit of beta: :mod:`.settings`;
the outputs: :mod:`.figures`.

Scales: quick, 300 iterations per style and game (about 2 minutes on one
core from cold caches); paper, 10,000 (about 40 to 60 minutes on one core,
half of it or more Leduc 3p; the two 2-player games alone took 11 minutes;
about 25 to 35 minutes with ``--workers=2``).
"""

import functools

from spiel_ext.experiments.pref_cfr.algorithms import STYLE_ALGORITHMS
from spiel_ext.experiments.pref_cfr.figures import summarize_styles
from spiel_ext.experiments.pref_cfr.settings import (GAMES, STYLE_CHOICES,
                                                     game_names)
from spiel_ext.experiments.pref_cfr.style_claims import (NAME, run_analysis,
                                                         style_claims)
from spiel_ext.experiments.spec import Experiment, Scale
from spiel_ext.results.report import PAPER_SETTING, Variant

STYLES = tuple(STYLE_ALGORITHMS)  # Normal, Aggressive, Loose-passive.
_REACH_WEIGHTED = tuple(f"{style} (reach-weighted beta)"
                        for style in STYLES[1:])
VARIANTS = (
    Variant(f"{PAPER_SETTING} (hold'em text)", STYLES,
            "Normal = vanilla CFR (\"standard CFR\"); beta compared with "
            "the regret conditional on reaching the infoset (the authors' "
            "unit)"),
    Variant(f"{PAPER_SETTING} (authors' Leduc code)",
            ("Normal (BR)", "Aggressive", "Loose-passive"),
            "Normal = Pref-CFR(BR) without preference; the authors' unit"),
    Variant("reach-weighted beta", ("Normal",) + _REACH_WEIGHTED,
            "beta = 0.05 compared with R / T, k times the authors' beta at "
            "a first decision behind k private hands; Normal = vanilla CFR"),
    Variant("reach-weighted beta, Normal = BR",
            ("Normal (BR)",) + _REACH_WEIGHTED,
            "the same styles against Pref-CFR(BR) without preference"),
)
# Every variant's algorithms, each once.
ALGORITHMS = tuple(dict.fromkeys(a for v in VARIANTS for a in v.algorithms))
_ANALYSED = run_analysis(VARIANTS)

PREF_CFR_STYLES = Experiment(
    name=NAME,
    description="Pref-CFR section 5.2 (Tables 2-3): Normal / Aggressive / "
                "Loose-passive styles on 2p and 3p Leduc and fcpa hold'em: "
                "first-decision distributions, head-to-head in mb/h, "
                "NashConv",
    quick=Scale(iterations=300, seeds=1, games=GAMES, algorithms=ALGORITHMS),
    paper=Scale(iterations=10_000, seeds=1, games=GAMES,
                algorithms=ALGORITHMS),
    metrics=("nash_conv",),
    summarize=functools.partial(summarize_styles, variants=VARIANTS,
                                analysed=_ANALYSED, names=game_names),
    claims=tuple(spec for variant in (*VARIANTS, None)
                 for spec in style_claims(variant, VARIANTS, _ANALYSED)),
    choices=STYLE_CHOICES,
    variants=VARIANTS)
