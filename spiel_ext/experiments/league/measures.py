"""The solver league in numbers: NashConv curves, iterations and seconds to a
target NashConv, and the measures of the papers' orderings.

The claims judged (each on the league's run, by the final NashConv at the
cap, where every full-width solver has run the same iterations):

- Gabriele Farina, Christian Kroer, Tuomas Sandholm, "Faster Game Solving
  via Predictive Blackwell Approachability: Connecting Regret Matching and
  Mirror Descent", AAAI 2021: PCFR+ beats CFR+, DCFR and LCFR on most
  games, but DCFR is competitive or better on poker games.
- Hang Xu, Kai Li, Bingyun Liu, Haobo Fu, Qiang Fu, Junliang Xing, Jian
  Cheng, "Minimizing Weighted Counterfactual Regret with Optimistic Online
  Mirror Descent", IJCAI 2024: PDCFR+ is at least as fast as PCFR+ and
  DCFR+.
- Samuel Sokota, Ryan D'Orazio, J. Zico Kolter, Nicolas Loizou, Marc
  Lanctot, Ioannis Mitliagkas, Noam Brown, Christian Kroer, "A Unified
  Approach to Reinforcement Learning, Quantal Response Equilibria, and
  Two-Player Zero-Sum Games", ICLR 2023: MMD's last iterate converges.

A NashConv is compared as max(NashConv, FLOOR x payoff range), so two
solvers both at the floating-point floor tie instead of ranking by
round-off.
"""

from __future__ import annotations

import functools
import math
from typing import NamedTuple, Sequence

import pandas as pd

from spiel_ext.analysis.claims import (Measurement, RunResults, Threshold,
                                       figure, table)
from spiel_ext.analysis.labels import game_label
from spiel_ext.engine import load_game

METRIC = "nash_conv"
# The target NashConv: this fraction of the game's payoff range.
TARGET_FRACTION = 1e-3
# NashConv below FLOOR x payoff range counts as FLOOR x payoff range.
FLOOR = 1e-12

TIME_TO_TARGET = table("time_to_target")
FINAL_NASH_CONV = table("final_nash_conv")
MMD_LAST_ITERATE = table("mmd_last_iterate")
FASTEST = table("fastest")


# The league's games, in any spelling (canonicalised when first read):
# (short name, file-name part).
GAME_NAMES = {
    "kuhn_poker": ("Kuhn", "kuhn"),
    "leduc_poker": ("Leduc", "leduc"),
    "spiel_ext_leduc(ranks=5)": ("Leduc, 5 ranks", "leduc_5_ranks"),
    "liars_dice(numdice=1)": ("Liar's dice, 1 die", "liars_dice"),
    "turn_based_simultaneous_game(game=goofspiel(imp_info=True,num_cards=4,"
    "points_order=descending))": ("Goofspiel, 4 cards", "goofspiel_4"),
    "battleship(board_height=2,board_width=2,ship_sizes=[2],ship_values=[1],"
    "num_shots=3)": ("Battleship 2x2", "battleship_2x2"),
    "kuhn_poker(players=3)": ("Kuhn, 3 players", "kuhn_3_players"),
}


@functools.lru_cache(maxsize=None)
def _canonical(game: str) -> str:
  """The game string as pyspiel writes it (``game`` itself if it does not
  load)."""
  try:
    return str(load_game(game))
  except ValueError:
    return game


@functools.lru_cache(maxsize=None)
def _names(game: str) -> tuple[str, str]:
  """(short name, file-name part) of a game string in any spelling; for a
  game outside the league, its label and the label as a file name."""
  known = {_canonical(name): value for name, value in GAME_NAMES.items()}
  canonical = _canonical(game)
  if canonical in known:
    return known[canonical]
  label = game_label(canonical)
  text = "".join(c if c.isalnum() else "_" for c in label)
  return label, "_".join(part for part in text.split("_") if part)


def game_name(game: str) -> str:
  """The short name tables and figures give ``game`` ("Kuhn, 3 players")."""
  return _names(game)[0]


def game_slug(game: str) -> str:
  """``game`` as a file-name part ("kuhn_3_players")."""
  return _names(game)[1]


def curves_figure(game: str):
  """The figure of one game's curves (NashConv vs iterations and vs solver
  seconds), as a claim's evidence."""
  return figure(f"nash_conv_{game_slug(game)}")


