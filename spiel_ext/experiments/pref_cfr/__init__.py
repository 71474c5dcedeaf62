"""The Pref-CFR paper's experiments (Ju, Tellier, Sun, Fang, Luo,
"Preference-CFR: Beyond Nash Equilibrium for Better Game Strategies", ICML
2025, arXiv:2411.01217): Figure 3 (``pref_cfr_kuhn_alpha``), Figure 4
(``pref_cfr_kuhn_settings``) and the play styles of section 5.2
(``pref_cfr_styles``).

Everything of the paper is in this package: the algorithm entries
(:mod:`.algorithms`, :mod:`.style_solvers`), the paper's numbers
(:mod:`.paper_values`), the settings tables (:mod:`.settings`), the
measures behind the claims (:mod:`.measures_kuhn`, :mod:`.measures_styles`
on the styles' readouts, :mod:`.style_readouts`, and what they share,
:mod:`.shared`), the figures and tables (:mod:`.figures`), the style
claims (:mod:`.style_claims`) and the three declarations.
"""

from spiel_ext.experiments.pref_cfr.pref_cfr_kuhn_alpha import (
    PREF_CFR_KUHN_ALPHA)
from spiel_ext.experiments.pref_cfr.pref_cfr_kuhn_settings import (
    PREF_CFR_KUHN_SETTINGS_EXPERIMENT)
from spiel_ext.experiments.pref_cfr.pref_cfr_styles import PREF_CFR_STYLES

__all__ = ["PREF_CFR_KUHN_ALPHA", "PREF_CFR_KUHN_SETTINGS_EXPERIMENT",
           "PREF_CFR_STYLES"]
