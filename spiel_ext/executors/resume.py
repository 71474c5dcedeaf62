"""Where a unit stands on disk: finished, resumable from a checkpoint, or new.

Shared by every executor so that resuming behaves the same everywhere:
finished units are never recomputed, rows past the last checkpoint are
dropped (they are recomputed identically), and a unit whose files are
corrupt is run again from scratch with a warning.
"""

from __future__ import annotations

import dataclasses
import warnings
from pathlib import Path
from typing import Any, Callable

from spiel_ext.executors.units import Checkpoint, WorkUnit
from spiel_ext.results.store import CorruptUnit, UnitStore


@dataclasses.dataclass(frozen=True)
class Job:
  """A unit with the functions that run it (picklable: module-level
  functions or functools.partial of them).

  Attributes:
    unit: what to run.
    make_solver: builds the unit's solver.
    metrics: the metric functions by name.
    resumable: False for a solver that cannot continue exactly from its
      ``state_dict()`` (OpenSpiel's C++ CFR+): its unit runs in one go,
      checkpointed only at its end.
    folder: the unit's run folder, relative to the output folder an
      executor is given ("": that folder itself); one pool of units from
      several experiments puts each under its experiment's folder.
  """
  unit: WorkUnit
  make_solver: Callable[..., Any]
  metrics: dict[str, Callable[[Any, Any], float]]
  resumable: bool = True
  folder: str = ""

  def store(self, output_dir: str | Path) -> UnitStore:
    """The store of this job's unit under ``output_dir``."""
    return unit_store(Path(output_dir) / self.folder, self.unit)

  def checkpoint_interval(self, checkpoint_every: int) -> int:
    """Iterations between this unit's checkpoints: ``checkpoint_every``,
    or the whole unit when it is not resumable."""
    return checkpoint_every if self.resumable else max(self.unit.iterations,
                                                       1)


def unit_store(output_dir: str | Path, unit: WorkUnit) -> UnitStore:
  """The store of ``unit``'s rows and checkpoints in a run folder (no
  symbolic link below which is followed)."""
  return UnitStore(Path(output_dir) / "units" / unit.unit_id,
                   inside=output_dir)


def resume_point(store: UnitStore,
                 iterations: int) -> tuple[bool, Checkpoint | None]:
  """(done, checkpoint) for a unit of ``iterations`` iterations, repairing
  its files for a restart.

  A finished unit whose rows and snapshots are exactly those it finished
  with is done. An unfinished one continues from its checkpoint when every
  row and snapshot the checkpoint recorded is on disk unchanged; lines
  after those rows are dropped (they are recomputed identically). Otherwise
  (rows or snapshots missing, edited, duplicated or foreign, a checkpoint
  past the unit's end, or files that cannot be read) the unit runs again
  from the start, with a warning saying what was wrong.
  """
  if store.is_done():
    return True, None
  try:
    if store.done_path.exists():
      raise CorruptUnit(store.done_problem() or "its done.json is damaged")
    data = store.load_checkpoint()
    if data is None:
      store.reset()
      return False, None
    checkpoint = Checkpoint.from_dict(data)
    if not 0 <= checkpoint.iteration <= iterations:
      raise CorruptUnit(f"its checkpoint is at iteration "
                        f"{checkpoint.iteration}, outside 0..{iterations}")
    problem = store.checkpoint_problem(data)
    if problem:
      raise CorruptUnit(problem)
    store.keep_rows(data["rows"])
    return False, checkpoint
  except (CorruptUnit, KeyError, TypeError, ValueError) as error:
    warnings.warn(f"unit {store.unit_id}: {error}; running the unit again "
                  "from the start.")
    store.reset()
    return False, None