# "Most games": at least this fraction of the games the claim is judged on.
MOST = 2 / 3
MOST_GAMES = Threshold(MOST, partly_at=0.5, direction="at least")
EVERY_GAME = Threshold(1.0, partly_at=0.5, direction="at least")
# "Competitive": a final NashConv at most this factor above the other's.
COMPETITIVE = 2.0
# MMD's last iterate has converged on a game when its NashConv moved by at
# most SETTLED (a fraction) over the last decade of iterations (from T / 10
# to T) after moving by at least MOVED (a fraction of its first value) from
# its first point (a curve that never moved has not converged). It
# converges to the alpha-QRE, not to a Nash equilibrium: where alpha is
# large beside the game's sequence-form payoffs, the QRE's NashConv is too.
SETTLED = 0.05
MOVED = 0.01


@functools.lru_cache(maxsize=None)
def payoff_range(game: str) -> float:
  """The game's max utility - min utility (pyspiel's bounds)."""
  loaded = load_game(game)
  return float(loaded.max_utility() - loaded.min_utility())


def target(game: str, fraction: float = TARGET_FRACTION) -> float:
  """The target NashConv of ``game``: ``fraction`` x its payoff range."""
  return fraction * payoff_range(game)


def mean_curve(frame: pd.DataFrame, game: str, algorithm: str,
               metric: str = METRIC) -> pd.DataFrame:
  """One line of the league: at each evaluated iteration of ``algorithm``
  on ``game``, the mean, 5th and 95th percentile of ``metric`` over seeds,
  the mean solver seconds (``wall_time``) and the number of seeds; indexed
  by iteration (empty when there are no rows)."""
  rows = frame[(frame.game == game) & (frame.algorithm == algorithm) &
               (frame.metric == metric)]
  grouped = rows.groupby("iteration")
  return pd.DataFrame({
      "value": grouped["value"].mean(),
      "low": grouped["value"].quantile(0.05),
      "high": grouped["value"].quantile(0.95),
      "seconds": grouped["wall_time"].mean(),
      "seeds": grouped["value"].count()}).sort_index()


class Reached(NamedTuple):
  """Where a curve first reached its target."""
  iteration: int
  seconds: float


def time_to_target(curve: pd.DataFrame, goal: float) -> Reached | None:
  """The first evaluation point of ``curve`` (a :func:`mean_curve`) whose
  mean value is at most ``goal``, as (iteration, solver seconds); None
  when no point reaches it."""
  reached = curve[curve["value"] <= goal]
  if reached.empty:
    return None
  iteration = int(reached.index[0])
  return Reached(iteration, float(reached["seconds"].iloc[0]))


def league_table(frame: pd.DataFrame, games: Sequence[str],
                 algorithms: Sequence[str], labels: dict[str, str],
                 not_applicable: dict[tuple[str, str], str],
                 fraction: float = TARGET_FRACTION) -> pd.DataFrame:
  """Iterations and solver seconds to NashConv <= ``fraction`` x payoff
  range: one row per algorithm (its label), one column per game.

  A cell is "<iterations> it, <seconds> s"; "not reached (<iterations> it,
  <seconds> s, NashConv <final>)" when the last point is above the target
  (the iterations are the algorithm's cap there); the reason in
  ``not_applicable`` ({(algorithm, game): "n/a (...)"}) for a solver that
  does not apply to the game; "no results" when it should have run but
  has no rows.
  """
  columns = {game: f"{game_name(game)} (<= {target(game, fraction):.3g})"
             for game in games}
  rows = []
  for algorithm in algorithms:
    row = {"solver": labels.get(algorithm, algorithm)}
    for game in games:
      reason = not_applicable.get((algorithm, game))
      curve = mean_curve(frame, game, algorithm)
      if reason is not None:
        cell = reason
      elif curve.empty:
        cell = "no results"
      else:
        reached = time_to_target(curve, target(game, fraction))
        if reached is None:
          last = curve.iloc[-1]
          cell = (f"not reached ({int(curve.index[-1]):,} it, "
                  f"{last['seconds']:.3g} s, NashConv {last['value']:.3g})")
        else:
          cell = f"{reached.iteration:,} it, {reached.seconds:.3g} s"
      row[columns[game]] = cell
    rows.append(row)
  return pd.DataFrame(rows, columns=["solver", *columns.values()])


