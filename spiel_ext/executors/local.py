"""The local executor: units in ``workers`` processes on this machine.

Each worker writes its unit's rows at every evaluation point and its
checkpoints itself, so a killed run loses at most the evaluation point in
progress. With one worker the units run in this process.
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import queue
import threading
from pathlib import Path
from typing import Callable

from spiel_ext.executors.resume import Job, resume_point, unit_store
from spiel_ext.executors.units import advance, chunk_ends
from spiel_ext.results.store import UnitStore


class _StoreSink:
  """Writes rows and snapshots straight to the unit's folder."""

  def __init__(self, store: UnitStore, progress: Callable[[int], None] | None):
    self._store = store
    self._progress = progress

  def rows(self, rows) -> None:
    self._store.append(rows)

  def snapshot(self, name, iteration, strategy) -> None:
    self._store.save_snapshot(name, iteration, strategy)

  def progress(self, iterations: int) -> None:
    if self._progress is not None:
      self._progress(iterations)


def run_job(job: Job, output_dir: str, checkpoint_every: int,
            progress: Callable[[int], None] | None) -> str:
  """Runs (or resumes) one unit to the end; returns its id."""
  store = unit_store(output_dir, job.unit)
  done, checkpoint = resume_point(store)
  if done:
    if progress is not None:
      progress(job.unit.iterations)
    return job.unit.unit_id
  start = 0 if checkpoint is None else checkpoint.iteration
  if progress is not None and start:
    progress(start)
  sink = _StoreSink(store, progress)
  for end in chunk_ends(start, job.unit.iterations, checkpoint_every):
    checkpoint = advance(job.unit, checkpoint, end, job.make_solver,
                         job.metrics, sink)
    store.save_checkpoint(checkpoint.as_dict())
  store.mark_done()
  return job.unit.unit_id


def _run_in_worker(job: Job, output_dir: str, checkpoint_every: int,
                   progress_queue) -> str:
  def progress(count: int) -> None:
    progress_queue.put((job.unit.unit_id, count))
  return run_job(job, output_dir, checkpoint_every, progress)


class LocalExecutor:
  """Runs jobs in up to ``workers`` processes."""

  def __init__(self, workers: int = 1):
    self.workers = workers

  def run(self, jobs: list[Job], output_dir: str | Path, checkpoint_every: int,
          on_iterations: Callable[[int], None],
          on_unit_done: Callable[[str], None]) -> None:
    output_dir = str(output_dir)
    if self.workers <= 1 or len(jobs) <= 1:
      for job in jobs:
        on_unit_done(run_job(job, output_dir, checkpoint_every,
                             on_iterations))
      return
    context = multiprocessing.get_context("spawn")
    with context.Manager() as manager:
      progress_queue = manager.Queue()
      finished = threading.Event()

      def drain() -> None:
        while not finished.is_set() or not progress_queue.empty():
          try:
            _, count = progress_queue.get(timeout=0.1)
          except queue.Empty:
            continue
          on_iterations(count)

      drainer = threading.Thread(target=drain, daemon=True)
      drainer.start()
      try:
        with concurrent.futures.ProcessPoolExecutor(
            max_workers=self.workers, mp_context=context) as pool:
          futures = [pool.submit(_run_in_worker, job, output_dir,
                                 checkpoint_every, progress_queue)
                     for job in jobs]
          for future in concurrent.futures.as_completed(futures):
            on_unit_done(future.result())
      finally:
        finished.set()
        drainer.join()
