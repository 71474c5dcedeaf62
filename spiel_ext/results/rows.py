"""The rows of the results store: its columns, a row, a unit's rows.

A row is one measurement of :data:`COLUMNS` (see
:mod:`spiel_ext.results.store` for the fields and the files they are kept
in). In a unit's ``rows.csv`` each row ends with a check (:func:`row_check`)
that chains it to the rows before it; :class:`UnitRows` is what reading the
file gives. :func:`rows_to_frame` makes rows a typed DataFrame.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from typing import Any, Iterable, Sequence

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
    """The row as the text fields of a CSV record, in :data:`COLUMNS` order.

    Returns:
      One string per column (an empty ``episodes`` for None; floats by
      ``repr``, so they read back exactly).
    """
    return [self.experiment, self.game, self.algorithm, self.hyperparameters,
            str(self.seed), str(self.iteration),
            "" if self.episodes is None else str(self.episodes),
            repr(float(self.wall_time)), self.metric, repr(float(self.value))]

  @classmethod
  def from_record(cls, record: Sequence[str]) -> "Row":
    """The row :meth:`as_record` wrote.

    Args:
      record: the text fields of a CSV record, in :data:`COLUMNS` order.

    Returns:
      The row, its fields converted to their types.

    Raises:
      ValueError: a wrong number of fields or a field that does not parse.
    """
    if len(record) != len(COLUMNS):
      raise ValueError(f"expected {len(COLUMNS)} fields, got {len(record)}")
    return cls(record[0], record[1], record[2], record[3], int(record[4]),
               int(record[5]), int(record[6]) if record[6] else None,
               float(record[7]), record[8], float(record[9]))


def row_check(previous: str, record: str) -> str:
  """The check of a row: a hash of the previous row's check and this row's
  text, so each row vouches for every row before it (a unit's first row
  chains from the unit's id)."""
  return hashlib.blake2b(f"{previous}\n{record}".encode("utf-8"),
                         digest_size=8).hexdigest()


@dataclasses.dataclass
class UnitRows:
  """What a unit's ``rows.csv`` holds, read without changing it.

  Attributes:
    unit_id: the unit's id, where the rows' chain of checks starts.
    rows: the rows up to the first line that fails its check.
    lines: their text, as stored.
    checks: their checks.
    problem: why reading stopped early, or None when every line is good.
    torn_tail: the only bad line is a last one without its newline (a
      crash mid-append).
  """
  unit_id: str
  rows: list[Row] = dataclasses.field(default_factory=list)
  lines: list[str] = dataclasses.field(default_factory=list)
  checks: list[str] = dataclasses.field(default_factory=list)
  problem: str | None = None
  torn_tail: bool = False

  def check_after(self, count: int) -> str:
    """The check of the first ``count`` rows (the unit id for none)."""
    return self.checks[count - 1] if count else self.unit_id

  @property
  def last_check(self) -> str:
    """The check of the last good row (the unit id for none)."""
    return self.check_after(len(self.rows))


def rows_to_frame(rows: Iterable[Row]) -> pd.DataFrame:
  """A DataFrame with exactly :data:`COLUMNS`, typed."""
  frame = pd.DataFrame([dataclasses.astuple(row) for row in rows],
                       columns=list(COLUMNS))
  return frame.astype(_TYPES)
