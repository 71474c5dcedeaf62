"""Running an experiment: its work units, a check of every (game,
algorithm) before the folder is touched, the run itself (resuming what is on
disk) and its snapshots."""

from __future__ import annotations

import contextlib
import functools
import json
import logging
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from spiel_ext.executors import Job, WorkUnit, run_jobs, unit_store
from spiel_ext.executors.units import measure
from spiel_ext.experiments.costs import (FINISHING_SECONDS, evaluation_share,
                                         seconds_per_iteration, unit_seconds,
                                         units_time)
from spiel_ext.experiments.declaration import Experiment, Outputs, Settings
from spiel_ext.experiments.entries import ALGORITHMS
from spiel_ext.experiments.metrics import metric_function
from spiel_ext.experiments.run_folder import prepare_folder
from spiel_ext.experiments.settings import evaluation_points, iteration_cap
from spiel_ext.results.lock import RunLock
from spiel_ext.results.manifest import (read_manifest, session_record, utc_now,
                                        write_manifest)
from spiel_ext.results.store import load_results, write_merged


def build_jobs(settings: Settings, folder: str = "") -> list[Job]:
  """One job per game x algorithm x seed (leaving out the games an
  algorithm does not apply to: ``AlgorithmEntry.requires``), each of the
  run folder ``folder`` (relative to the output folder; see ``Job``)."""
  caps = settings.iteration_caps
  cap_points = tuple(int(cap[1]) for cap in caps)
  jobs = []
  for game in settings.games:
    for algorithm in settings.algorithms:
      entry = ALGORITHMS[algorithm]
      if not entry.applies_to(game):
        continue
      iterations = iteration_cap(caps, algorithm, game, settings.iterations)
      seeds = settings.seeds if entry.seeded else 1
      for seed in range(settings.first_seed, settings.first_seed + seeds):
        unit = WorkUnit(settings.experiment, game, algorithm,
                        entry.hyperparameters, seed, iterations,
                        evaluation_points(iterations, settings.eval_every,
                                          cap_points),
                        settings.metrics,
                        tuple((name, metric, threshold) for owner, name,
                              metric, threshold in settings.snapshots
                              if owner == algorithm))
        jobs.append(Job(unit, entry.factory,
                        {name: metric_function(name) for name in settings.metrics},
                        entry.resumable, folder))
  return jobs


def load_snapshots(settings: Settings, folder: Path, name: str,
                   game: str | None = None) -> dict[str, list[np.ndarray]]:
  """{algorithm: [strategy of each seed, in seed order]} for the snapshot
  ``name`` of every unit (of ``game`` only, if given); units that never took
  it are left out."""
  policies: dict[str, list[np.ndarray]] = {}
  for job in build_jobs(settings):
    if game is not None and job.unit.game != game:
      continue
    snapshot = unit_store(folder, job.unit).load_snapshot(name)
    if snapshot is not None:
      policies.setdefault(job.unit.algorithm, []).append(snapshot[1])
  return policies


def preflight(jobs: Sequence[Job]) -> None:
  """Builds each (game, algorithm) once and measures its metrics on the
  starting policy, so that a value only a solver can refuse (a game too
  large to compile, an algorithm that needs another kind of game, a metric
  the game lacks) is refused before the run folder is touched.

  Raises:
    ValueError: naming the algorithm, the game and what was wrong.
  """
  seen = set()
  for job in jobs:
    unit = job.unit
    key = (unit.game, unit.algorithm, unit.hyperparameters)
    if key in seen:
      continue
    seen.add(key)
    try:
      solver = job.make_solver(unit.game, seed=unit.seed,
                               **dict(unit.hyperparameters))
      measure(unit, job.metrics, solver.average_policy())
    except (ValueError, TypeError, ImportError, MemoryError) as error:
      raise ValueError(f"{unit.algorithm} on {unit.game}: {error}") from None


def start_session(folder: Path, settings: Settings, jobs: Sequence[Job],
                  resume: bool) -> dict[str, Any]:
  """Writes the manifest with this run's units and a new session."""
  manifest = None
  if resume:
    try:
      manifest = read_manifest(folder)
    except ValueError as error:
      logging.warning("%s; writing a new one.", error)
  sessions = list(manifest.get("sessions", [])) if manifest else []
  sessions.append(session_record(resumed=resume))
  manifest = {"experiment": settings.experiment,
              "settings": json.loads(settings.as_json()),
              "units": [job.unit.unit_id for job in jobs],
              "sessions": sessions}
  write_manifest(folder, manifest)
  return manifest


