"""The Pref-CFR paper's algorithms (Ju, Zhang, Wang, Zhang, Chen, "Preference
-CFR: Beyond Nash Equilibrium for Better Game Strategies", 2024): the
preference settings of its section 5.1 on Kuhn poker and the play styles of
its section 5.2, with our ablations.
"""

from __future__ import annotations

from spiel_ext.algorithms import CFRSolver, FirstDecisions, PrefCFRSolver
from spiel_ext.engine import compile_game
from spiel_ext.experiments.entries import AlgorithmEntry


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
PREF_CFR_KUHN_SETTINGS = {entry.id: entry for entry in PREF_CFR_KUHN_ENTRIES}

# ------------------------------------------------------------- play styles
# The section 5.2 styles: preference degree 5 on the style's actions and
# vulnerability 0.05 at player 1's (seat 0's) first decisions, Pref-CFR(BR).
STYLE_DEGREE = 5.0
STYLE_VULNERABILITY = 0.05
# The moves (action labels without OpenSpiel's "player=i move=" prefix) a
# style prefers. "Raise" (Leduc) and "Bet" or "Bet<size>" (universal_poker,
# fcpa's pot-size raise) are raises; "AllIn" is not preferred (see the styles
# experiment for why).
STYLES = ("normal", "aggressive", "loose-passive")


def is_raise(move: str) -> bool:
  """Whether a move counts as a raise for the aggressive style: ``Raise``,
  ``Bet`` or ``Bet<size>``; ``AllIn`` does not."""
  return move == "Raise" or (move.startswith("Bet") and
                             (move == "Bet" or move[3:].isdigit()))


def style_preference(game, style: str,
                     degree: float = STYLE_DEGREE) -> dict[str, float]:
  """{action label: degree} for the actions ``style`` prefers at seat 0's
  first decisions of ``game``: raises (``aggressive``; see
  :func:`is_raise`) or ``Call`` (``loose-passive``; a check is OpenSpiel's
  Call).

  Args:
    game: a game string, pyspiel game or compiled GameTree.
    style: "aggressive" or "loose-passive".
    degree: the preference degree delta >= 1 (default STYLE_DEGREE).

  Raises:
    ValueError: another style, or a game whose seat-0 first decisions offer
      no action of the style (naming the labels they do offer).
  """
  from spiel_ext.algorithms.pref_cfr import action_labels  # pylint: disable=g-import-not-at-top
  from spiel_ext.eval.styles import move_name  # pylint: disable=g-import-not-at-top
  wanted = {"aggressive": is_raise, "loose-passive": lambda m: m == "Call"}
  if style not in wanted:
    raise ValueError(f"style must be one of {sorted(wanted)} for a "
                     f"preference; got {style!r}.")
  tree = compile_game(game)
  labels = {}
  for row in FirstDecisions(player=0)(tree):
    labels.update(action_labels(tree, int(row)))
  chosen = {label: degree for label in labels
            if wanted[style](move_name(label))}
  if not chosen:
    raise ValueError(f"style {style!r}: seat 0's first decisions of "
                     f"{tree.game_string} offer no such action; they offer "
                     f"{sorted(labels)}.")
  return chosen


def build_style_solver(game: str, seed: int = 0, *, style: str,
                       degree: float = STYLE_DEGREE,
                       vulnerability: float = STYLE_VULNERABILITY,
                       variant: str = "br",
                       vulnerability_unit: str = "conditional"):
  """A solver of the Pref-CFR paper's section 5.2 play styles.

  ``normal`` is vanilla CFR with ``variant="rm"`` (the paper's hold'em
  text: "standard CFR") and Pref-CFR(BR) without preference with
  ``variant="br"`` (the authors' Leduc code); ``aggressive`` and
  ``loose-passive`` are Pref-CFR (``variant``, default BR) with delta =
  ``degree`` on the style's actions (see :func:`style_preference`) and beta
  = ``vulnerability`` (in ``vulnerability_unit``, see
  :class:`~spiel_ext.algorithms.PrefCFRSolver`) at seat 0's first decisions
  only. All start from the uniform strategy, so they are deterministic and
  ``seed`` is unused.

  Raises:
    ValueError: an unknown style, or as :func:`style_preference` and
      :class:`~spiel_ext.algorithms.PrefCFRSolver` (bad degrees, variant).
  """
  del seed
  if style not in STYLES:
    raise ValueError(f"style must be one of {list(STYLES)}; got {style!r}.")
  tree = compile_game(game)
  if style == "normal":
    return (CFRSolver(tree) if variant == "rm" else
            PrefCFRSolver(tree, variant=variant))
  return PrefCFRSolver(tree, preference=style_preference(tree, style, degree),
                       vulnerability=vulnerability,
                       vulnerability_unit=vulnerability_unit,
                       where=FirstDecisions(player=0), variant=variant)


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


_STYLE_TEXT = (f"at player 1's first decisions, uniform start")
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
STYLE_ALGORITHMS = {entry.id: entry for entry in STYLE_ENTRIES}

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

PREF_CFR_ALGORITHMS = (PREF_CFR_KUHN_ENTRIES + STYLE_ENTRIES +
                       PREF_CFR_VARIANT_ENTRIES)
