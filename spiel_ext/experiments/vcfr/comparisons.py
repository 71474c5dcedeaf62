"""The VCFR experiments' tables and comparisons (Qiu, Wang, Ma, Wen, Zhang,
"Combining Counterfactual Regret Minimization with Information Gain to Solve
Extensive Games with Unknown Environments", 2023).

Each environment seed is one game (its hidden chance and rewards), so a
learner's runs on the environments of one base game are its band, and two
learners' runs on the same environments are paired: the paired difference
of log10 NashConv over environment seeds, with its standard error, says
whether one is below the other by more than chance. Pure functions of the
results table; nothing here draws or writes.
"""

from __future__ import annotations

import functools

import numpy as np
import pandas as pd
import pyspiel

from spiel_ext.experiments.vcfr.paper_values import (AUTHORS_LEDUC4_LOGS,
                                                     AUTHORS_LEDUC4_ROUNDS,
                                                     LEDUC4)

# "Clearly below": a paired difference below 0 by more than this many
# standard errors; two runs are "level" within it.
STANDARD_ERRORS = 2


def _short_label(name: str, parameters: dict) -> str:
  """``name`` with only its non-default parameters: ``leduc_poker`` or
  ``spiel_ext_leduc(ranks=5)``."""
  defaults = pyspiel.load_game(name).get_parameters()
  changed = pyspiel.load_game(name, parameters).get_parameters()
  changed = {key: value for key, value in changed.items()
             if defaults.get(key) != value}
  if not changed:
    return name
  return name + "(" + ",".join(f"{key}={value}" for key, value in
                               sorted(changed.items())) + ")"


@functools.lru_cache(maxsize=None)
def environment_label(game: str) -> str:
  """The base game of a true-game string, e.g. "unknown Leduc(4)"."""
  base = pyspiel.load_game(game).get_parameters()["game"]
  if base["name"] == "kuhn_poker":
    return "unknown Kuhn"
  if base["name"] == "spiel_ext_bid_leduc":
    return f"unknown Leduc({base.get('max_bid', 4)})"
  return "unknown " + _short_label(base["name"], {
      key: value for key, value in base.items() if key != "name"})


def with_environment(frame: pd.DataFrame) -> pd.DataFrame:
  """``frame`` with an ``environment`` column: each game's base game."""
  labels = {game: environment_label(game) for game in frame.game.unique()}
  return frame.assign(environment=frame.game.map(labels))


def final_table(frame: pd.DataFrame) -> pd.DataFrame:
  """[environment, algorithm]: final NashConv (mean over environment
  seeds), its log10 and the episodes played."""
  data = with_environment(frame[frame.metric == "nash_conv"])
  last = data[data.iteration == data.groupby(
      ["game", "algorithm"])["iteration"].transform("max")]
  table = last.groupby(["environment", "algorithm"]).agg(
      NashConv=("value", "mean"), episodes=("episodes", "max"),
      environments=("game", "nunique")).reset_index()
  table["log10 NashConv"] = np.log10(table["NashConv"])
  return table


def mean_curves(frame: pd.DataFrame) -> pd.DataFrame:
  """[environment, algorithm, iteration]: NashConv and episodes, means over
  environment seeds."""
  data = with_environment(frame[frame.metric == "nash_conv"])
  return data.groupby(["environment", "algorithm", "iteration"]).agg(
      value=("value", "mean"), episodes=("episodes", "mean")).reset_index()


def lead(curves: pd.DataFrame, environment: str, better: str,
         worse: str) -> str:
  """Where ``better``'s mean NashConv is below ``worse``'s: at how many
  shared evaluation points, and from which episode count on to the end."""
  def curve(algorithm):
    rows = curves[(curves.environment == environment) &
                  (curves.algorithm == algorithm)]
    return rows.set_index("iteration")
  ours, theirs = curve(better), curve(worse)
  shared = ours.index.intersection(theirs.index).sort_values()
  if not len(shared):
    return "no shared evaluation points"
  ahead = (ours.loc[shared, "value"] < theirs.loc[shared, "value"]).to_numpy()
  text = f"below at {int(ahead.sum())}/{len(shared)} evaluation points"
  if ahead[-1]:
    behind = np.flatnonzero(~ahead)
    start = shared[behind[-1] + 1] if len(behind) else shared[0]
    text += f", from {ours.loc[start, 'episodes']:,.0f} episodes on"
  return text


