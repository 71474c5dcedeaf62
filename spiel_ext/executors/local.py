"""The local executor: units in ``workers`` processes on this machine.

Each worker writes its unit's rows at every evaluation point and its
checkpoints itself, so a killed run loses at most the evaluation point in
progress. With one worker the units run in this process.

Workers die with the runner: on Linux the kernel kills them when it exits
(``PR_SET_PDEATHSIG``), and everywhere a worker checks that its runner is
alive before each write. A worker orphaned by a kill -9 of the runner alone
would otherwise go on writing to a folder whose lock nobody holds, beside
the next ``--resume``. The runner starts no other process that could
outlive it: progress and the count of running units reach the workers
through a queue and a shared integer they inherit (no manager process), and
multiprocessing's resource tracker exits once the runner and its workers,
which hold its pipe, are gone.
"""

from __future__ import annotations

import concurrent.futures
import ctypes
import functools
import multiprocessing
import os
import queue
import signal
import threading
from pathlib import Path
from typing import Any, Callable

from spiel_ext.engine import threads as engine_threads
from spiel_ext.executors.resume import Job, resume_point
from spiel_ext.executors.units import advance, chunk_ends
from spiel_ext.results.store import UnitStore


_PR_SET_PDEATHSIG = 1


def _die_with_runner(runner_pid: int) -> None:
  """Worker initializer: the kernel kills this worker when the runner exits
  (Linux); a worker whose runner is already gone exits at once."""
  try:
    ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG,
                                            signal.SIGKILL)
  except (OSError, AttributeError):
    pass  # Not Linux: the check before each write still holds.
  _check_runner(runner_pid)


# In a worker: (the machine's cores, the runner's count of the units still
# running, a shared multiprocessing Value); None in the runner's own process.
_pool_state: tuple[int, Any] | None = None
# In a worker: the queue its progress goes to the runner by.
_progress_queue: Any = None


def _start_worker(runner_pid: int, threads: int, running: Any = None,
                  progress_queue: Any = None) -> None:
  """Worker initializer: dies with the runner, and runs the engine's
  passes on ``threads`` threads (its share of the cores); given the
  runner's count of units ``running``, on its share among those units
  before each checkpoint interval (:func:`_share_cores`). The shared
  ``running`` and ``progress_queue`` come here because a worker can only
  inherit them, not receive them with a task."""
  global _pool_state, _progress_queue
  _die_with_runner(runner_pid)
  engine_threads.set_num_threads(min(threads, engine_threads.max_threads()))
  if running is not None:
    _pool_state = (engine_threads.machine_cores(), running)
  _progress_queue = progress_queue


def _share_cores() -> None:
  """In a worker, sets the engine's threads to this worker's share of the
  cores among the units still running: once fewer units than workers are
  left, the idle cores go to those that remain (a unit's results do not
  depend on its thread count). Called before each checkpoint interval."""
  if _pool_state is None:
    return
  cores, running = _pool_state
  units = running.value
  threads = engine_threads.threads_per_worker(units, cores)
  engine_threads.set_num_threads(min(threads, engine_threads.max_threads()))


def _check_runner(runner_pid: int | None) -> None:
  """Exits this worker, writing nothing more, if its runner has died."""
  if runner_pid is not None and os.getppid() != runner_pid:
    os._exit(1)  # pylint: disable=protected-access


class _StoreSink:
  """Writes rows and snapshots straight to the unit's folder."""

  def __init__(self, store: UnitStore, progress: Callable[[int], None] | None,
               runner_pid: int | None = None):
    self._store = store
    self._progress = progress
    self._runner_pid = runner_pid

  def rows(self, rows) -> None:
    _check_runner(self._runner_pid)
    self._store.append(rows)

  def snapshot(self, name, iteration, strategy) -> None:
    _check_runner(self._runner_pid)
    self._store.save_snapshot(name, iteration, strategy)

  def progress(self, iterations: int) -> None:
    if self._progress is not None:
      self._progress(iterations)


