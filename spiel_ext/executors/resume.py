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
  functions or functools.partial of them)."""
  unit: WorkUnit
  make_solver: Callable[..., Any]
  metrics: dict[str, Callable[[Any, Any], float]]


def unit_store(output_dir: str | Path, unit: WorkUnit) -> UnitStore:
  return UnitStore(Path(output_dir) / "units" / unit.unit_id)


def resume_point(store: UnitStore) -> tuple[bool, Checkpoint | None]:
  """(done, checkpoint) for a unit, repairing its files for a restart."""
  if store.is_done():
    return True, None
  try:
    if store.done_path.exists():
      raise CorruptUnit("its rows do not match the finished unit's checksum")
    data = store.load_checkpoint()
    if data is None:
      store.reset()
      return False, None
    checkpoint = Checkpoint.from_dict(data)
    store.truncate_after(checkpoint.iteration)
    return False, checkpoint
  except (CorruptUnit, KeyError, TypeError, ValueError) as error:
    warnings.warn(f"{store.folder}: corrupt unit files ({error}); running "
                  "the unit again from the start.")
    store.reset()
    return False, None
