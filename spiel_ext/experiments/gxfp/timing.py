"""The GXFP paper's cost claim, timed alone: "a similar computational cost
per iteration" for CFR, XFP and GXFP (Tim P. Schulze, "A Generalized
Extensive-Form Fictitious Play Algorithm", 2023, section 5).

The run's own times are worker times on a shared machine; these are taken
in one process, one solver at a time, interleaved so that a change in the
machine's load favours none.
"""

from __future__ import annotations

import statistics
import time
from typing import Sequence

from spiel_ext.experiments.entries import ALGORITHMS, AlgorithmEntry
from spiel_ext.experiments.gxfp.measures_convergence import (TIMING_ITERATIONS,
                                                             TIMING_ROUNDS,
                                                             TIMING_WARMUP,
                                                             main_labels)
from spiel_ext.experiments.gxfp.paper_values import LABELS


def time_alone(game: str, algorithms: Sequence[str | AlgorithmEntry],
               iterations: int = TIMING_ITERATIONS,
               rounds: int = TIMING_ROUNDS) -> dict[str, float]:
  """Seconds per iteration of each algorithm on ``game``, timed in this
  process one solver at a time: a few warm-up iterations each, then
  ``rounds`` rounds in which each solver in turn runs ``iterations //
  rounds`` iterations; the median of its rounds (interleaving keeps a
  change in the machine's load from favouring one solver).

  Args:
    game: the game string.
    algorithms: entries, or ids of registered entries
      (:data:`~spiel_ext.experiments.entries.ALGORITHMS`).
    iterations: iterations per solver, over all rounds.
    rounds: the interleaved rounds.

  Returns:
    {id: seconds per iteration}, in the order given.
  """
  entries = [ALGORITHMS[a] if isinstance(a, str) else a for a in algorithms]
  solvers = {}
  for entry in entries:
    solvers[entry.id] = entry.build(game, seed=0)
    for _ in range(TIMING_WARMUP):
      solvers[entry.id].iteration()
  per_round = max(iterations // rounds, 1)
  times = {name: [] for name in solvers}
  for _ in range(rounds):
    for name, solver in solvers.items():
      start = time.perf_counter()
      for _ in range(per_round):
        solver.iteration()
      times[name].append((time.perf_counter() - start) / per_round)
  return {name: statistics.median(values) for name, values in times.items()}


def time_main_solvers(game: str) -> dict[str, float]:
  """:func:`time_alone` for CFR, XFP and GXFP on each schedule.

  Args:
    game: the game string.

  Returns:
    {id: seconds per iteration}.
  """
  return time_alone(game, main_labels(LABELS))
