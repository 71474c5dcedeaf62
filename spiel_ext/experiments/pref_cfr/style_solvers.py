"""The play-style solvers of the Pref-CFR paper's section 5.2 (Ju, Tellier,
Sun, Fang, Luo, "Preference-CFR: Beyond Nash Equilibrium for Better Game
Strategies", ICML 2025): a preference on the style's actions and a
vulnerability degree at player 1's first decisions.
"""

from __future__ import annotations

from spiel_ext.algorithms import CFRSolver, FirstDecisions, PrefCFRSolver
from spiel_ext.algorithms.preferences import action_labels
from spiel_ext.engine import compile_game
from spiel_ext.eval.styles import move_name
from spiel_ext.experiments.pref_cfr.style_readouts import is_raise

# The section 5.2 styles: preference degree 5 on the style's actions and
# vulnerability 0.05 at player 1's (seat 0's) first decisions, Pref-CFR(BR).
STYLE_DEGREE = 5.0
STYLE_VULNERABILITY = 0.05
# The moves (action labels without OpenSpiel's "player=i move=" prefix) a
# style prefers. "Raise" (Leduc) and "Bet" or "Bet<size>" (universal_poker,
# fcpa's pot-size raise) are raises (style_readouts.is_raise);
# "AllIn" is not preferred (why: spiel_ext.experiments.pref_cfr.settings).
STYLES = ("normal", "aggressive", "loose-passive")


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
