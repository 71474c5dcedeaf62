"""A run's settings: an experiment's scale with the user's overrides,
validated, and the iterations at which it is measured."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from spiel_ext.algorithms.checks import MAX_SEED, check_int
from spiel_ext.engine import load_game
from spiel_ext.experiments.declaration import SCALES, Experiment, Settings
from spiel_ext.experiments.entries import check_algorithms
from spiel_ext.experiments.metrics import check_metrics


# Bounds on what a run may ask for. 10^9 iterations of the fastest solver
# on the smallest game take days; more is a typo, not an experiment.
MAX_ITERATIONS = 10**9


MAX_UNITS = 100_000


MAX_EVALUATION_POINTS = 100_000


def evaluation_points(iterations: int, eval_every: int | None,
                      extra: Sequence[int] = ()) -> tuple[int, ...]:
  """Every ``eval_every`` iterations, or about 8 log-spaced points per
  decade (what log-axis figures need), always including the last and any
  ``extra`` points within range."""
  if eval_every:
    points = set(range(eval_every, iterations + 1, eval_every))
  else:
    decades = max(np.log10(iterations), 1.0)
    count = int(np.ceil(8 * decades)) + 1
    points = set(np.unique(np.round(np.logspace(0, np.log10(iterations),
                                                count)).astype(int)))
  points.add(iterations)
  points.update(extra)
  return tuple(sorted(int(p) for p in points if 1 <= p <= iterations))


def iteration_cap(caps: Sequence[tuple], algorithm: str, game: str,
                  iterations: int) -> int:
  """The iterations ``algorithm`` runs on ``game``: ``iterations``, or
  less where ``caps`` cap it, by (algorithm, cap) on every game or by
  (algorithm, cap, game) on that game (the smallest cap that applies)."""
  for cap in caps:
    if cap[0] == algorithm and (len(cap) < 3 or cap[2] == game):
      iterations = min(iterations, int(cap[1]))
  return iterations


def game_string(game: str) -> str:
  """The canonical game string (``leduc_poker()``); our games are
  registered by ``import spiel_ext``.

  Args:
    game: a game string, as a user may write it.

  Returns:
    The game string pyspiel gives the loaded game.

  Raises:
    ValueError: an unknown game or bad parameters, in one line (never
      pyspiel's list of every registered game).
  """
  return str(load_game(game))


def _check_numbers(iterations: int | None, seeds: int | None,
                   eval_every: int | None, first_seed: int,
                   seed_count: int) -> None:
  """The numeric overrides are in range, and so are the seeds they give."""
  for name, value, high in (("iterations", iterations, MAX_ITERATIONS),
                            ("seeds", seeds, MAX_UNITS),
                            ("eval_every", eval_every, MAX_ITERATIONS)):
    if value is not None:
      check_int(name, value, 1, high)
  check_int("seed", first_seed, 0, MAX_SEED)
  if first_seed + seed_count - 1 > MAX_SEED:
    raise ValueError(
        f"seed: the runs use seeds {first_seed} to "
        f"{first_seed + seed_count - 1}, past the largest seed {MAX_SEED}; "
        f"the first seed must be at most {MAX_SEED - seed_count + 1} for "
        f"{seed_count} seeds.")


def _check_evaluation_points(iterations: int, interval: int | None) -> None:
  """At most :data:`MAX_EVALUATION_POINTS` evaluations every ``interval``."""
  if interval and iterations // interval > MAX_EVALUATION_POINTS:
    raise ValueError(
        f"eval_every: {iterations:,} iterations evaluated every "
        f"{interval:,} give {iterations // interval:,} evaluation "
        f"points; at most {MAX_EVALUATION_POINTS:,} are allowed (eval_every "
        f">= {-(-iterations // MAX_EVALUATION_POINTS):,}).")


def _check_name_list(name: str, value: Sequence[str] | None) -> None:
  """An override list of names holds at least one name, each non-empty."""
  if value is None:
    return
  if isinstance(value, str):
    shown = repr(value)
  elif value and all(isinstance(item, str) and item.strip()
                     for item in value):
    return
  else:
    shown = str(list(value))
  raise ValueError(f"{name}: give at least one name, each non-empty; "
                   f"got {shown} (leave it out for the experiment's own).")


def _resolved(algorithms: Sequence[str], games: Sequence[str],
              metrics: Sequence[str]) -> tuple[tuple[str, ...],
                                                tuple[str, ...]]:
  """(algorithms, canonical game strings), each checked and given once;
  the metrics checked too."""
  algorithms = tuple(algorithms)
  try:
    check_algorithms(algorithms)
  except ValueError as error:
    raise ValueError(f"algorithms: {error}") from None
  check_metrics(metrics)
  try:
    games = tuple(game_string(game) for game in games)
  except ValueError as error:
    raise ValueError(f"games: {error}") from None
  for name, values in (("algorithms", algorithms), ("games", games)):
    repeated = sorted({value for value in values if values.count(value) > 1})
    if repeated:
      raise ValueError(f"{name}: {', '.join(map(repr, repeated))} given "
                       "more than once; each would be the same work unit.")
  return algorithms, games


def _check_units(games: Sequence[str], algorithms: Sequence[str],
                 seed_count: int) -> None:
  """At most :data:`MAX_UNITS` work units."""
  units = len(games) * len(algorithms) * seed_count
  if units > MAX_UNITS:
    raise ValueError(f"seeds: {len(games)} games x {len(algorithms)} "
                     f"algorithms x {seed_count} seeds = {units:,} work "
                     f"units; at most {MAX_UNITS:,} are allowed.")


def settings_for(experiment: Experiment, scale: str, *,
                 iterations: int | None = None, seeds: int | None = None,
                 games: Sequence[str] | None = None,
                 algorithms: Sequence[str] | None = None,
                 eval_every: int | None = None,
                 first_seed: int = 0) -> Settings:
  """The experiment's scale with the user's overrides, validated.

  Args:
    experiment: the declaration.
    scale: "quick" or "paper".
    iterations: iterations per unit (default: the scale's).
    seeds: seeds per seeded algorithm (default: the scale's).
    games: game strings (default: the scale's).
    algorithms: algorithm ids (default: the scale's).
    eval_every: evaluate every so many iterations (default: the scale's,
      else about 8 log-spaced points per decade).
    first_seed: the first seed the units use.

  Returns:
    The run's settings, games named by their canonical strings.

  Raises:
    ValueError: names the bad value.
    ImportError: an algorithm needs an optional extra that is missing.
  """
  if scale not in SCALES:
    raise ValueError(f"scale must be one of {list(SCALES)}; got {scale!r}.")
  base = experiment.quick if scale == "quick" else experiment.paper
  seed_count = seeds or base.seeds
  _check_numbers(iterations, seeds, eval_every, first_seed, seed_count)
  _check_evaluation_points(iterations or base.iterations,
                           eval_every or base.eval_every)
  _check_name_list("algorithms", algorithms)
  _check_name_list("games", games)
  algorithms, games = _resolved(algorithms or base.algorithms,
                                games or base.games, experiment.metrics)
  _check_units(games, algorithms, seed_count)
  # A cap on one game names it as the run does: the canonical string.
  caps = tuple(cap if len(cap) < 3 else (cap[0], cap[1], game_string(cap[2]))
               for cap in base.iteration_caps)
  return Settings(experiment.name, scale, iterations or base.iterations,
                  seed_count, games, algorithms, experiment.metrics,
                  eval_every or base.eval_every, caps,
                  first_seed, base.snapshots)
