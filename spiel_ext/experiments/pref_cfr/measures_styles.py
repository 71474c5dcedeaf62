"""Measures of the Pref-CFR paper's section 5.2 claims (Ju, Tellier, Sun,
Fang, Luo, "Preference-CFR: Beyond Nash Equilibrium for Better Game
Strategies", 2025, arXiv:2411.01217) on one variant's analysed games.

Each measure takes the run's results, ``analysed`` (the run's results ->
{variant: [:class:`~.style_readouts.GameResults`]}, as
:func:`~.style_readouts.analyse` gives them; key None for a run of none of
the variants) and the variant it judges; it returns None when that
variant did not run. Verdicts over several games use
:func:`~.shared.cases_verdict` on the measurement's value (one bool per
case).
"""

from __future__ import annotations

from typing import Iterator

import numpy as np
import pandas as pd

from spiel_ext.analysis.claims import (MAGNITUDE_FRACTION, Measurement,
                                       RunResults, Threshold, magnitude_text,
                                       magnitude_verdict)
from spiel_ext.analysis.poker_units import mbh
from spiel_ext.experiments.pref_cfr.paper_values import (PAPER_COST_MBH,
                                                         PAPER_MOVES)
from spiel_ext.experiments.pref_cfr.settings import game_names
from spiel_ext.experiments.pref_cfr.style_readouts import (REFERENCE,
                                                           Analysed,
                                                           GameResults,
                                                           algorithm_of,
                                                           largest_shift,
                                                           nash_conv_final)
from spiel_ext.results.report import Variant

# Table 3: Loose-passive gains +0.2 mb/h three-handed; ours holds when
# every three-player game's gain is at least -0.5 mb/h, partly within the
# paper's cost.
LOOSE_GAIN = Threshold(-0.5, -PAPER_COST_MBH, direction="at least")
# A style is "visible" when some first-decision action group moves by at
# least this much from Normal: MAGNITUDE_FRACTION of the smallest of the
# paper's largest moves (10 to 24 points).
VISIBLE_SHIFT = MAGNITUDE_FRACTION * 0.10
# Our convergence check of the styles (the paper states comparable
# convergence only on Kuhn with beta = 0): final NashConv within this many
# times Normal's.
CONVERGENCE_RATIO = 3.0
# "Does not significantly slow down training": seconds per iteration within
# this many times Normal's, timed only where Normal's iterations take at
# least TIMED_SECONDS (faster ones measure the timer, not the solver).
SPEED_RATIO = 1.5
TIMED_SECONDS = 0.005


def _games(results: RunResults, analysed: Analysed,
           variant: Variant | None) -> list[GameResults] | None:
  return analysed(results).get(variant)


def substitution(results: RunResults) -> str:
  """The games the run judges section 5.2 on, named as substitutes for
  the paper's no-limit hold'em (whose game and chip scale are not
  public)."""
  names = game_names(results.settings.games)
  return (", ".join(names[game][0] for game in results.settings.games) +
          " in place of the paper's no-limit hold'em")


def _setting(variant: Variant | None, results: RunResults) -> str:
  """The row's setting: the variant's label and the substitute games."""
  if variant is None:
    return ""
  return f"{variant.label}, {substitution(results)}"


def _after(results: RunResults) -> str:
  return f"after {results.settings.iterations} iterations"


def cost_measurement(results: RunResults, *, analysed: Analysed,
                     variant: Variant | None) -> Measurement | None:
  """Each style's seat-averaged mb/h against Normal players (value: one
  case per style and game, within PAPER_COST_MBH)."""
  games = _games(results, analysed, variant)
  if games is None:
    return None
  cells, texts = [], []
  for result in games:
    styled = {n: c for n, c in result.cost.items() if n != REFERENCE}
    cells += [c >= -PAPER_COST_MBH for c in styled.values()]
    if styled:
      texts.append(f"{result.name}: " + ", ".join(
          f"{n} {c:+.1f}" for n, c in styled.items()))
  ours = ("seat-averaged mb/h vs Normal players " + _after(results) + ": " +
          "; ".join(texts)) if texts else "Normal did not run"
  return Measurement(ours, cells, _setting(variant, results))


def room_moved(before: float, after: float, direction: int) -> float:
  """The share of the room a first-decision share moves through: of the
  way down to 0 (``direction`` -1) or up to 1 (+1); negative against
  ``direction``, NaN without room ("94.4% decrease", the paper's own
  measure of 5.4% -> 0.3%; for a share starting at 0, its rise).

  Args:
    before: Normal's share, in [0, 1].
    after: the style's share, in [0, 1].
    direction: +1 (more) or -1 (less).

  Returns:
    The share of the room moved.
  """
  if direction not in (-1, +1):
    raise ValueError(f"direction must be +1 or -1; got {direction!r}.")
  room = before if direction < 0 else 1.0 - before
  if room <= 0:
    return float("nan")
  return (after - before) * direction / room