def run_job(job: Job, output_dir: str, checkpoint_every: int,
            progress: Callable[..., None] | None,
            runner_pid: int | None = None) -> str:
  """Runs (or resumes) one unit to the end; returns its id. In a worker,
  ``runner_pid`` is the runner's: the worker writes only while it lives."""
  _check_runner(runner_pid)
  store = job.store(output_dir)
  done, checkpoint = resume_point(store, job.unit.iterations)
  if done:
    if progress is not None:
      progress(job.unit.iterations, True)
    return job.unit.unit_id
  start = 0 if checkpoint is None else checkpoint.iteration
  if progress is not None and start:
    progress(start, True)
  sink = _StoreSink(store, progress, runner_pid)
  for end in chunk_ends(start, job.unit.iterations,
                        job.checkpoint_interval(checkpoint_every)):
    _share_cores()
    checkpoint = advance(job.unit, checkpoint, end, job.make_solver,
                         job.metrics, sink)
    _check_runner(runner_pid)
    store.save_checkpoint(checkpoint.as_dict())
  _check_runner(runner_pid)
  store.mark_done(None if checkpoint is None else checkpoint.seconds())
  return job.unit.unit_id


def _run_in_worker(job: Job, output_dir: str, checkpoint_every: int,
                   runner_pid: int) -> str:
  def progress(count: int, resumed: bool = False) -> None:
    _check_runner(runner_pid)
    _progress_queue.put((job.unit.unit_id, count, resumed))
  return run_job(job, output_dir, checkpoint_every, progress, runner_pid)


class LocalExecutor:
  """Runs jobs in up to ``workers`` processes; each process's passes use
  its share of the cores (cores // workers threads, at least one)."""

  def __init__(self, workers: int = 1):
    self.workers = workers

  def run(self, jobs: list[Job], output_dir: str | Path, checkpoint_every: int,
          on_iterations: Callable[..., None],
          on_unit_done: Callable[[str], None]) -> None:
    """Runs every job, in the order given, to its end.

    Args:
      jobs: the units to run (finished ones are skipped, unfinished ones
        resumed).
      output_dir: the folder their run folders are in.
      checkpoint_every: iterations between checkpoints.
      on_iterations: called with (unit id, iterations done since its last
        call, True for iterations found done on disk).
      on_unit_done: called with the unit id when a unit finishes.
    """
    output_dir = str(output_dir)
    if self.workers <= 1 or len(jobs) <= 1:
      for job in jobs:
        on_unit_done(run_job(
            job, output_dir, checkpoint_every,
            functools.partial(on_iterations, job.unit.unit_id)))
      return
    context = multiprocessing.get_context("spawn")
    progress_queue = context.Queue()
    # No lock: one writer (the runner) and a word-sized integer; a worker
    # killed while holding a lock would block the runner.
    running = context.Value("i", min(self.workers, len(jobs)), lock=False)
    finished = threading.Event()

    def drain() -> None:
      while not finished.is_set():
        try:
          unit_id, count, resumed = progress_queue.get(timeout=0.1)
        except queue.Empty:
          continue
        on_iterations(unit_id, count, resumed)
      # The workers have exited: what they put is all in the pipe.
      while True:
        try:
          unit_id, count, resumed = progress_queue.get(timeout=0.1)
        except queue.Empty:
          return
        on_iterations(unit_id, count, resumed)

    drainer = threading.Thread(target=drain, daemon=True)
    drainer.start()
    try:
      runner_pid = os.getpid()
      with concurrent.futures.ProcessPoolExecutor(
          max_workers=self.workers, mp_context=context,
          initializer=_start_worker,
          initargs=(runner_pid,
                    engine_threads.threads_per_worker(self.workers),
                    running, progress_queue)
      ) as pool:
        futures = [pool.submit(_run_in_worker, job, output_dir,
                               checkpoint_every, runner_pid)
                   for job in jobs]
        left = len(futures)
        for future in concurrent.futures.as_completed(futures):
          left -= 1
          running.value = max(1, min(self.workers, left))
          on_unit_done(future.result())
    finally:
      finished.set()
      drainer.join()
      progress_queue.close()
      progress_queue.join_thread()
