"""The Ray executor: units as Ray tasks on an existing Ray cluster.

``address="auto"`` or ``"host:port"`` joins a running cluster; None starts
a local Ray instance. Workers on a cluster may not share the driver's disk,
so each task runs one checkpoint interval of one unit and returns its rows
and checkpoint (the solver's ``state_dict()``, plain data); the driver
writes them and submits the next interval with that checkpoint, from which
the task rebuilds the solver. Rows are therefore identical to the local
executor's (wall times aside).
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from spiel_ext.executors.resume import Job, resume_point
from spiel_ext.executors.units import Checkpoint, advance, next_chunk_end


class _BufferSink:
  """Collects what an interval produces, to return it to the driver."""

  def __init__(self):
    self.rows_buffer = []
    self.snapshots = []

  def rows(self, rows) -> None:
    self.rows_buffer.extend(rows)

  def snapshot(self, name, iteration, strategy) -> None:
    self.snapshots.append((name, iteration, strategy))

  def progress(self, iterations: int) -> None:
    pass


def _run_interval(job: Job, checkpoint: Checkpoint | None, until: int):
  sink = _BufferSink()
  checkpoint = advance(job.unit, checkpoint, until, job.make_solver,
                       job.metrics, sink)
  return sink.rows_buffer, sink.snapshots, checkpoint


class RayExecutor:
  """Submits one task per unit and checkpoint interval."""

  def __init__(self, address: str | None = None, num_cpus: int | None = None):
    try:
      import ray  # pylint: disable=g-import-not-at-top
    except ImportError:
      raise ValueError("--executor=ray needs Ray: pip install -e \".[ray]\"") from None
    self._ray = ray
    self._address = address
    self._num_cpus = num_cpus

  def _connect(self) -> None:
    if self._ray.is_initialized():
      return
    if self._address:
      self._ray.init(address=self._address, log_to_driver=False)
    else:
      # A new local instance, even where a cluster is running (joining one
      # takes --ray_address).
      self._ray.init(address="local", num_cpus=self._num_cpus,
                     include_dashboard=False, log_to_driver=False)

  def run(self, jobs: list[Job], output_dir: str | Path, checkpoint_every: int,
          on_iterations: Callable[..., None],
          on_unit_done: Callable[[str], None]) -> None:
    self._connect()
    remote = self._ray.remote(_run_interval)
    pending = {}
    plans = {}
    for job in jobs:
      store = job.store(output_dir)
      done, checkpoint = resume_point(store, job.unit.iterations)
      if done:
        on_iterations(job.unit.unit_id, job.unit.iterations, True)
        on_unit_done(job.unit.unit_id)
        continue
      start = 0 if checkpoint is None else checkpoint.iteration
      if start:
        on_iterations(job.unit.unit_id, start, True)
      plans[job.unit.unit_id] = (job, store, start)
      end = next_chunk_end(start, job.unit.iterations,
                           job.checkpoint_interval(checkpoint_every))
      pending[remote.remote(job, checkpoint, end)] = job.unit.unit_id
    while pending:
      ready, _ = self._ray.wait(list(pending), num_returns=1)
      unit_id = pending.pop(ready[0])
      rows, snapshots, checkpoint = self._ray.get(ready[0])
      job, store, previous = plans[unit_id]
      store.append(rows)
      for name, iteration, strategy in snapshots:
        store.save_snapshot(name, iteration, strategy)
      store.save_checkpoint(checkpoint.as_dict())
      on_iterations(unit_id, checkpoint.iteration - previous)
      if checkpoint.iteration < job.unit.iterations:
        plans[unit_id] = (job, store, checkpoint.iteration)
        end = next_chunk_end(checkpoint.iteration, job.unit.iterations,
                             job.checkpoint_interval(checkpoint_every))
        pending[remote.remote(job, checkpoint, end)] = unit_id
      else:
        store.mark_done(checkpoint.seconds())
        on_unit_done(unit_id)