def shift_measurement(games: list[GameResults], style: str, group: str,
                      direction: int, players: int | None = None,
                      setting: str = "",
                      paper: dict[int, tuple[float, float]] | None = None
                      ) -> Measurement:
  """Whether ``style`` moves ``group`` in ``direction`` (+1 more, -1 less)
  relative to Normal at player 1's first decision by at least
  MAGNITUDE_FRACTION of the paper's move, as shares of the room moved
  through (:func:`room_moved`), in every game that offers ``group`` and
  for whose number of players the paper gives the move (value: one case
  per such game; None: no such game).

  Args:
    games: the analysed games.
    style: the style judged.
    group: the action group.
    direction: +1 (the style plays it more) or -1 (less).
    players: only games with this many players (None: all).
    setting: the row's setting label.
    paper: {players: (Normal's %, the style's %)} of the paper (None: the
      paper's section 5.2 moves for ``style`` and ``group``).

  Returns:
    The measurement.
  """
  if paper is None:
    paper = PAPER_MOVES.get((style, group), {})
  cases, texts, unjudged = [], [], []
  for result in games:
    if (group not in result.offered or style not in result.distribution or
        REFERENCE not in result.distribution or
        (players is not None and result.players != players)):
      continue
    before = result.distribution[REFERENCE][group]
    after = result.distribution[style][group]
    text = (f"{result.name}: {100 * before:.1f}% -> {100 * after:.1f}% "
            f"({100 * (after - before):+.1f} points")
    if result.players not in paper:
      unjudged.append(result.name)
      texts.append(text + ")")
      continue
    paper_before, paper_after = paper[result.players]
    paper_moved = room_moved(paper_before / 100, paper_after / 100,
                             direction)
    moved = room_moved(before, after, direction)
    if not np.isfinite(moved):
      texts.append(text + ", no room to move that way: not judged)")
      continue
    cases.append(magnitude_verdict(moved, paper_moved) == "holds")
    texts.append(text + f", {moved:.0%} of the way to "
                 f"{'0' if direction < 0 else '100'}% against the paper's "
                 f"{paper_moved:.0%}: "
                 f"{magnitude_text(moved, paper_moved, paper_text='move')})")
  if not cases:
    return Measurement(f"no game of the run offers {group} at player 1's "
                       "first decision with a paper number for its players",
                       None, setting)
  ours = f"{group}: " + "; ".join(texts)
  skipped = [r.name for r in games if group not in r.offered]
  if skipped:
    ours += f" ({', '.join(skipped)}: {group} not offered there)"
  if unjudged:
    ours += (f" ({', '.join(unjudged)}: not judged, the paper gives no "
             "such number for its number of players)")
  ours += (f" (holds in a game: at least {MAGNITUDE_FRACTION:.0%} of the "
           "paper's move, as a share of the way to 0% or 100%)")
  return Measurement(ours, cases, setting)


def shift_measure(results: RunResults, *, analysed: Analysed,
                  variant: Variant | None, style: str, group: str,
                  direction: int) -> Measurement | None:
  """:func:`shift_measurement` on ``variant``'s games."""
  games = _games(results, analysed, variant)
  if games is None:
    return None
  return shift_measurement(games, style, group, direction,
                           setting=_setting(variant, results))


def loose_gain_measurement(results: RunResults, *, analysed: Analysed,
                           variant: Variant | None) -> Measurement | None:
  """Three players: Loose-passive's seat-averaged mb/h against Normal
  players (value: the smallest over the games, for LOOSE_GAIN); None
  without a three-player game."""
  games = _games(results, analysed, variant) or []
  three = [r for r in games if r.players >= 3 and "Loose-passive" in r.cost]
  if not three:
    return None
  gains = [r.cost["Loose-passive"] for r in three]
  return Measurement(
      "seat-averaged vs Normal players: " + "; ".join(
          f"{r.name} {g:+.2f} mb/h" for r, g in zip(three, gains)) +
      f" (holds: >= {LOOSE_GAIN.holds_at:g}; holds partly: within the "
      f"{PAPER_COST_MBH:g} mb/h of Tables 2-3)",
      float(np.min(gains)), _setting(variant, results))


