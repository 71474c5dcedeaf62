"""The Ray executor: units as Ray tasks on an existing Ray cluster.

``address="auto"`` or ``"host:port"`` joins a running cluster; None starts
a local Ray instance. Workers on a cluster may not share the driver's disk,
so each task runs one checkpoint interval of one unit and returns its rows
and checkpoint (the solver's ``state_dict()``, plain data); the driver
writes them and submits the next interval with that checkpoint, from which
the task rebuilds the solver. Rows are therefore identical to the local
executor's (wall times aside).

A cluster's address is checked before a run writes anything
(:meth:`RayExecutor.check`: a TCP connection with a timeout of a few
seconds); joining an unreachable one would otherwise wait for minutes.
"""

from __future__ import annotations

import os
import socket
from pathlib import Path
from typing import Callable

from spiel_ext.executors.resume import Job, resume_point
from spiel_ext.executors.units import Checkpoint, advance, next_chunk_end


# Seconds to wait for a cluster's address to accept a connection.
CONNECT_TIMEOUT = 5.0


def _host_and_port(address: str) -> tuple[str, int]:
  """(host, port) of "host:port" or "ray://host:port"; ValueError naming
  --ray_address otherwise."""
  bare = address[len("ray://"):] if address.startswith("ray://") else address
  host, colon, port = bare.rpartition(":")
  host = host.strip("[]")
  if not colon or not host or not port.isdigit() or not 0 < int(port) < 65536:
    raise ValueError(f"--ray_address={address} is not an address of a Ray "
                     "cluster: give host:port, ray://host:port, auto or "
                     "local.")
  return host, int(port)


def _auto_address() -> str:
  """The address "auto" stands for, found as Ray finds it (RAY_ADDRESS,
  then the cluster last started on this machine); ValueError if none."""
  try:
    from ray._private import services  # pylint: disable=g-import-not-at-top
    address = services.canonicalize_bootstrap_address("auto")
  except ConnectionError:
    address = None
  except (ImportError, AttributeError):
    # Ray's internals moved: leave finding the cluster to ray.init.
    return os.environ.get("RAY_ADDRESS") or "auto"
  if not address:
    raise ValueError("--ray_address=auto: no running Ray cluster found on "
                     "this machine (start one with `ray start --head`, or "
                     "give its host:port).")
  return address


def check_address(address: str | None,
                  timeout: float = CONNECT_TIMEOUT) -> None:
  """Checks that the Ray cluster at ``address`` accepts a connection
  within ``timeout`` seconds. None and "local" (a new local instance)
  need no check; "auto" is the cluster Ray itself would find.

  Raises:
    ValueError: one line naming --ray_address and the address, when it is
      malformed, unknown or does not answer.
  """
  if address is None or address == "local":
    return
  given = address
  if address == "auto":
    address = _auto_address()
    if address == "auto":
      return
    given = f"auto ({address})"
  host, port = _host_and_port(address)
  try:
    with socket.create_connection((host, port), timeout=timeout):
      pass
  except OSError as error:
    reason = ("no answer within "
              f"{timeout:g} s" if isinstance(error, TimeoutError) else
              error.strerror or str(error))
    raise ValueError(f"--ray_address={given}: cannot reach a Ray cluster "
                     f"there ({reason}); check that it is running and the "
                     "address is its host:port.") from None


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

  def check(self) -> None:
    """Checks, before a run touches its folder, that the cluster to join
    answers (see :func:`check_address`); ValueError if it does not."""
    check_address(self._address)

  def _connect(self) -> None:
    if self._ray.is_initialized():
      return
    if self._address:
      self.check()
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
