"""Measures what the experiments cost and writes the table the package keeps.

    python benchmarks/measure_costs.py --scale=quick [--workers=2]
        [--experiments=all] [--output_dir=/tmp/costs] [--dry_run]

Runs the experiments (``--experiments``, default ``all``: their units in
one pool, as ``spiel-ext --experiment=all`` does) at ``--scale`` with
``--workers`` local processes, timing the whole command, then reads each
finished unit's solver and evaluation seconds from its run folder. It
writes ``spiel_ext/experiments/measured_costs.py`` (``--dry_run``: prints
it instead), keeping what was measured at the other scale:

- per experiment and scale: the units' solver and evaluation seconds, the
  share spent evaluating, and the wall time (the pool's for ``all``; for one
  experiment of a pool, its units' seconds over the workers, as it would
  take alone);
- per experiment, game and algorithm: seconds per iteration, evaluation
  included (the mean over the unit's seeds), which orders a pool's units
  and weighs its progress.

With ``--from_existing`` it reads a finished run in ``--output_dir``
instead of running one (its wall time then is the manifest's; for a run
that was resumed, its units' seconds over the workers).
"""

import datetime
import json
import os
import platform
import pprint
import subprocess
import sys
import time
from pathlib import Path

from absl import app
from absl import flags

from spiel_ext.experiments import EXPERIMENTS, REPRODUCTION
from spiel_ext.experiments.runner import build_jobs
from spiel_ext.experiments import measured_costs
from spiel_ext.experiments.run_folder import stored_settings

_SCALE = flags.DEFINE_enum("scale", "quick", ["quick", "paper"],
                           "the scale to measure")
_WORKERS = flags.DEFINE_integer("workers", 2, "local worker processes",
                                lower_bound=1)
_EXPERIMENTS = flags.DEFINE_list("experiments", ["all"],
                                 "experiments to run in one pool (all: "
                                 "every experiment --experiment=all runs)")
_OUTPUT_DIR = flags.DEFINE_string("output_dir", "/tmp/spiel_ext_costs",
                                  "where the runs go")
_FROM_EXISTING = flags.DEFINE_bool(
    "from_existing", False, "read a finished run in --output_dir instead of "
    "running one")
_NOTE = flags.DEFINE_string("note", "", "a remark on the measurement, kept "
                            "with the machine (e.g. that the host was busy)")
_DRY_RUN = flags.DEFINE_bool("dry_run", False, "print the table instead of "
                             "writing it")

_TABLE = Path(measured_costs.__file__)
_HEADER = ('"""The experiments\' measured costs (written by '
           "benchmarks/measure_costs.py;\nedit by running it, not by hand). "
           'See :mod:`spiel_ext.experiments.costs`."""\n')


def _machine() -> str:
  memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
  return (f"measured {datetime.date.today().isoformat()} on "
          f"{len(os.sched_getaffinity(0))} cores, {memory:.0f} GiB, "
          f"{platform.system()} {platform.machine()}, Python "
          f"{platform.python_version()}")


def _run(names: list[str], scale: str, workers: int, output_dir: str) -> float:
  """Runs the experiments in one pool; returns the command's wall time."""
  command = [sys.executable, "-m", "spiel_ext.cli",
             f"--experiment={','.join(names)}", f"--scale={scale}",
             f"--workers={workers}", f"--output_dir={output_dir}", "--quiet",
             "--overwrite"]
  start = time.perf_counter()
  subprocess.run(command, check=True)
  return time.perf_counter() - start


def _manifest_wall_seconds(folder: Path) -> float | None:
  """The run's wall time, or None when it was resumed or never finished
  (its last session then covers only part of the work)."""
  sessions = json.loads((folder / "manifest.json").read_text())["sessions"]
  if len(sessions) != 1 or not sessions[0].get("finished_utc"):
    return None
  start, end = (datetime.datetime.fromisoformat(sessions[0][key])
                for key in ("started_utc", "finished_utc"))
  return (end - start).total_seconds()


