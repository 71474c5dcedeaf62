"""A run's settings: an experiment's scale with the user's overrides,
validated, and the iterations at which it is measured."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from spiel_ext.algorithms.checks import MAX_SEED, check_int
from spiel_ext.experiments.declaration import SCALES, Experiment, Settings
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


def settings_for(experiment: Experiment, scale: str, *,
                 iterations: int | None = None, seeds: int | None = None,
                 games: Sequence[str] | None = None,
                 algorithms: Sequence[str] | None = None,
                 eval_every: int | None = None,
                 first_seed: int = 0) -> Settings:
  """The experiment's scale with overrides; ValueError names a bad one."""
  # The registry imports every paper's declarations, which import this
  # module: it is read when a run is set up, not when this module loads.
  from spiel_ext.experiments.solvers import check_algorithms, game_string  # pylint: disable=g-import-not-at-top
  if scale not in SCALES:
    raise ValueError(f"scale must be one of {list(SCALES)}; got {scale!r}.")
  base = experiment.quick if scale == "quick" else experiment.paper
  for name, value, high in (("iterations", iterations, MAX_ITERATIONS),
                            ("seeds", seeds, MAX_UNITS),
                            ("eval_every", eval_every, MAX_ITERATIONS)):
    if value is not None:
      check_int(name, value, 1, high)
  check_int("seed", first_seed, 0, MAX_SEED)
  seed_count = seeds or base.seeds
  if first_seed + seed_count - 1 > MAX_SEED:
    raise ValueError(
        f"seed: the runs use seeds {first_seed} to "
        f"{first_seed + seed_count - 1}, past the largest seed {MAX_SEED}; "
        f"the first seed must be at most {MAX_SEED - seed_count + 1} for "
        f"{seed_count} seeds.")
  run_iterations = iterations or base.iterations
  interval = eval_every or base.eval_every
  if interval and run_iterations // interval > MAX_EVALUATION_POINTS:
    raise ValueError(
        f"eval_every: {run_iterations:,} iterations evaluated every "
        f"{interval:,} give {run_iterations // interval:,} evaluation "
        f"points; at most {MAX_EVALUATION_POINTS:,} are allowed (eval_every "
        f">= {-(-run_iterations // MAX_EVALUATION_POINTS):,}).")
  for name, value in (("algorithms", algorithms), ("games", games)):
    if value is not None and (isinstance(value, str) or not value or
                              not all(isinstance(item, str) and item.strip()
                                      for item in value)):
      raise ValueError(f"{name}: give at least one name, each non-empty; "
                       f"got {list(value) if not isinstance(value, str) else value!r}"
                       " (leave it out for the experiment's own).")
  algorithms = tuple(algorithms or base.algorithms)
  try:
    check_algorithms(algorithms)
  except ValueError as error:
    raise ValueError(f"algorithms: {error}") from None
  check_metrics(experiment.metrics)
  try:
    games = tuple(game_string(game) for game in (games or base.games))
  except ValueError as error:
    raise ValueError(f"games: {error}") from None
  for name, values in (("algorithms", algorithms), ("games", games)):
    repeated = sorted({value for value in values if values.count(value) > 1})
    if repeated:
      raise ValueError(f"{name}: {', '.join(map(repr, repeated))} given "
                       "more than once; each would be the same work unit.")
  units = len(games) * len(algorithms) * seed_count
  if units > MAX_UNITS:
    raise ValueError(f"seeds: {len(games)} games x {len(algorithms)} "
                     f"algorithms x {seed_count} seeds = {units:,} work "
                     f"units; at most {MAX_UNITS:,} are allowed.")
  # A cap on one game names it as the run does: the canonical string.
  caps = tuple(cap if len(cap) < 3 else (cap[0], cap[1], game_string(cap[2]))
               for cap in base.iteration_caps)
  return Settings(experiment.name, scale, iterations or base.iterations,
                  seeds or base.seeds, games, algorithms, experiment.metrics,
                  eval_every or base.eval_every, caps,
                  first_seed, base.snapshots)
