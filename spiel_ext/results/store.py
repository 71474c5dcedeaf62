"""The results store: one long-format table, written as runs go.

Every result is a row of :data:`COLUMNS`:

  experiment       name of the experiment (``bufp_convergence``)
  game             the full game string (``leduc_poker()``)
  algorithm        the solver's label (``CFR``, ``BUFP(EF)``)
  hyperparameters  canonical JSON of the solver's arguments (sorted keys)
  seed             the work unit's seed
  iteration        solver iterations completed at the evaluation point
  episodes         episodes played (learners that count them), else empty
  wall_time        solver seconds since the unit started (evaluation excluded)
  metric           what was measured (``nash_conv``, ``exploitability``, ...)
  value            the measurement

A run is a set of work units (one algorithm x game x hyperparameters x seed),
each with its own folder ``units/<unit id>/`` holding ``rows.csv`` (appended
and flushed at every evaluation point, so a crash loses at most the point in
progress), ``checkpoint.pkl`` (the solver's state, replaced atomically) and
``done.json`` (the row count and a checksum of the finished rows) and
``snapshot_<name>.npz`` (average strategies kept for later analysis, such
as head-to-head tables).
:func:`load_results` merges the units into one DataFrame;
:func:`write_merged` saves it as ``results.parquet`` and ``results.csv``.
"""

from __future__ import annotations

import csv
import dataclasses
import hashlib
import io
import json
import os
import pickle
import tempfile
import warnings
from pathlib import Path
from typing import Any, Iterable, Sequence

import numpy as np
import pandas as pd

COLUMNS = ("experiment", "game", "algorithm", "hyperparameters", "seed",
           "iteration", "episodes", "wall_time", "metric", "value")
_TYPES = {"experiment": str, "game": str, "algorithm": str,
          "hyperparameters": str, "seed": "int64", "iteration": "int64",
          "episodes": "Int64", "wall_time": "float64", "metric": str,
          "value": "float64"}


def canonical_json(value: Any) -> str:
  """JSON with sorted keys and no spaces: equal values, equal strings."""
  return json.dumps(value, sort_keys=True, separators=(",", ":"),
                    default=repr)


@dataclasses.dataclass(frozen=True)
class Row:
  """One measurement (see the module docstring for the fields)."""
  experiment: str
  game: str
  algorithm: str
  hyperparameters: str
  seed: int
  iteration: int
  episodes: int | None
  wall_time: float
  metric: str
  value: float

  def as_record(self) -> list[str]:
    return [self.experiment, self.game, self.algorithm, self.hyperparameters,
            str(self.seed), str(self.iteration),
            "" if self.episodes is None else str(self.episodes),
            repr(float(self.wall_time)), self.metric, repr(float(self.value))]

  @classmethod
  def from_record(cls, record: Sequence[str]) -> "Row":
    if len(record) != len(COLUMNS):
      raise ValueError(f"expected {len(COLUMNS)} fields, got {len(record)}")
    return cls(record[0], record[1], record[2], record[3], int(record[4]),
               int(record[5]), int(record[6]) if record[6] else None,
               float(record[7]), record[8], float(record[9]))


class CorruptUnit(Exception):
  """A unit's files cannot be trusted; the unit must be run again."""


def _records_checksum(lines: Iterable[str]) -> str:
  digest = hashlib.blake2b(digest_size=16)
  for line in lines:
    digest.update(line.encode())
  return digest.hexdigest()


def _atomic_write(path: Path, data: bytes) -> None:
  path.parent.mkdir(parents=True, exist_ok=True)
  with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".tmp",
                                   delete=False) as handle:
    handle.write(data)
    handle.flush()
    os.fsync(handle.fileno())
  os.replace(handle.name, path)