def final_nash_conv(frame: pd.DataFrame) -> pd.DataFrame:
  """[game, algorithm] -> the last evaluated iteration and the mean
  NashConv there (over seeds)."""
  data = frame[frame.metric == METRIC]
  last = data[data.iteration == data.groupby(["game", "algorithm"])[
      "iteration"].transform("max")]
  return last.groupby(["game", "algorithm"]).agg(
      iteration=("iteration", "max"), nash_conv=("value", "mean"))


def _floored(value: float, game: str) -> float:
  return max(value, FLOOR * payoff_range(game))


def final_ratio(final: pd.DataFrame, game: str, first: str,
                second: str) -> float:
  """Final NashConv of ``first`` / that of ``second`` on ``game`` (each
  floored, see the module docstring); NaN when either is missing."""
  try:
    a = final.loc[(game, first), "nash_conv"]
    b = final.loc[(game, second), "nash_conv"]
  except KeyError:
    return math.nan
  return _floored(a, game) / _floored(b, game)


def game_order(results: RunResults) -> list[str]:
  """The run's games in its settings' order (without settings: in the
  order the results first name them)."""
  games = getattr(results.settings, "games", None)
  return list(games) if games else list(dict.fromkeys(results.frame.game))


def _games_with(final: pd.DataFrame, names: Sequence[str],
                games: Sequence[str]) -> list[str]:
  """The ``games`` (in order) on which every one of ``names`` has a final
  NashConv."""
  present = set(final.index)
  return [game for game in games
          if all((game, name) in present for name in names)]


def _listed(ratios: dict[str, float]) -> str:
  return "; ".join(f"{game_name(game)} {ratio:.3g}"
                   for game, ratio in ratios.items())


def beats_on_most(results: RunResults, *, solver: str,
                  baselines: Sequence[str], labels: dict[str, str],
                  setting: str) -> Measurement | None:
  """The fraction of games on which ``solver``'s final NashConv is below
  every one of ``baselines``' (each ratio solver / baseline < 1), with
  every ratio in the text; None when no game has them all."""
  final = final_nash_conv(results.frame)
  games = _games_with(final, [solver, *baselines], game_order(results))
  if not games:
    return None
  wins = 0
  parts = []
  for game in games:
    ratios = {base: final_ratio(final, game, solver, base)
              for base in baselines}
    won = all(ratio < 1.0 for ratio in ratios.values())
    wins += won
    parts.append(f"{game_name(game)}: " + ", ".join(
        f"/{labels.get(base, base)} {ratio:.3g}"
        for base, ratio in ratios.items()) + (" (wins)" if won else ""))
  fraction = wins / len(games)
  return Measurement(
      f"{labels.get(solver, solver)} below all of "
      f"{', '.join(labels.get(b, b) for b in baselines)} on {wins} of "
      f"{len(games)} games ({fraction:.0%}; most = at least "
      f"{MOST:.0%}); final NashConv ratios: " + "; ".join(parts),
      fraction, setting)


def competitive_on(results: RunResults, *, solver: str, other: str,
                   games: Sequence[str], labels: dict[str, str],
                   setting: str) -> Measurement | None:
  """The fraction of ``games`` (any spelling of the game strings) on which
  ``solver``'s final NashConv is at most :data:`COMPETITIVE` times
  ``other``'s, with the ratios."""
  final = final_nash_conv(results.frame)
  wanted = {game_name(game) for game in games}
  judged = _games_with(final, [solver, other],
                       [game for game in game_order(results)
                        if game_name(game) in wanted])
  if not judged:
    return None
  ratios = {game: final_ratio(final, game, solver, other) for game in judged}
  good = sum(ratio <= COMPETITIVE for ratio in ratios.values())
  fraction = good / len(judged)
  return Measurement(
      f"final NashConv {labels.get(solver, solver)} / "
      f"{labels.get(other, other)}: {_listed(ratios)}; within "
      f"x{COMPETITIVE:g} on {good} of {len(judged)} poker games "
      f"(better where < 1)", fraction, setting)


def at_least_as_fast(results: RunResults, *, solver: str,
                     others: Sequence[str], labels: dict[str, str],
                     setting: str) -> Measurement | None:
  """The fraction of games on which ``solver``'s final NashConv is at most
  the smallest of ``others``' (ratio <= 1), with the ratios."""
  final = final_nash_conv(results.frame)
  games = _games_with(final, [solver, *others], game_order(results))
  if not games:
    return None
  ratios = {}
  for game in games:
    best = min(_floored(final.loc[(game, other), "nash_conv"], game)
               for other in others)
    ratios[game] = _floored(final.loc[(game, solver), "nash_conv"],
                            game) / best
  good = sum(ratio <= 1.0 for ratio in ratios.values())
  fraction = good / len(games)
  return Measurement(
      f"final NashConv {labels.get(solver, solver)} / best of "
      f"{', '.join(labels.get(o, o) for o in others)}: {_listed(ratios)}; "
      f"<= 1 on {good} of {len(games)} games", fraction, setting)


