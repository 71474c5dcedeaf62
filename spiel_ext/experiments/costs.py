"""What the experiments cost, as measured: the order of a pool of units and
the time left in its progress report, the units' time in a run's manifest,
and the costs ``--list`` states.

The measurements are in :mod:`.measured_costs`, a table written by the
benchmark script ``benchmarks/measure_costs.py`` from finished runs: per
experiment and scale the wall time and the units' time (solver and
evaluation), and per experiment, game and algorithm the seconds an
iteration takes, evaluation included. A unit nobody measured is given
:data:`UNMEASURED_SECONDS_PER_ITERATION`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from spiel_ext.executors import Job, WorkUnit
from spiel_ext.experiments.measured_costs import (EXPERIMENT_SECONDS, MACHINE,
                                                  SECONDS_PER_ITERATION)

# About an iteration of CFR on Leduc poker with its evaluation.
UNMEASURED_SECONDS_PER_ITERATION = 1e-3


def seconds_per_iteration(unit: WorkUnit) -> float:
  """The measured seconds of one of ``unit``'s iterations, evaluation
  included: of its experiment, game and algorithm; else of the same game
  and algorithm in another experiment; else the median over the
  algorithms measured on its game; else
  :data:`UNMEASURED_SECONDS_PER_ITERATION`.

  Args:
    unit: the work unit.

  Returns:
    Seconds per iteration.
  """
  key = f"{unit.game}|{unit.algorithm}"
  own = SECONDS_PER_ITERATION.get(unit.experiment, {})
  if key in own:
    return own[key]
  for table in SECONDS_PER_ITERATION.values():
    if key in table:
      return table[key]
  same_game = sorted(seconds for table in SECONDS_PER_ITERATION.values()
                     for measured, seconds in table.items()
                     if measured.split("|", 1)[0] == unit.game)
  if same_game:
    return same_game[len(same_game) // 2]
  return UNMEASURED_SECONDS_PER_ITERATION


# About the seconds one experiment's finishing steps take after its last
# unit (merging its results, writing its figures and tables; matplotlib's
# import included), as the quickstart's took: the progress report's time
# left counts them.
FINISHING_SECONDS = 2.0


def unit_seconds(job: Job) -> float:
  """The measured seconds ``job``'s whole unit takes (see
  :func:`seconds_per_iteration`).

  Args:
    job: the job.

  Returns:
    Seconds.
  """
  return job.unit.iterations * seconds_per_iteration(job.unit)


def units_time(folder: Path, jobs: Sequence[Job]) -> dict[str, float]:
  """The solver and evaluation seconds of the finished units of a run, as
  each recorded them when it finished.

  Args:
    folder: the run folder.
    jobs: the run's jobs.

  Returns:
    {"solver_seconds", "evaluation_seconds", "units"}: the sums, and the
    number of units that recorded their time.
  """
  total = {"solver_seconds": 0.0, "evaluation_seconds": 0.0, "units": 0}
  for job in jobs:
    done = job.store(folder.parent).done_record() or {}
    try:
      solver, evaluation = (float(done["solver_seconds"]),
                            float(done["evaluation_seconds"]))
    except (KeyError, TypeError, ValueError):
      continue  # Unfinished, or finished before the time was recorded.
    total["solver_seconds"] += solver
    total["evaluation_seconds"] += evaluation
    total["units"] += 1
  return total


def evaluation_share(seconds: dict[str, float]) -> float | None:
  """The share of the units' time spent evaluating.

  Args:
    seconds: as :func:`units_time` returns.

  Returns:
    evaluation / (solver + evaluation), or None if no unit recorded its
    time.
  """
  spent = seconds["solver_seconds"] + seconds["evaluation_seconds"]
  return seconds["evaluation_seconds"] / spent if spent > 0 else None


def cost_line(name: str) -> str:
  """What ``--list`` says an experiment costs at each scale, as measured
  (see :func:`measured_on`): for ``all``, the pool's wall time; for one
  experiment measured in a pool, its units' seconds of work (wall time
  with W workers is about that over W, plus compiling and drawing); and
  the share spent evaluating.

  Args:
    name: the experiment, or "all".

  Returns:
    One line (no newline).
  """
  measured = EXPERIMENT_SECONDS.get(name, {})
  parts = []
  for scale in ("quick", "paper"):
    entry = measured.get(scale)
    if entry is None:
      parts.append(f"{scale}: not measured")
      continue
    spent = (f"{_minutes(entry['wall_seconds'])} with "
             f"--workers={entry['workers']}" if name == "all" else
             _minutes(entry["solver_seconds"] + entry["evaluation_seconds"])
             + " of work")
    parts.append(f"{scale}: {spent} ({entry['evaluation_share']:.0%} "
                 "evaluating)")
  return "; ".join(parts)


def measured_on() -> str:
  """Where and when the costs were measured.

  Returns:
    The measured table's date and machine ("measured <date> on ..."),
    or "not measured".
  """
  return MACHINE or "not measured"


def _minutes(seconds: float) -> str:
  if seconds < 90:
    return f"{seconds:.0f} s"
  return f"{seconds / 60:.0f} min"