class UnitStore:
  """The files of one work unit under ``folder``."""

  def __init__(self, folder: str | os.PathLike):
    self.folder = Path(folder)
    self.rows_path = self.folder / "rows.csv"
    self.checkpoint_path = self.folder / "checkpoint.pkl"
    self.done_path = self.folder / "done.json"

  # ------------------------------------------------------------- reading
  def _lines(self) -> list[str]:
    """Complete lines of rows.csv; a torn last line (a crash while
    appending) is dropped from the file."""
    if not self.rows_path.exists():
      return []
    data = self.rows_path.read_bytes()
    if data and not data.endswith(b"\n"):
      keep = data.rfind(b"\n") + 1
      with open(self.rows_path, "r+b") as handle:
        handle.truncate(keep)
      data = data[:keep]
    try:
      text = data.decode("utf-8")
    except UnicodeDecodeError as error:
      raise CorruptUnit(f"{self.rows_path} is not text ({error})") from None
    return text.splitlines(keepends=True)

  def rows(self) -> list[Row]:
    """Every stored row; raises CorruptUnit on a malformed line."""
    rows = []
    for number, line in enumerate(self._lines(), 1):
      try:
        rows.append(Row.from_record(next(csv.reader([line]))))
      except (ValueError, StopIteration) as error:
        raise CorruptUnit(f"{self.rows_path}:{number}: {error}") from None
    return rows

  def is_done(self) -> bool:
    """True when the unit finished and its rows are intact."""
    if not self.done_path.exists():
      return False
    try:
      done = json.loads(self.done_path.read_text())
      lines = self._lines()
      return (done["rows"] == len(lines) and
              done["checksum"] == _records_checksum(lines))
    except (OSError, ValueError, KeyError, TypeError):
      return False

  def load_checkpoint(self) -> dict[str, Any] | None:
    """The last checkpoint ({"iteration", "state", ...}), or None."""
    if not self.checkpoint_path.exists():
      return None
    try:
      with open(self.checkpoint_path, "rb") as handle:
        checkpoint = pickle.load(handle)
      if not isinstance(checkpoint, dict) or "iteration" not in checkpoint:
        raise ValueError("not a checkpoint")
      return checkpoint
    except Exception as error:  # pylint: disable=broad-except
      raise CorruptUnit(f"{self.checkpoint_path}: {error}") from None

  # ------------------------------------------------------------- writing
  def append(self, rows: Sequence[Row]) -> None:
    """Appends rows and flushes them to disk."""
    if not rows:
      return
    self.folder.mkdir(parents=True, exist_ok=True)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    for row in rows:
      writer.writerow(row.as_record())
    with open(self.rows_path, "a", encoding="utf-8") as handle:
      handle.write(buffer.getvalue())
      handle.flush()
      os.fsync(handle.fileno())

  def save_checkpoint(self, checkpoint: dict[str, Any]) -> None:
    """Replaces the checkpoint atomically."""
    _atomic_write(self.checkpoint_path,
                  pickle.dumps(checkpoint, protocol=pickle.HIGHEST_PROTOCOL))

  def truncate_after(self, iteration: int) -> None:
    """Drops rows past ``iteration`` (they are recomputed on resume)."""
    lines = self._lines()
    keep = [line for line, row in zip(lines, self.rows())
            if row.iteration <= iteration]
    if len(keep) != len(lines):
      _atomic_write(self.rows_path, "".join(keep).encode("utf-8"))

  def mark_done(self) -> None:
    lines = self._lines()
    _atomic_write(self.done_path, canonical_json(
        {"rows": len(lines), "checksum": _records_checksum(lines)}).encode())
    try:
      self.checkpoint_path.unlink()
    except FileNotFoundError:
      pass

  def save_snapshot(self, name: str, iteration: int,
                    strategy: np.ndarray) -> None:
    """Keeps an average strategy as ``snapshot_<name>.npz`` (atomically)."""
    buffer = io.BytesIO()
    np.savez(buffer, iteration=np.int64(iteration), strategy=strategy)
    _atomic_write(self.folder / f"snapshot_{name}.npz", buffer.getvalue())

  def load_snapshot(self, name: str) -> tuple[int, np.ndarray] | None:
    """(iteration, strategy) of a snapshot, or None if it was not taken."""
    path = self.folder / f"snapshot_{name}.npz"
    if not path.exists():
      return None
    with np.load(path) as data:
      return int(data["iteration"]), data["strategy"]

  def reset(self) -> None:
    """Deletes the unit's files (it will be run from scratch)."""
    paths = [self.rows_path, self.checkpoint_path, self.done_path]
    paths += list(self.folder.glob("snapshot_*.npz"))
    for path in paths:
      try:
        path.unlink()
      except FileNotFoundError:
        pass


def rows_to_frame(rows: Iterable[Row]) -> pd.DataFrame:
  """A DataFrame with exactly :data:`COLUMNS`, typed."""
  frame = pd.DataFrame([dataclasses.astuple(row) for row in rows],
                       columns=list(COLUMNS))
  return frame.astype(_TYPES)


def load_results(output_dir: str | os.PathLike) -> pd.DataFrame:
  """Every row under ``output_dir`` (finished and unfinished units), sorted.

  Units whose files are corrupt are skipped with a warning.
  """
  rows: list[Row] = []
  for folder in sorted((Path(output_dir) / "units").glob("*")):
    try:
      rows.extend(UnitStore(folder).rows())
    except CorruptUnit as error:
      warnings.warn(f"skipping a corrupt unit: {error}")
  frame = rows_to_frame(rows)
  return frame.sort_values(
      ["experiment", "game", "algorithm", "hyperparameters", "seed",
       "metric", "iteration"], kind="stable").reset_index(drop=True)


def write_merged(output_dir: str | os.PathLike,
                 frame: pd.DataFrame | None = None) -> tuple[Path, Path]:
  """Writes ``results.parquet`` and ``results.csv``; returns their paths."""
  output_dir = Path(output_dir)
  if frame is None:
    frame = load_results(output_dir)
  parquet = output_dir / "results.parquet"
  csv_path = output_dir / "results.csv"
  buffer = io.BytesIO()
  frame.to_parquet(buffer, index=False)
  _atomic_write(parquet, buffer.getvalue())
  _atomic_write(csv_path, frame.to_csv(index=False).encode("utf-8"))
  return parquet, csv_path