class LastDecade(NamedTuple):
  """A curve's NashConv at its first point, at T / 10 (the first point at
  or after it) and at its last point T, and |change| / the value at T /
  10 over that last decade."""
  first: float
  start: float
  end: float
  change: float

  @property
  def converged(self) -> bool:
    """Settled over the last decade after having moved (see SETTLED)."""
    return (self.change <= SETTLED and
            abs(self.end - self.first) >= MOVED * self.first)


def last_decade(curve: pd.DataFrame) -> LastDecade:
  """:class:`LastDecade` of a :func:`mean_curve`."""
  last = int(curve.index[-1])
  start = float(curve[curve.index >= last / 10].iloc[0]["value"])
  end = float(curve.iloc[-1]["value"])
  change = abs(end - start) / start if start > 0 else 0.0
  return LastDecade(float(curve.iloc[0]["value"]), start, end, change)


def mmd_table(frame: pd.DataFrame, games: Sequence[str], last_iterate: str,
              average: str) -> pd.DataFrame:
  """Per game where MMD ran: its last iterate's NashConv at the first
  evaluation, at T / 10 and at T, the relative change over the last decade,
  whether it converged (see :data:`SETTLED`), and its average's NashConv
  at T."""
  final = final_nash_conv(frame)
  rows = []
  for game in games:
    curve = mean_curve(frame, game, last_iterate)
    if curve.empty:
      continue
    decade = last_decade(curve)
    rows.append({
        "game": game_name(game), "iterations T": int(curve.index[-1]),
        "last iterate at 1": decade.first, "at T/10": decade.start,
        "at T": decade.end, "change over the last decade": decade.change,
        "converged": decade.converged,
        "average at T": (final.loc[(game, average), "nash_conv"]
                         if (game, average) in final.index else math.nan)})
  return pd.DataFrame(rows)


def last_iterate_converges(results: RunResults, *, last_iterate: str,
                           setting: str) -> Measurement | None:
  """The fraction of games on which MMD's last iterate converged (its
  NashConv moved by at least :data:`MOVED` of its first value and by at
  most :data:`SETTLED` over the last decade)."""
  ran = set(results.frame.loc[results.frame.algorithm == last_iterate,
                               "game"])
  games = [game for game in game_order(results) if game in ran]
  if not games:
    return None
  decades = {game: last_decade(mean_curve(results.frame, game, last_iterate))
             for game in games}
  good = sum(decade.converged for decade in decades.values())
  fraction = good / len(games)
  return Measurement(
      "last-iterate NashConv first -> T, change over the last decade: " +
      "; ".join(f"{game_name(game)} {d.first:.3g} -> {d.end:.3g}, "
                f"{d.change:.1%}" for game, d in decades.items()) +
      f"; converged (moved >= {MOVED:.0%} from the first point, then <= "
      f"{SETTLED:.0%} over the last decade) "
      f"on {good} of {len(games)} games", fraction, setting)


def lower_on(results: RunResults, *, game: str, solver: str, other: str,
             labels: dict[str, str], setting: str) -> Measurement | None:
  """``solver``'s final NashConv / ``other``'s on ``game``."""
  final = final_nash_conv(results.frame)
  names = {name: labels.get(name, name) for name in (solver, other)}
  matches = [g for g in game_order(results)
             if game_name(g) == game_name(game)]
  if not matches or not _games_with(final, [solver, other], matches):
    return None
  ratio = final_ratio(final, matches[0], solver, other)
  first = final.loc[(matches[0], solver), "nash_conv"]
  second = final.loc[(matches[0], other), "nash_conv"]
  return Measurement(
      f"final NashConv {names[solver]} {first:.3g}, {names[other]} "
      f"{second:.3g} (ratio {ratio:.3g})", ratio, setting)


def strictly_below_one(ratio: float) -> str:
  """holds if ``ratio`` < 1 (a tie does not hold), else does not hold."""
  return "holds" if ratio < 1.0 else "does not hold"
