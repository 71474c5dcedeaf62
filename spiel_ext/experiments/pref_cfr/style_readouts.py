"""Play styles of the Pref-CFR paper (Ju, Tellier, Sun, Fang, Luo,
"Preference-CFR: Beyond Nash Equilibrium for Better Game Strategies", 2025,
arXiv:2411.01217), section 5.2 (Tables 2-3, Figures 5-6): what a run's
final strategies show.

For each game: each style's action distribution at player 1's (seat 0's)
first decisions, in the paper's action groups (fold / call / raise /
all-in), reach-weighted over those infosets; its strategy per private hand;
and exact head-to-head values in mb/h (two players: each style against each
in seat 0 and averaged over both seat orders; every game: each style in
each seat against Normal players, and its cost, the seat average minus
Normal's). Nothing here samples: values are exact expectations.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Callable, Iterable, Sequence

import numpy as np
import pandas as pd

from spiel_ext.analysis.poker_units import big_blind, mbh
from spiel_ext.analysis.claims import RunResults
from spiel_ext.engine import GameTree, compile_game
from spiel_ext.eval import (first_decision_distribution, hand_strategies,
                            profile_values)
from spiel_ext.eval.metrics import head_to_head_matrix
from spiel_ext.experiments.declaration import Settings
from spiel_ext.experiments.pref_cfr.shared import variants_run
from spiel_ext.experiments.runner import load_snapshots
from spiel_ext.results.report import Variant

# A game string or a compiled game.
Game = str | GameTree

# The styles the paper compares, in table order; the reference is Normal.
STYLES = ("Normal", "Aggressive", "Loose-passive")
REFERENCE = STYLES[0]
# The paper's action groups at the first decision, in table order.
GROUPS = ("fold", "call", "raise", "all-in")


def style_name(algorithm: str) -> str:
  """The style an algorithm label plays: "Normal (BR)" -> "Normal"."""
  return algorithm.split(" (", 1)[0]


def is_raise(move: str) -> bool:
  """Whether a move is a raise: ``Raise``, ``Bet`` or ``Bet<size>``;
  ``AllIn`` is not."""
  return move == "Raise" or (move.startswith("Bet") and
                             (move == "Bet" or move[3:].isdigit()))


def move_group(move: str) -> str:
  """The paper's action group of a move: fold, call, raise or all-in.

  Raises:
    ValueError: a move that is none of them (naming it).
  """
  if move == "Fold":
    return "fold"
  if move in ("Call", "Check"):
    return "call"
  if is_raise(move):
    return "raise"
  if move == "AllIn":
    return "all-in"
  raise ValueError(f"move {move!r} is not a fold, call, raise or all-in.")


def algorithm_of(style: str, variant: Variant | None) -> str:
  """The algorithm label that plays ``style`` in ``variant`` (None: the
  style's own name)."""
  if variant is None:
    return style
  return next((name for name in variant.algorithms
               if style_name(name) == style), style)


# --------------------------------------------------------- head-to-head
def seat_values(game: Game, style: np.ndarray,
                reference: np.ndarray) -> np.ndarray:
  """[seats]: the payoff of ``style`` in each seat, the others all playing
  ``reference`` (exact, in chips)."""
  tree = compile_game(game)
  values = []
  for seat in range(tree.num_players):
    seats = [reference] * tree.num_players
    seats[seat] = style
    values.append(profile_values(tree, seats)[seat])
  return np.array(values)


def two_player_matrices(game: Game, strategies: dict[str, np.ndarray]
                        ) -> tuple[pd.DataFrame, pd.DataFrame]:
  """(seat 0, seat-averaged) matrices in chips of a two-player game:
  cell [row, column] is the row style's payoff with the row style in seat
  0 and the column style in seat 1, and the mean of that and the row
  style's payoff in seat 1 against the column style in seat 0.

  Raises:
    ValueError: not a two-player game.
  """
  tree = compile_game(game)
  if tree.num_players != 2:
    raise ValueError(f"two_player_matrices needs a two-player game; "
                     f"{tree.game_string} has {tree.num_players}.")
  names, seat0 = head_to_head_matrix(tree, strategies, seat=0)
  _, seat1 = head_to_head_matrix(tree, strategies, seat=1)
  return (pd.DataFrame(seat0, index=names, columns=names),
          pd.DataFrame((seat0 + seat1) / 2, index=names, columns=names))


@dataclasses.dataclass
class GameResults:
  """What the experiment reads off one game's final strategies.

  Attributes:
    distribution: {style: {group: probability}} at player 1's first
      decisions (groups of :func:`move_group`).
    offered: the groups the first decisions offer.
    hands: {style: hand_strategies table}.
    seat0, averaged: two players: the head-to-head matrices in mb/h.
    seats: the styles' mb/h in each seat against Normal players, with a
      "seat average" column (every game, when Normal ran).
    cost: {style: seat-averaged mb/h minus Normal's}, when Normal ran.
  """
  game: str
  name: str
  slug: str
  players: int
  blind: float
  distribution: dict[str, dict[str, float]]
  offered: tuple[str, ...]
  hands: dict[str, pd.DataFrame]
  seat0: pd.DataFrame | None
  averaged: pd.DataFrame | None
  seats: pd.DataFrame | None
  cost: dict[str, float]


# The run's results -> {variant (None: a run of none of them): [the
# analysed games]} (:func:`analyse`, computed once per run).
Analysed = Callable[[RunResults], dict[Variant | None, list[GameResults]]]


def ordered(names: Iterable[str]) -> list[str]:
  """``names`` with the styles first, in :data:`STYLES` order."""
  names = list(names)
  return [s for s in STYLES if s in names] + [n for n in names
                                               if n not in STYLES]


def analyse_game(game: str, strategies: dict[str, np.ndarray],
                 name: str | None = None,
                 slug: str | None = None) -> GameResults:
  """Distributions, hands and head-to-head values of one game's styles.

  Args:
    game: the game string.
    strategies: {style: final average strategy array}.
    name, slug: the game's display and file names (default: the game
      string).
  """
  tree = compile_game(game)
  blind = big_blind(game)
  strategies = {style: strategies[style] for style in ordered(strategies)}
  distribution, offered = {}, []
  for style, strategy in strategies.items():
    grouped = {}
    for move, probability in first_decision_distribution(tree,
                                                         strategy).items():
      group = move_group(move)
      grouped[group] = grouped.get(group, 0.0) + probability
    distribution[style] = grouped
    offered = [g for g in GROUPS if g in grouped or g in offered]
  hands = {style: hand_strategies(tree, strategy)
           for style, strategy in strategies.items()}
  seat0 = averaged = seats = None
  if tree.num_players == 2:
    seat0, averaged = (frame * 1000.0 / blind
                       for frame in two_player_matrices(tree, strategies))
  cost = {}
  if REFERENCE in strategies:
    reference = strategies[REFERENCE]
    rows = {style: seat_values(tree, strategy, reference) * 1000.0 / blind
            for style, strategy in strategies.items()}
    seats = pd.DataFrame(rows, index=[f"seat {s}" for s in
                                      range(tree.num_players)]).T
    seats["seat average"] = seats.mean(axis=1)
    cost = {style: float(seats.loc[style, "seat average"] -
                         seats.loc[REFERENCE, "seat average"])
            for style in strategies}
  return GameResults(game, name or str(game), slug or str(game),
                     tree.num_players, blind, distribution, tuple(offered),
                     hands, seat0, averaged, seats, cost)


def analyse(settings: Settings, folder: Path, variants: Sequence[Variant],
            names: dict[str, tuple[str, str]]
            ) -> dict[Variant | None, list[GameResults]]:
  """{variant: :func:`analyse_game` of every game of the run} for each of
  ``variants`` whose algorithms all ran, from the "final" snapshots (the
  first seed of each algorithm: the styles are deterministic); within a
  variant the strategies go by their style's name (:func:`style_name`). A
  run of none of them: {None: the algorithms as run, by their own names}.

  Args:
    settings: the run's settings (games, algorithms).
    folder: the run folder.
    variants: the experiment's variants, in order.
    names: {game: (display name, file name)}.

  Returns:
    {variant: [GameResults of each game]}.
  """
  chosen_variants = {variant: variant.algorithms
                     for variant in variants_run(variants, settings)}
  if not chosen_variants:
    chosen_variants = {None: tuple(settings.algorithms)}
  policies = {game: load_snapshots(settings, folder, "final", game=game)
              for game in settings.games}
  results: dict[Variant | None, list[GameResults]] = {}
  for variant, algorithms in chosen_variants.items():
    results[variant] = []
    for game in settings.games:
      chosen = {style_name(name) if variant is not None else name:
                policies[game][name][0] for name in algorithms
                if name in policies[game]}
      if chosen:
        results[variant].append(analyse_game(game, chosen, *names[game]))
  return results


# --------------------------------------------------------------- tables
def _percent(value: float | None) -> str:
  return "—" if value is None else f"{100 * value:.1f}"


def distribution_table(results: list[GameResults]) -> pd.DataFrame:
  """Rows game x style; fold / call / raise / all-in % at player 1's first
  decisions ("—": not offered there)."""
  table = []
  for result in results:
    for name, grouped in result.distribution.items():
      table.append({"game": result.name, "style": name, **{
          f"{group} %": _percent(grouped.get(group)) for group in GROUPS}})
  return pd.DataFrame(table)


def rounded(frame: pd.DataFrame) -> pd.DataFrame:
  """Rounded far below the printed digits, without negative zeros."""
  return frame.round(9) + 0.0


def matrix_frame(matrix: pd.DataFrame, row_label: str = "",
                 column_label: str = "") -> pd.DataFrame:
  """A head-to-head matrix as a table: row and column names with their
  seats, the row names as the first column."""
  frame = rounded(matrix)
  frame.columns = [f"{c} {column_label}".strip() for c in frame.columns]
  frame.index = [f"{r} {row_label}".strip() for r in frame.index]
  return frame.reset_index(names="")


def nash_conv_final(frame: pd.DataFrame) -> pd.DataFrame:
  """[game, algorithm]: the last iteration, the NashConv there (mean over
  seeds) and the solver's seconds per iteration between the first and the
  last evaluation (so a one-time compilation in the first iteration is not
  counted)."""
  data = frame[frame.metric == "nash_conv"]
  keys = ["game", "algorithm"]
  iterations = data.groupby(keys)["iteration"]
  last = data[data.iteration == iterations.transform("max")].groupby(keys)
  first = data[data.iteration == iterations.transform("min")].groupby(keys)
  span = (last["iteration"].max() - first["iteration"].min())
  return pd.DataFrame({
      "iteration": last["iteration"].max(),
      "nash_conv": last["value"].mean(),
      "seconds_per_iteration": (last["wall_time"].mean() -
                                first["wall_time"].mean()) /
                               span.where(span > 0)})


def costs_table(results: list[GameResults], frame: pd.DataFrame,
                variant: Variant | None = None) -> pd.DataFrame:
  """game x style: the seat-averaged result against Normal players and the
  final NashConv, in mb/h, and the solver's time per iteration (the
  algorithm playing each style in ``variant``)."""
  final = nash_conv_final(frame)
  table = []
  for result in results:
    for name in result.distribution:
      algorithm = algorithm_of(name, variant)
      row = {"game": result.name, "style": name, "algorithm": algorithm,
             "vs Normal, seat average (mb/h)": result.cost.get(name, np.nan)}
      if (result.game, algorithm) in final.index:
        row["NashConv (mb/h)"] = mbh(final.loc[(result.game, algorithm),
                                               "nash_conv"], result.blind)
        row["iterations"] = int(final.loc[(result.game, algorithm),
                                          "iteration"])
        row["ms per iteration"] = 1000 * final.loc[(result.game, algorithm),
                                                   "seconds_per_iteration"]
      table.append(row)
  return pd.DataFrame(table)


def largest_shift(result: GameResults, style: str) -> tuple[str, float]:
  """(group, change) of the action group ``style`` moves most from Normal
  at player 1's first decision."""
  normal, styled = (result.distribution[REFERENCE],
                    result.distribution[style])
  changes = {group: styled.get(group, 0.0) - normal.get(group, 0.0)
             for group in result.offered}
  group = max(changes, key=lambda g: abs(changes[g]))
  return group, changes[group]
