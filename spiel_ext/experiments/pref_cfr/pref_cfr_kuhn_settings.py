"""pref_cfr_kuhn_settings: Figure 4 of the Pref-CFR paper (Ju, Tellier,
Sun, Fang, Luo, "Preference-CFR: Beyond Nash Equilibrium for Better Game
Strategies", ICML 2025, arXiv:2411.01217).

The six Pref-CFR settings of section 5.1 (BR delta(Bet) = 10 and 5, RM
delta(Bet) = 5, RM delta(Pass) = 5, BR delta(Pass) = 5 and 10 at player
1's first decisions) from random starts, with plain CFR as the reference:
NashConv and alpha vs iterations, on the authors' simultaneous schedule
(the paper setting) and with alternating updates (see :mod:`.settings`).
"""

import functools

from spiel_ext.analysis.claims import ClaimSpec
from spiel_ext.experiments.pref_cfr.algorithms import PREF_CFR_KUHN_SETTINGS
from spiel_ext.experiments.pref_cfr.figures import (final_values_table,
                                                    kuhn_nash_conv_figure,
                                                    summarize_settings)
from spiel_ext.experiments.pref_cfr.measures_kuhn import (
    convergence_measurement, convergence_verdict, kuhn_exploitability_claim,
    larger_degree_measurement, preference_alpha_measurement,
    rm_br_measurement)
from spiel_ext.experiments.pref_cfr.paper_values import PAPER
from spiel_ext.experiments.pref_cfr.settings import KUHN_SETTINGS_CHOICES
from spiel_ext.experiments.pref_cfr.shared import cases_verdict
from spiel_ext.experiments.spec import Experiment, Scale
from spiel_ext.results.report import PAPER_SETTING, Variant

ALTERNATING = ("CFR",) + tuple(PREF_CFR_KUHN_SETTINGS)
SIMULTANEOUS = ("CFR (simultaneous)",) + tuple(
    f"{name} (simultaneous)" for name in PREF_CFR_KUHN_SETTINGS)
VARIANTS = (
    Variant(PAPER_SETTING, SIMULTANEOUS,
            "simultaneous updates, U(0, 1) start (the authors' code)"),
    Variant("alternating updates", ALTERNATING, "U(0, 1) start"),
)


def _claims(variant: Variant) -> tuple[ClaimSpec, ...]:
  """Section 5.1's claims judged on ``variant`` (an ablation also says how
  far it moves the paper setting's numbers)."""
  def measure(function):
    return functools.partial(function, variant=variant,
                             paper_variant=VARIANTS[0])
  evidence = final_values_table(variant)
  return (
      ClaimSpec(PAPER, "delta(Bet) raises alpha and delta(Pass) lowers it "
                "(Fig. 4)", "qualitative (Fig. 4)",
                measure(preference_alpha_measurement), cases_verdict,
                evidence),
      ClaimSpec(PAPER, "Pref-CFR converges like CFR (NashConv, Fig. 4)",
                "comparable to CFR, except BR Bet x10",
                measure(convergence_measurement), convergence_verdict,
                evidence),
      ClaimSpec(PAPER, "Pref-CFR(RM) shifts alpha less than Pref-CFR(BR) at "
                "the same delta (section 5.1)", "qualitative",
                measure(rm_br_measurement), cases_verdict, evidence),
      ClaimSpec(PAPER, "A larger preference degree moves alpha further from "
                "CFR's: delta = 10 beyond delta = 5, for Bet and for Pass "
                "(section 5.1, Fig. 4)", "qualitative (\"greater preference "
                "degree settings resulting in more pronounced deviations\")",
                measure(larger_degree_measurement), cases_verdict, evidence),
      kuhn_exploitability_claim((variant,), kuhn_nash_conv_figure(variant)))


PREF_CFR_KUHN_SETTINGS_EXPERIMENT = Experiment(
    name="pref_cfr_kuhn_settings",
    description="Pref-CFR Fig. 4: six preference settings at player 1's "
                "first decisions on Kuhn vs CFR, NashConv and alpha, on the "
                "authors' simultaneous schedule and with alternating updates",
    quick=Scale(iterations=2000, seeds=8, games=("kuhn_poker",),
                algorithms=SIMULTANEOUS),
    paper=Scale(iterations=10_000, seeds=30, games=("kuhn_poker",),
                algorithms=SIMULTANEOUS + ALTERNATING),
    metrics=("nash_conv", "kuhn_alpha"),
    summarize=functools.partial(summarize_settings, variants=VARIANTS),
    claims=tuple(spec for variant in VARIANTS for spec in _claims(variant)),
    choices=KUHN_SETTINGS_CHOICES,
    variants=VARIANTS)
