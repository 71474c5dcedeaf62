"""Executors run work units: ``local`` (processes here) or ``ray`` (a cluster).

Both share one interface, ``run(jobs, output_dir, checkpoint_every,
on_iterations, on_unit_done)``, and produce the same rows for the same
seeds. :func:`run_jobs` adds the progress report.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Sequence

from spiel_ext.executors.local import LocalExecutor
from spiel_ext.executors.progress import progress_reporters
from spiel_ext.executors.ray_cluster import RayExecutor
from spiel_ext.executors.resume import Job, unit_store
from spiel_ext.executors.units import WorkUnit

EXECUTORS = ("local", "ray")

__all__ = ["EXECUTORS", "Job", "LocalExecutor", "WorkUnit", "make_executor",
           "run_jobs", "unit_store"]


def make_executor(name: str, workers: int = 1, ray_address: str | None = None):
  """The executor called ``name``.

  Args:
    name: "local" (processes on this machine) or "ray" (Ray tasks; Ray
      itself is imported when the executor is made).
    workers: the number of local processes, or of CPUs for a Ray instance
      started here.
    ray_address: a running Ray cluster to join ("auto" or "host:port"); None
      starts a local Ray instance.

  Returns:
    A ``LocalExecutor`` or a ``RayExecutor``.

  Raises:
    ValueError: ``name`` is not an executor, or Ray is not installed.
  """
  if name == "local":
    return LocalExecutor(workers)
  if name == "ray":
    return RayExecutor(ray_address,
                       num_cpus=workers if not ray_address else None)
  raise ValueError(f"executor must be one of {list(EXECUTORS)}; got {name!r}.")


def run_jobs(jobs: list[Job], output_dir: str | Path, executor,
             checkpoint_every: int, quiet: bool = False,
             label: str = "run",
             seconds_per_iteration: Callable[[WorkUnit], float] | None = None,
             finishing: Sequence[tuple[float, Callable[[], Any]]] = ()
             ) -> list[Any]:
  """Runs every job, in the order given, resuming finished and unfinished
  units from disk.

  Progress shows as bars on a terminal, a line per tenth otherwise.

  Args:
    jobs: the work units with their solver factories and metrics.
    output_dir: the folder the units' run folders are in (see
      ``Job.folder``).
    executor: what runs them (see :func:`make_executor`).
    checkpoint_every: iterations between checkpoints.
    quiet: True to report no progress.
    label: the name the progress report shows.
    seconds_per_iteration: the measured seconds an iteration of a unit
      takes, evaluation included. Given, progress counts those seconds of
      work instead of iterations, so that the time left weighs each unit's
      remaining iterations by what they cost.
    finishing: the steps that follow the units (merging the results,
      writing figures and tables), each with its estimated work in the
      progress's unit (seconds of work with ``seconds_per_iteration``,
      iterations without): progress and the time left count them.

  Returns:
    What the finishing steps returned, in their order.
  """
  weights = {job.unit.unit_id: (seconds_per_iteration(job.unit)
                                if seconds_per_iteration else 1.0)
             for job in jobs}
  units, iterations = progress_reporters(
      label, len(jobs), sum(job.unit.iterations for job in jobs), quiet,
      work=(sum(job.unit.iterations * weights[job.unit.unit_id]
                for job in jobs) if seconds_per_iteration else None),
      finishing=sum(work for work, _ in finishing))
  try:
    executor.run(jobs, output_dir, checkpoint_every,
                 on_iterations=lambda unit_id, count, resumed=False: (
                     iterations.update(count, count * weights[unit_id],
                                       resumed)),
                 on_unit_done=lambda _: units.update(1))
    results = []
    for work, step in finishing:
      results.append(step())
      iterations.finish(work)
    return results
  finally:
    iterations.close()
    units.close()
