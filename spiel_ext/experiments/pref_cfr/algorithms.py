"""The Pref-CFR paper's algorithms (Ju, Tellier, Sun, Fang, Luo,
"Preference-CFR: Beyond Nash Equilibrium for Better Game Strategies", ICML
2025, arXiv:2411.01217): the preference settings of its section 5.1 on
Kuhn poker and the play styles of its section 5.2, with our ablations.
"""

from __future__ import annotations

from spiel_ext.algorithms import CFRSolver, FirstDecisions, PrefCFRSolver
from spiel_ext.experiments.entries import AlgorithmEntry, register
from spiel_ext.experiments.pref_cfr.style_solvers import (
    STYLE_DEGREE, STYLE_VULNERABILITY, STYLES, build_style_solver, is_raise,
    style_preference)

__all__ = ["PREF_CFR_ALGORITHMS", "PREF_CFR_KUHN_SETTINGS",
           "PREF_CFR_KUHN_SETTING_LIST", "STYLES", "STYLE_ALGORITHMS",
           "STYLE_DEGREE", "STYLE_VULNERABILITY",
           "build_first_decision_pref_cfr", "build_style_solver", "is_raise",
           "style_preference"]


def build_first_decision_pref_cfr(game: str, seed: int = 0, *, action: str,
                                  degree: float, variant: str,
                                  random_init: bool = True,
                                  alternating_updates: bool = True):
  """Pref-CFR with preference degree ``degree`` on ``action`` at player 1's
  (seat 0's) first decisions, as in the Pref-CFR paper's section 5.1."""
  return PrefCFRSolver(game, preference={action: degree},
                       where=FirstDecisions(player=0), variant=variant,
                       random_init=random_init,
                       alternating_updates=alternating_updates, seed=seed)


def _first_decision_preference(variant: str, action: str, degree: float,
                               alternating: bool = True,
                               suffix: str = "") -> AlgorithmEntry:
  options = {} if alternating else {"alternating_updates": False}
  return AlgorithmEntry(
      build_first_decision_pref_cfr,
      {"action": action, "degree": degree, "variant": variant, **options},
      f"Pref-CFR({variant.upper()}) {action} x{degree:g}{suffix}",
      description=f"Pref-CFR({variant.upper()}), delta({action}) = "
      f"{degree:g} at player 1's first decisions, random initial regrets, "
      f"{'alternating' if alternating else 'simultaneous'} updates")


PREF_CFR_KUHN_SETTING_LIST = (("br", "Bet", 10.0), ("br", "Bet", 5.0),
                              ("rm", "Bet", 5.0), ("rm", "Pass", 5.0),
                              ("br", "Pass", 5.0), ("br", "Pass", 10.0))
PREF_CFR_KUHN_ENTRIES = tuple(
    _first_decision_preference(variant, action, degree)
    for variant, action, degree in PREF_CFR_KUHN_SETTING_LIST)
# The ids of Fig. 4's settings, in order (their entries are in the registry,
# spiel_ext.experiments.entries.ALGORITHMS).
PREF_CFR_KUHN_SETTINGS = tuple(entry.id for entry in PREF_CFR_KUHN_ENTRIES)

# ------------------------------------------------------------- play styles
def _style(label: str, style: str, description: str, variant: str = "br",
           vulnerability_unit: str = "conditional") -> AlgorithmEntry:
  config = {"style": style}
  if style == "normal":
    config["variant"] = variant
  else:
    config.update(degree=STYLE_DEGREE, vulnerability=STYLE_VULNERABILITY,
                  variant=variant, vulnerability_unit=vulnerability_unit)
  return AlgorithmEntry(build_style_solver, config, label,
                        description=description, seeded=False)


_STYLE_TEXT = "at player 1's first decisions, uniform start"
STYLE_ENTRIES = (
    _style("Normal", "normal", "the Pref-CFR paper's Normal style in its "
           "hold'em text: vanilla CFR from the uniform strategy",
           variant="rm"),
    _style("Aggressive", "aggressive", f"Pref-CFR(BR), delta(raises) = "
           f"{STYLE_DEGREE:g}, beta = {STYLE_VULNERABILITY:g} (regret "
           f"conditional on reaching the infoset) {_STYLE_TEXT}"),
    _style("Loose-passive", "loose-passive", f"Pref-CFR(BR), delta(Call) = "
           f"{STYLE_DEGREE:g}, beta = {STYLE_VULNERABILITY:g} (regret "
           f"conditional on reaching the infoset) {_STYLE_TEXT}"),
)
# The styles' ids, in table order (their entries are in the registry).
STYLE_ALGORITHMS = tuple(entry.id for entry in STYLE_ENTRIES)

# ------------------------------------------ paper settings and ablations
PREF_CFR_VARIANT_ENTRIES = (
    # Kuhn, Fig. 3: the authors' CFR is simultaneous; heavier starts test
    # "regardless of the initial strategy".
    *(AlgorithmEntry(CFRSolver, {"random_init": True,
                                 "alternating_updates": False,
                                 "init_scale": float(scale)},
                     f"CFR (simultaneous, U(0,{scale:g}))", description=(
                         f"vanilla CFR with simultaneous updates, initial "
                         f"regrets and policy U(0, {scale:g})"))
      for scale in (10, 100)),
    # Kuhn, Fig. 4: the six settings on the authors' simultaneous schedule.
    *(_first_decision_preference(variant, action, degree, alternating=False,
                                 suffix=" (simultaneous)")
      for variant, action, degree in PREF_CFR_KUHN_SETTING_LIST),
    # Styles: the authors' Leduc Normal, and beta in the reach-weighted unit.
    _style("Normal (BR)", "normal", "the Pref-CFR authors' Leduc Normal: "
           "Pref-CFR(BR) with no preference, uniform start"),
    *(_style(f"{name} (reach-weighted beta)", style, f"{name} with beta = "
             f"{STYLE_VULNERABILITY:g} compared with the reach-weighted "
             "average regret R / T", vulnerability_unit="reach_weighted")
      for name, style in (("Aggressive", "aggressive"),
                          ("Loose-passive", "loose-passive"))),
)

PREF_CFR_ALGORITHMS = register(PREF_CFR_KUHN_ENTRIES, STYLE_ENTRIES,
                               PREF_CFR_VARIANT_ENTRIES)