def _experiment_costs(name: str, output_dir: Path, workers: int):
  """(the experiment's totals, its seconds per iteration by game|algorithm)
  from its finished units."""
  folder = output_dir / name
  settings = stored_settings(folder)
  totals = {"solver_seconds": 0.0, "evaluation_seconds": 0.0}
  per_iteration: dict[str, list[float]] = {}
  for job in build_jobs(settings, name):
    done = job.store(output_dir).done_record() or {}
    if "solver_seconds" not in done:
      raise ValueError(f"{job.store(output_dir).folder} did not record its "
                       "time: run it again with this version")
    spent = done["solver_seconds"] + done["evaluation_seconds"]
    totals["solver_seconds"] += done["solver_seconds"]
    totals["evaluation_seconds"] += done["evaluation_seconds"]
    key = f"{job.unit.game}|{job.unit.algorithm}"
    per_iteration.setdefault(key, []).append(spent /
                                             max(job.unit.iterations, 1))
  spent = totals["solver_seconds"] + totals["evaluation_seconds"]
  totals.update(workers=workers, wall_seconds=spent / workers,
                evaluation_share=totals["evaluation_seconds"] / spent
                if spent else 0.0)
  return totals, {key: sum(values) / len(values)
                  for key, values in per_iteration.items()}


def _write(experiment_seconds, seconds_per_iteration, machine) -> str:
  rounded = {name: {scale: {key: (round(value, 4)
                                  if isinstance(value, float) else value)
                            for key, value in entry.items()}
                    for scale, entry in scales.items()}
             for name, scales in experiment_seconds.items()}
  per_iteration = {name: {key: float(f"{value:.4g}")
                          for key, value in sorted(table.items())}
                   for name, table in seconds_per_iteration.items()}
  return (_HEADER + f"\nMACHINE = {machine!r}\n\n"
          "# {experiment: {scale: {\"wall_seconds\", \"workers\", "
          "\"evaluation_share\",\n#  \"solver_seconds\", "
          "\"evaluation_seconds\"}}}\n"
          "EXPERIMENT_SECONDS: dict[str, dict[str, dict[str, float]]] = "
          f"{pprint.pformat(rounded, width=72)}\n\n"
          "# {experiment: {\"game|algorithm\": seconds per iteration, "
          "evaluation\n#  included}}\n"
          "SECONDS_PER_ITERATION: dict[str, dict[str, float]] = "
          f"{pprint.pformat(per_iteration, width=72)}\n")


def main(argv):
  del argv
  names = [name for value in _EXPERIMENTS.value
           for name in (REPRODUCTION if value == "all" else [value])]
  unknown = sorted(set(names) - set(EXPERIMENTS))
  if unknown:
    raise app.UsageError(f"--experiments: unknown {unknown}")
  scale, workers = _SCALE.value, _WORKERS.value
  output_dir = Path(_OUTPUT_DIR.value)
  if _FROM_EXISTING.value:
    walls = [_manifest_wall_seconds(output_dir / name) for name in names]
    wall = None if None in walls else max(walls)
  else:
    wall = _run(names, scale, workers, str(output_dir))
  experiment_seconds = {name: dict(scales) for name, scales in
                        measured_costs.EXPERIMENT_SECONDS.items()}
  seconds_per_iteration = dict(measured_costs.SECONDS_PER_ITERATION)
  pooled = {"solver_seconds": 0.0, "evaluation_seconds": 0.0}
  for name in names:
    totals, per_iteration = _experiment_costs(name, output_dir, workers)
    experiment_seconds.setdefault(name, {})[scale] = totals
    # Paper-scale rates stand until a new paper-scale measurement.
    if scale == "paper" or "paper" not in experiment_seconds[name]:
      seconds_per_iteration[name] = per_iteration
    for key in pooled:
      pooled[key] += totals[key]
    print(f"{name:<24} units {totals['solver_seconds'] + totals['evaluation_seconds']:9.1f} s, "
          f"evaluating {totals['evaluation_share']:6.1%}")
  spent = sum(pooled.values())
  if wall is None:
    # A resumed run: its units' seconds over the workers, as one pool would
    # take them.
    wall = spent / workers
  if sorted(names) == sorted(REPRODUCTION):
    experiment_seconds.setdefault("all", {})[scale] = dict(
        pooled, workers=workers, wall_seconds=wall,
        evaluation_share=pooled["evaluation_seconds"] / spent)
  print(f"wall time of the pool: {wall:.1f} s with --workers={workers}")
  machine = _machine() + (f"; {_NOTE.value}" if _NOTE.value else "")
  table = _write(experiment_seconds, seconds_per_iteration, machine)
  if _DRY_RUN.value:
    print(table)
  else:
    _TABLE.write_text(table)
    print(f"wrote {_TABLE}")


if __name__ == "__main__":
  app.run(main)