def visible_measurement(results: RunResults, *, analysed: Analysed,
                        variant: Variant | None) -> Measurement | None:
  """Each style's largest first-decision shift from Normal and its price
  (value: one case per style and game, shift at least VISIBLE_SHIFT and
  price within PAPER_COST_MBH); None without such a case."""
  cases, texts = [], []
  for result in _games(results, analysed, variant) or []:
    for style in ("Aggressive", "Loose-passive"):
      if style not in result.distribution or style not in result.cost or (
          REFERENCE not in result.distribution):
        continue
      group, change = largest_shift(result, style)
      price = result.cost[style]
      cases.append(abs(change) >= VISIBLE_SHIFT and
                   price >= -PAPER_COST_MBH)
      texts.append(f"{result.name} {style}: {group} {100 * change:+.1f} "
                   f"points at {price:+.1f} mb/h")
  if not cases:
    return None
  return Measurement(
      "largest first-decision shift from Normal and price: " +
      "; ".join(texts) + f" (holds for a style when the shift is at least "
      f"{100 * VISIBLE_SHIFT:.0f} points, {MAGNITUDE_FRACTION:.0%} of the "
      f"paper's smallest, and the price within {PAPER_COST_MBH:g} mb/h)",
      cases, _setting(variant, results))


def _against_normal(results: RunResults, games: list[GameResults],
                    variant: Variant | None
                    ) -> Iterator[tuple[GameResults, pd.Series,
                                        dict[str, pd.Series]]]:
  """Per game with Normal's final row: (game results, Normal's row,
  {style: its row}) of :func:`nash_conv_final`."""
  final = nash_conv_final(results.frame)
  for result in games:
    normal_algorithm = algorithm_of(REFERENCE, variant)
    if (result.game, normal_algorithm) not in final.index:
      continue
    styled = [n for n in result.distribution if n != REFERENCE and
              (result.game, algorithm_of(n, variant)) in final.index]
    yield result, final.loc[(result.game, normal_algorithm)], {
        n: final.loc[(result.game, algorithm_of(n, variant))] for n in styled}


def convergence_measurement(results: RunResults, *, analysed: Analysed,
                            variant: Variant | None) -> Measurement | None:
  """Each style's final NashConv against Normal's (value: one case per
  style and game, within CONVERGENCE_RATIO x)."""
  games = _games(results, analysed, variant)
  if games is None:
    return None
  cases, texts = [], []
  for result, normal, rows in _against_normal(results, games, variant):
    ratios = {n: row.nash_conv / normal.nash_conv for n, row in rows.items()}
    cases += [ratio <= CONVERGENCE_RATIO for ratio in ratios.values()]
    texts.append(f"{result.name}: Normal "
                 f"{mbh(normal.nash_conv, result.blind):.0f}, " + ", ".join(
                     f"{n} {mbh(rows[n].nash_conv, result.blind):.0f} "
                     f"({ratio:.1f}x)" for n, ratio in ratios.items()))
  ours = (f"final NashConv in mb/h {_after(results)}: " + "; ".join(texts) +
          f" (holds: every style within {CONVERGENCE_RATIO:g}x Normal's). "
          "With beta > 0 a style keeps a first-decision action that loses "
          "up to beta, so its NashConv levels off instead of going to 0"
          ) if cases else "Normal did not run"
  return Measurement(ours, cases, _setting(variant, results))


def speed_measurement(results: RunResults, *, analysed: Analysed,
                      variant: Variant | None) -> Measurement | None:
  """Each style's solver seconds per iteration against Normal's (value:
  one case per style and timed game, within SPEED_RATIO x)."""
  games = _games(results, analysed, variant)
  if games is None:
    return None
  cases, texts = [], []
  for result, normal, rows in _against_normal(results, games, variant):
    if not normal.seconds_per_iteration >= TIMED_SECONDS:
      continue
    speeds = {n: row.seconds_per_iteration / normal.seconds_per_iteration
              for n, row in rows.items()}
    speeds = {n: v for n, v in speeds.items() if np.isfinite(v)}
    cases += [v <= SPEED_RATIO for v in speeds.values()]
    if speeds:
      texts.append(f"{result.name}: " + ", ".join(
          f"{n} {v:.2f}x" for n, v in speeds.items()))
  ours = ("solver seconds per iteration relative to Normal: " +
          "; ".join(texts) + f" (holds: within {SPEED_RATIO:g}x; games "
          f"whose iterations take at least {1000 * TIMED_SECONDS:g} ms)"
          ) if cases else "too few evaluation points to time"
  return Measurement(ours, cases, _setting(variant, results))