def run_experiment(experiment: Experiment, settings: Settings,
                   output_dir: str | Path, executor: Any, *,
                   checkpoint_every: int = 1000, resume: bool = False,
                   overwrite: bool = False, quiet: bool = False,
                   check_first: bool = True) -> Outputs:
  """Runs (or resumes) an experiment and writes its figures and tables.

  The run folder is locked for the whole run (:class:`RunLock`); its
  manifest lists the run's units and records this session. With
  ``check_first`` (a caller that ran :func:`preflight` itself passes False)
  each (game, algorithm) is built once before the folder is touched.

  Raises:
    FolderLocked: another process is writing to the folder.
    ValueError: a value a solver refuses (see :func:`preflight`), or the
      folder holds another run (see :func:`prepare_folder`).
    OutputError: a file could not be written (names the path).
  """
  return run_experiments([(experiment, settings)], output_dir, executor,
                         checkpoint_every=checkpoint_every, resume=resume,
                         overwrite=overwrite, quiet=quiet,
                         check_first=check_first)[0]


def run_experiments(plans: Sequence[tuple[Experiment, Settings]],
                    output_dir: str | Path, executor: Any, *,
                    checkpoint_every: int = 1000, resume: bool = False,
                    overwrite: bool = False, quiet: bool = False,
                    check_first: bool = True) -> list[Outputs]:
  """Runs (or resumes) several experiments' units in one pool, then writes
  each one's figures and tables.

  Every run folder (``<output_dir>/<experiment>``) is locked and prepared
  first, as :func:`run_experiment` does for one. The units of all the
  experiments then go to ``executor`` together, the most costly first (by
  the measured seconds per iteration of :mod:`.costs`), so that the
  workers stay busy to the end; progress counts those seconds, and the
  finishing steps' (:data:`.costs.FINISHING_SECONDS` each).

  Args:
    plans: the experiments with their checked settings.
    output_dir: the folder the run folders go in.
    executor: what runs the units (``spiel_ext.executors.make_executor``).
    checkpoint_every: iterations between a unit's checkpoints.
    resume: continue the runs in the folders.
    overwrite: replace the runs in the folders.
    quiet: report no progress.
    check_first: run :func:`preflight` before any folder is touched.

  Returns:
    Each experiment's outputs, in the order of ``plans``.

  Raises:
    FolderLocked, ValueError, OutputError: as :func:`run_experiment`;
      ValueError also when the executor's cluster does not answer
      (``RayExecutor.check``), before any folder is touched.
  """
  # An executor that joins a cluster checks it answers before any folder
  # is touched.
  check_executor = getattr(executor, "check", None)
  if check_executor is not None:
    check_executor()
  planned = [(experiment, settings, build_jobs(settings, experiment.name))
             for experiment, settings in plans]
  if check_first:
    for _, _, jobs in planned:
      preflight(jobs)
  with contextlib.ExitStack() as locks:
    opened = []
    for experiment, settings, jobs in planned:
      folder = Path(output_dir) / experiment.name
      locks.enter_context(RunLock(folder))
      opened.append(_open_run(experiment.name, folder, settings, jobs,
                              resume, overwrite))
    pool = sorted((job for _, _, jobs in planned for job in jobs),
                  key=unit_seconds, reverse=True)
    # Finishing runs in this process alone, while the units' work (in
    # one core's seconds) is shared by the workers: in the progress's
    # unit it weighs the workers' count.
    finishing_work = FINISHING_SECONDS * getattr(executor, "workers", 1)
    return run_jobs(
        pool, output_dir, executor, checkpoint_every, quiet,
        label=" + ".join(experiment.name for experiment, _ in plans),
        seconds_per_iteration=seconds_per_iteration,
        finishing=[(finishing_work, functools.partial(
            _close_run, experiment, Path(output_dir) / experiment.name,
            settings, jobs, run))
                   for (experiment, settings, jobs), run in zip(planned,
                                                                 opened)])


def _open_run(name: str, folder: Path, settings: Settings,
              jobs: Sequence[Job], resume: bool,
              overwrite: bool) -> tuple[dict[str, Any], int]:
  """Prepares a locked run folder and records the session; returns the
  manifest and the number of units finished before."""
  prepare_folder(folder, settings, resume, overwrite)
  manifest = start_session(folder, settings, jobs, resume)
  already_done = sum(job.store(folder.parent).is_done() for job in jobs)
  logging.info("%s: %d work units (%d finished before), results in %s",
               name, len(jobs), already_done, folder)
  return manifest, already_done


def _close_run(experiment: Experiment, folder: Path, settings: Settings,
               jobs: Sequence[Job], opened: tuple[dict[str, Any], int]
               ) -> Outputs:
  """Records the session's end and the units' time, merges the results and
  writes the figures and tables."""
  manifest, already_done = opened
  session = manifest["sessions"][-1]
  session["finished_utc"] = utc_now()
  session["unit_seconds"] = units_time(folder, jobs)
  write_manifest(folder, manifest)
  frame = load_results(folder)
  results = list(write_merged(folder, frame))
  figures, tables = experiment.summarize(frame, settings, folder)
  return Outputs(results, figures, tables, folder, len(jobs), already_done,
                 evaluation_share(session["unit_seconds"]))


def command_for(settings: Settings) -> str:
  """The command that regenerates a run with these settings."""
  return (f"python run_experiments.py --experiment={settings.experiment} "
          f"--scale={settings.scale}")