def paired_differences(frame: pd.DataFrame, environment: str, better: str,
                       worse: str, iteration: int) -> pd.Series:
  """[game] -> log10 NashConv of ``better`` minus ``worse`` at
  ``iteration``, one per environment seed both ran (each seed is one
  game, so the pairs share the hidden parameters)."""
  data = with_environment(frame[(frame.metric == "nash_conv") &
                                (frame.iteration == iteration)])
  data = data[data.environment == environment]
  logs = {algorithm: np.log10(data[data.algorithm == algorithm].groupby(
      "game")["value"].mean()) for algorithm in (better, worse)}
  return (logs[better] - logs[worse]).dropna()


def paired_difference(frame: pd.DataFrame, environment: str, better: str,
                      worse: str, iteration: int) -> tuple[float, float, int]:
  """(mean, standard error, count) over environment seeds of log10
  NashConv of ``better`` minus ``worse`` at ``iteration``
  (:func:`paired_differences`)."""
  differences = paired_differences(frame, environment, better, worse,
                                   iteration)
  count = len(differences)
  error = (float(differences.std(ddof=1)) / np.sqrt(count) if count > 1
           else float("nan"))
  return float(differences.mean()), error, count


def clearly_below(mean: float, error: float, count: int) -> bool:
  """A paired difference below 0 by more than :data:`STANDARD_ERRORS`
  standard errors (never with fewer than two environments)."""
  return bool(mean + STANDARD_ERRORS * error < 0) if count > 1 else False


def level(mean: float, error: float, count: int) -> bool:
  """A paired difference within :data:`STANDARD_ERRORS` standard errors of
  0 (never with fewer than two environments)."""
  return bool(abs(mean) <= STANDARD_ERRORS * error) if count > 1 else False


def interval(mean: float, error: float) -> str:
  """"+0.303 +- 0.417": a paired difference and its margin."""
  return f"{mean:+.3f} +- {STANDARD_ERRORS * error:.3f}"


def noise_floor(frame: pd.DataFrame, environment: str, better: str,
                worse: str, iteration: int,
                replicates: dict[str, str]) -> str:
  """The paired difference of a learner and its replicate (another learner
  seed on the same environments) at ``iteration``: how far two runs of one
  learner differ by chance. The replicate of ``better`` or ``worse`` when
  one ran, else the first of ``replicates``; "" when none can be
  compared."""
  names = [name for name in (better, worse) if name in replicates]
  base = names[0] if names else next(iter(replicates), None)
  if base is None:
    return ""
  mean, error, count = paired_difference(frame, environment, base,
                                         replicates[base], iteration)
  if count < 2:
    return ""
  return (f"; noise floor ({base} vs itself with another learner seed): "
          f"{interval(mean, error)}")


def at_logged_rounds(frame: pd.DataFrame) -> dict[str, list[float]] | None:
  """Our mean NashConv on unknown Leduc(4) of each learner the authors
  logged, at the evaluation points nearest (on a log scale) their logged
  rounds (round r is iteration r + 1); None unless every one of them ran
  past their last round."""
  curves = mean_curves(frame)
  curves = curves[curves.environment == LEDUC4]
  ours = {}
  for algorithm in AUTHORS_LEDUC4_LOGS:
    curve = curves[curves.algorithm == algorithm].set_index("iteration")
    if curve.empty or curve.index.max() < AUTHORS_LEDUC4_ROUNDS[-1]:
      return None
    points = curve.index.to_numpy()
    ours[algorithm] = [float(curve.loc[points[np.argmin(np.abs(
        np.log(points) - np.log(r + 1)))], "value"])
                       for r in AUTHORS_LEDUC4_ROUNDS]
  return ours
