"""Executors run work units: ``local`` (processes here) or ``ray`` (a cluster).

Both share one interface, ``run(jobs, output_dir, checkpoint_every,
on_iterations, on_unit_done)``, and produce the same rows for the same
seeds. :func:`run_jobs` adds the progress report.
"""

from __future__ import annotations

from pathlib import Path

from spiel_ext.executors.local import LocalExecutor
from spiel_ext.executors.progress import progress_reporters
from spiel_ext.executors.resume import Job, unit_store
from spiel_ext.executors.units import WorkUnit

EXECUTORS = ("local", "ray")

__all__ = ["EXECUTORS", "Job", "LocalExecutor", "WorkUnit", "make_executor",
           "run_jobs", "unit_store"]


def make_executor(name: str, workers: int = 1, ray_address: str | None = None):
  """The executor called ``name`` ("local" or "ray")."""
  if name == "local":
    return LocalExecutor(workers)
  if name == "ray":
    from spiel_ext.executors.ray_cluster import RayExecutor  # pylint: disable=g-import-not-at-top
    return RayExecutor(ray_address, num_cpus=workers if not ray_address else None)
  raise ValueError(f"executor must be one of {list(EXECUTORS)}; got {name!r}.")


def run_jobs(jobs: list[Job], output_dir: str | Path, executor,
             checkpoint_every: int, quiet: bool = False,
             label: str = "run") -> None:
  """Runs every job, resuming finished and unfinished units from disk;
  progress bars on a terminal, a line per tenth otherwise."""
  units, iterations = progress_reporters(
      label, len(jobs), sum(job.unit.iterations for job in jobs), quiet)
  try:
    executor.run(jobs, output_dir, checkpoint_every,
                 on_iterations=iterations.update,
                 on_unit_done=lambda _: units.update(1))
  finally:
    iterations.close()
    units.close()
