"""How many threads the engine's passes use, and on which trees.

The passes of a large tree run on every core numba is given: a tree of at
least :data:`PARALLEL_MIN_HISTORIES` histories is cut once into blocks
(disjoint subtrees, see :func:`spiel_ext.engine.schedules.parallel_blocks`)
that threads walk independently; what several blocks add into one sum is
added afterwards, per infoset, in one fixed order. The blocks do not depend
on the thread count, so the results are bit-identical for any number of
threads, and equal to those of the serial passes smaller trees run.

The thread count is numba's: ``NUMBA_NUM_THREADS`` (read when numba is
imported, default: the machine's cores) caps it, and
:func:`set_num_threads` (numba's ``numba.set_num_threads``, checked) lowers
it for the process. The runner gives each of its ``--workers`` processes
its share of the cores.
"""

from __future__ import annotations

import concurrent.futures
import os
import threading
import types
from typing import Callable, Sequence, TypeVar

import numba

T = TypeVar("T")

__all__ = ["PARALLEL_MIN_HISTORIES", "get_num_threads", "machine_cores",
           "map_serial_kernels", "max_threads", "set_num_threads",
           "threads_per_worker"]

_MIN_HISTORIES_ENV = "SPIEL_EXT_PARALLEL_MIN_HISTORIES"


def _min_histories_from_env() -> int:
  text = os.environ.get(_MIN_HISTORIES_ENV, "").strip()
  if not text:
    return 200_000
  try:
    value = int(text)
  except ValueError:
    value = -1
  if value < 0:
    raise ValueError(f"{_MIN_HISTORIES_ENV} must be a non-negative integer "
                     f"(histories); got {text!r}.")
  return value


# Trees with fewer histories run the serial passes: below this, starting
# threads costs more than it saves (leduc_poker's 9,457 histories take
# about 50 microseconds a pass). Set SPIEL_EXT_PARALLEL_MIN_HISTORIES=0 to
# send every tree through the block passes (what the tests do to check
# them on small games).
PARALLEL_MIN_HISTORIES = _min_histories_from_env()


def max_threads() -> int:
  """The most threads the passes can use: ``NUMBA_NUM_THREADS``."""
  return int(numba.config.NUMBA_NUM_THREADS)


def get_num_threads() -> int:
  """The number of threads the passes use now."""
  return int(numba.get_num_threads())


def set_num_threads(threads: int) -> None:
  """Sets the number of threads the passes use (numba's, process-wide for
  the calling thread).

  Raises:
    ValueError: ``threads`` is not an integer from 1 to
      ``NUMBA_NUM_THREADS``.
  """
  limit = max_threads()
  if (isinstance(threads, bool) or not isinstance(threads, int) or
      not 1 <= threads <= limit):
    raise ValueError(f"threads must be an integer from 1 to {limit} "
                     f"(NUMBA_NUM_THREADS); got {threads!r}.")
  numba.set_num_threads(threads)


def machine_cores() -> int:
  """The cores this process may run on."""
  return (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
          else os.cpu_count() or 1)


def threads_per_worker(workers: int, cores: int | None = None) -> int:
  """Each of ``workers`` processes' share of the machine's cores (at least
  one thread each)."""
  if cores is None:
    cores = machine_cores()
  return max(1, cores // max(1, workers))


_pool: concurrent.futures.ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def map_serial_kernels(function: Callable[[int], T], items: Sequence[int],
                       num_histories: int) -> list[T]:
  """``[function(item) for item in items]``, the calls on up to
  :func:`get_num_threads` threads for a tree of ``num_histories`` at or
  above :data:`PARALLEL_MIN_HISTORIES`.

  For independent calls of serial kernels that release the GIL (one best
  response per player): each call's result is what it would be alone, so
  the list is the same for any thread count. ``function`` must not run a
  parallel kernel (numba's default threading layer runs one at a time).
  """
  count = min(len(items), get_num_threads())
  if count <= 1 or num_histories < PARALLEL_MIN_HISTORIES:
    return [function(item) for item in items]
  global _pool
  with _pool_lock:
    if _pool is None:
      _pool = concurrent.futures.ThreadPoolExecutor(
          max_workers=max_threads(), thread_name_prefix="spiel_ext")
  return list(_pool.map(function, items))


def serial_copy(function: Callable) -> Callable:
  """``function`` under another name, to compile a prange kernel a second
  time for the calling thread alone (numba's disk cache files a function
  by name and bytecode, not by its flags).

  Args:
    function: a plain Python function (not yet jitted).

  Returns:
    The same code as a new function named ``<name>_serial``.
  """
  copy = types.FunctionType(function.__code__, function.__globals__,
                            function.__name__ + "_serial")
  copy.__qualname__ = function.__qualname__ + "_serial"
  return copy
