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
progress; every line ends with a check that chains it to the lines before
it), ``checkpoint.npz`` (the solver's ``state_dict()`` with the row count
and last check at that point, replaced atomically; see
:func:`encode_checkpoint`), ``done.json`` (the row count and last check of
the finished unit) and ``snapshot_<name>.npz`` (average strategies kept for
later analysis, such as head-to-head tables). A run folder may come from
elsewhere: its files are read and written without following a symbolic
link below it (:class:`spiel_ext.files.LinkRefused` names one).
:func:`load_results` merges the units of a run's manifest into one DataFrame;
:func:`write_merged` saves it as ``results.parquet`` and ``results.csv``.
The rows themselves (:class:`Row`, :data:`COLUMNS`, their checks) are
defined in :mod:`spiel_ext.results.rows` and importable from here.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import warnings
from pathlib import Path
from typing import Any, Sequence

import numpy as np
import pandas as pd

from spiel_ext.algorithms.plain import from_document, to_document
from spiel_ext.algorithms.protocol import FORMAT_VERSION
from spiel_ext.files import (append_text, atomic_write, check_inside,
                             read_inside, sync_file)
from spiel_ext.results.manifest import read_manifest, resume_command
# COLUMNS and canonical_json are imported from here too.
# pylint: disable-next=unused-import
from spiel_ext.results.rows import (COLUMNS, Row, UnitRows, canonical_json,
                                    row_check, rows_to_frame)


class CorruptUnit(Exception):
  """A unit's files cannot be trusted; the unit must be run again."""


# ------------------------------------------------------------ checkpoints
# A checkpoint file is an .npz archive of plain .npy arrays, read with
# allow_pickle=False, so that loading one runs no code: the checkpoint's
# arrays, and one more, "document", the UTF-8 JSON of everything else in
# which each array is {"__array__": its name in the archive} (written and
# read by the plain-data serializer, spiel_ext.algorithms.plain).
CHECKPOINT_FORMAT = "spiel_ext checkpoint"
# The one format version of states and their files.
CHECKPOINT_FORMAT_VERSION = FORMAT_VERSION
# Earlier numbers of this same file format (before the state format's and
# the file format's versions were one).
_EARLIER_FORMAT_VERSIONS = (1,)
_DOCUMENT = "document"


def encode_checkpoint(checkpoint: dict[str, Any]) -> bytes:
  """A checkpoint (plain data: None, bools, numbers, strings, numpy arrays
  and scalars, lists, tuples and dicts of them) as the bytes of a
  checkpoint file; :func:`decode_checkpoint` gives it back exactly (floats
  and integers of any size included).

  Raises:
    TypeError: a value that is not plain data (naming where it is).
  """
  arrays: dict[str, np.ndarray] = {}
  document = json.dumps({"format": CHECKPOINT_FORMAT,
                         "version": CHECKPOINT_FORMAT_VERSION,
                         "checkpoint": to_document(checkpoint, arrays,
                                                   "checkpoint")})
  arrays[_DOCUMENT] = np.frombuffer(document.encode("utf-8"), dtype=np.uint8)
  buffer = io.BytesIO()
  np.savez(buffer, allow_pickle=False, **arrays)
  return buffer.getvalue()


def decode_checkpoint(data: bytes, source: str = "checkpoint"
                      ) -> dict[str, Any]:
  """The checkpoint :func:`encode_checkpoint` wrote; nothing in ``data`` is
  unpickled or executed.

  Raises:
    CorruptUnit: ``data`` is not a checkpoint file of this format and
      version (a pickle, another format, a damaged file), with a one-line
      reason naming ``source``.
  """
  if not data.startswith(b"PK"):
    kind = ("a pickle, which is never loaded (unpickling can run code)"
            if data[:1] == b"\x80" else "not an .npz archive")
    raise CorruptUnit(f"{source} is not a spiel_ext checkpoint file: {kind}")
  try:
    with np.load(io.BytesIO(data), allow_pickle=False) as archive:
      arrays = {name: archive[name] for name in archive.files}
    document = json.loads(arrays.pop(_DOCUMENT).tobytes().decode("utf-8"))
  except Exception as error:  # pylint: disable=broad-except
    raise CorruptUnit(f"{source} cannot be read as a checkpoint "
                      f"({type(error).__name__}: {error})") from None
  if not isinstance(document, dict) or document.get(
      "format") != CHECKPOINT_FORMAT:
    raise CorruptUnit(f"{source} is not a spiel_ext checkpoint file")
  accepted = _EARLIER_FORMAT_VERSIONS + (CHECKPOINT_FORMAT_VERSION,)
  if document.get("version") not in accepted:
    raise CorruptUnit(f"{source} is a checkpoint of format version "
                      f"{document.get('version')!r}, not "
                      f"{' or '.join(map(str, accepted))} (another "
                      "spiel_ext version wrote it)")
  try:
    return from_document(document["checkpoint"], arrays)
  except (KeyError, TypeError, ValueError) as error:
    raise CorruptUnit(f"{source} is a damaged checkpoint "
                      f"({type(error).__name__}: {error})") from None


class UnitStore:
  """The files of one work unit under ``folder`` (named by the unit's id).

  ``rows.csv`` holds one row per line, each ending with its check (see
  :func:`row_check`). The checkpoint and ``done.json`` record how many rows
  there were and the last row's check, so a missing, truncated, edited,
  duplicated or foreign row is found when the unit is resumed or merged.

  Its files are read and written following no symbolic link below the run
  folder ``inside`` (by default ``folder`` itself): a link there raises
  :class:`spiel_ext.files.LinkRefused` naming it.
  """

  def __init__(self, folder: str | os.PathLike,
               inside: str | os.PathLike | None = None):
    self.folder = Path(folder)
    self.inside = self.folder if inside is None else Path(inside)
    self.unit_id = self.folder.name
    self.rows_path = self.folder / "rows.csv"
    self.checkpoint_path = self.folder / "checkpoint.npz"
    # Where spiel_ext wrote pickled checkpoints before: refused, and removed
    # when the unit restarts.
    self.legacy_checkpoint_path = self.folder / "checkpoint.pkl"
    self.done_path = self.folder / "done.json"
    self._count: int | None = None
    self._last_check: str | None = None

  # ------------------------------------------------------------- reading
  def read(self) -> UnitRows:
    """The unit's rows up to the first line that fails its check."""
    try:
      data = self._read(self.rows_path)
    except FileNotFoundError:
      return UnitRows(self.unit_id)
    except OSError as error:
      return UnitRows(self.unit_id, problem=f"{self.rows_path} cannot be "
                      f"read ({error.strerror})")
    result = UnitRows(self.unit_id)
    lines = data.split(b"\n")
    complete, tail = lines[:-1], lines[-1]
    for number, raw in enumerate(complete, 1):
      problem = self._check_line(raw, result)
      if problem:
        result.problem = f"{self.rows_path}:{number}: {problem}"
        return result
    if tail:
      result.problem = f"{self.rows_path}:{len(complete) + 1}: torn last line"
      result.torn_tail = True
    return result

  def _read(self, path: Path) -> bytes:
    """The bytes of one of the unit's files, following no link."""
    return read_inside(self.inside, path)

  def _check_line(self, raw: bytes, result: UnitRows) -> str | None:
    """Adds a good line to ``result``; otherwise says what is wrong."""
    try:
      line = raw.decode("utf-8")
    except UnicodeDecodeError:
      return "not text"
    record, comma, check = line.rpartition(",")
    if not comma or check != row_check(result.last_check, record):
      return ("fails its check (edited, duplicated, out of order, from "
              "another unit or written by an older spiel_ext)")
    try:
      row = Row.from_record(next(csv.reader([record])))
    except (ValueError, StopIteration) as error:
      return str(error)
    result.rows.append(row)
    result.lines.append(line + "\n")
    result.checks.append(check)
    return None

  def done_record(self) -> dict[str, Any] | None:
    """``done.json`` ({"rows", "check", "snapshots"}) or None if absent or
    unreadable."""
    try:
      done = json.loads(self._read(self.done_path))
      return done if isinstance(done, dict) else None
    except (OSError, ValueError):
      return None

  def is_done(self) -> bool:
    """True when the unit finished and its rows and snapshots are exactly
    those it finished with."""
    return self.done_record() is not None and self.done_problem() is None

  def done_problem(self) -> str | None:
    """None if the finished unit's files are intact; else what is wrong."""
    done = self.done_record()
    if done is None:
      return f"{self.done_path} is missing or damaged"
    unit_rows = self.read()
    if unit_rows.problem:
      return unit_rows.problem
    if (done.get("rows") != len(unit_rows.rows) or
        done.get("check") != unit_rows.last_check):
      return (f"{self.rows_path} holds {len(unit_rows.rows)} good rows, not "
              f"the {done.get('rows')} the unit finished with")
    return self._snapshots_problem(done.get("snapshots"))

  def _snapshot_path(self, name: str) -> Path:
    return self.folder / f"snapshot_{name}.npz"

  def _snapshot_checks(self, names) -> dict[str, str]:
    """{name: hash of the file} of the snapshots ``names`` on disk."""
    checks = {}
    for name in names:
      try:
        data = self._read(self._snapshot_path(name))
      except OSError:
        continue
      checks[name] = hashlib.blake2b(data, digest_size=16).hexdigest()
    return checks

  def _snapshots_problem(self, recorded: Any) -> str | None:
    if not isinstance(recorded, dict):
      return "no record of its snapshots (an older spiel_ext)"
    found = self._snapshot_checks(recorded)
    for name, check in sorted(recorded.items()):
      if name not in found:
        return f"{self._snapshot_path(name)} is missing"
      if found[name] != check:
        return f"{self._snapshot_path(name)} is not the snapshot recorded"
    return None

  def load_checkpoint(self) -> dict[str, Any] | None:
    """The last checkpoint ({"iteration", "rows", "rows_check", ...}), or
    None.

    Raises:
      CorruptUnit: the checkpoint cannot be read, is not of this format
        and version, or is a pickled checkpoint of an older spiel_ext
        (never unpickled), with a one-line reason.
    """
    try:
      data = self._read(self.checkpoint_path)
    except FileNotFoundError:
      if os.path.lexists(self.legacy_checkpoint_path):
        raise CorruptUnit(f"{self.legacy_checkpoint_path} is a pickled "
                          "checkpoint of an older spiel_ext, which is never "
                          "loaded (unpickling can run code)") from None
      return None
    except OSError as error:
      raise CorruptUnit(f"{self.checkpoint_path} cannot be read "
                        f"({error.strerror})") from None
    checkpoint = decode_checkpoint(data, str(self.checkpoint_path))
    if not isinstance(checkpoint, dict) or "iteration" not in checkpoint:
      raise CorruptUnit(f"{self.checkpoint_path}: not a checkpoint")
    return checkpoint

  def checkpoint_problem(self, checkpoint: dict[str, Any]) -> str | None:
    """None if the rows and snapshots the checkpoint recorded are all on
    disk, unchanged (rows after them may follow: they are recomputed); else
    what is wrong."""
    expected = checkpoint.get("rows")
    if not isinstance(expected, int) or "rows_check" not in checkpoint:
      return "the checkpoint records no row count (an older spiel_ext)"
    unit_rows = self.read()
    if len(unit_rows.rows) < expected:
      found = ("rows.csv is missing" if not self.rows_path.exists() else
               f"{len(unit_rows.rows)} good rows")
      reason = f"; {unit_rows.problem}" if unit_rows.problem else ""
      return (f"the checkpoint at iteration {checkpoint['iteration']} "
              f"recorded {expected} rows, found {found}{reason}")
    if unit_rows.check_after(expected) != checkpoint["rows_check"]:
      return (f"the first {expected} rows are not those the checkpoint at "
              f"iteration {checkpoint['iteration']} recorded")
    return self._snapshots_problem(checkpoint.get("snapshots"))

  # ------------------------------------------------------------- writing
  def _position(self) -> tuple[int, str]:
    if self._count is None:
      unit_rows = self.read()
      if unit_rows.problem:
        raise CorruptUnit(unit_rows.problem)
      self._count, self._last_check = len(unit_rows.rows), unit_rows.last_check
    return self._count, self._last_check

  def append(self, rows: Sequence[Row]) -> None:
    """Appends rows, each with its check. They reach the disk before the
    next checkpoint or the unit's end records them (an fsync per
    evaluation point was most of the evaluation time of units of cheap
    iterations); a kill loses none of them, a power loss at most those a
    resume recomputes anyway."""
    if not rows:
      return
    count, check = self._position()
    lines = []
    for row in rows:
      buffer = io.StringIO()
      csv.writer(buffer, lineterminator="").writerow(row.as_record())
      record = buffer.getvalue()
      check = row_check(check, record)
      lines.append(f"{record},{check}\n")
    append_text(self.rows_path, "".join(lines), sync=False,
                inside=self.inside)
    self._count, self._last_check = count + len(rows), check

  def save_checkpoint(self, checkpoint: dict[str, Any]) -> None:
    """Replaces the checkpoint atomically, recording the rows so far."""
    count, check = self._position()
    checkpoint = dict(checkpoint, rows=count, rows_check=check,
                      snapshots=self._snapshot_checks(
                          checkpoint.get("snapshots_taken", ())))
    # The rows it records are on disk first.
    sync_file(self.rows_path, inside=self.inside)
    atomic_write(self.checkpoint_path, encode_checkpoint(checkpoint),
                 inside=self.inside)

  def keep_rows(self, count: int) -> None:
    """Keeps the first ``count`` good rows and drops every line after them
    (rows past a checkpoint are recomputed on resume)."""
    unit_rows = self.read()
    if count > len(unit_rows.rows):
      raise CorruptUnit(f"{self.rows_path} holds {len(unit_rows.rows)} good "
                        f"rows, fewer than {count}")
    keep = unit_rows.lines[:count]
    if count < len(unit_rows.rows) or unit_rows.problem:
      atomic_write(self.rows_path, "".join(keep), inside=self.inside)
    self._count, self._last_check = count, unit_rows.check_after(count)

  def mark_done(self, seconds: dict[str, float] | None = None) -> None:
    """Records the unit as finished with its rows and snapshots as they
    are, and ``seconds`` (its solver and evaluation time) beside them;
    removes the checkpoint."""
    count, check = self._position()
    names = [path.stem[len("snapshot_"):]
             for path in self.folder.glob("snapshot_*.npz")]
    sync_file(self.rows_path, inside=self.inside)
    atomic_write(self.done_path, canonical_json({
        "rows": count, "check": check,
        "snapshots": self._snapshot_checks(names), **(seconds or {})}),
                 inside=self.inside)
    self._remove([self.checkpoint_path, self.legacy_checkpoint_path])

  def save_snapshot(self, name: str, iteration: int,
                    strategy: np.ndarray) -> None:
    """Keeps an average strategy as ``snapshot_<name>.npz`` (atomically)."""
    buffer = io.BytesIO()
    np.savez(buffer, iteration=np.int64(iteration), strategy=strategy)
    atomic_write(self._snapshot_path(name), buffer.getvalue(),
                 inside=self.inside)

  def load_snapshot(self, name: str) -> tuple[int, np.ndarray] | None:
    """(iteration, strategy) of a snapshot, or None if it was not taken."""
    path = self._snapshot_path(name)
    try:
      data = self._read(path)
    except FileNotFoundError:
      return None
    except OSError as error:
      raise ValueError(f"{path} cannot be read ({error.strerror}); "
                       f"{self._rerun_advice()}") from None
    try:
      with np.load(io.BytesIO(data), allow_pickle=False) as archive:
        return int(archive["iteration"]), archive["strategy"]
    except Exception as error:  # pylint: disable=broad-except
      raise ValueError(f"{path} is damaged ({type(error).__name__}); "
                       f"{self._rerun_advice()}") from None

  def _rerun_advice(self) -> str:
    """How to compute the unit again: resuming its run reruns a unit whose
    files are not those it finished with."""
    command = (resume_command(self.inside) if self.inside != self.folder
               else None)
    if command is None:
      return ("resuming its run (the same command with --resume) runs the "
              f"unit {self.unit_id} again")
    return f"this reruns the unit {self.unit_id}: `{command}`"

  def reset(self) -> None:
    """Deletes the unit's files (it will be run from scratch)."""
    paths = [self.rows_path, self.checkpoint_path,
             self.legacy_checkpoint_path, self.done_path]
    paths += list(self.folder.glob("snapshot_*.npz"))
    self._remove(paths)
    self._count, self._last_check = 0, self.unit_id

  def _remove(self, paths: Sequence[Path]) -> None:
    """Deletes the unit's files ``paths`` (never through a linked folder:
    a link among them is itself deleted, not what it points to)."""
    if self.inside != self.folder:
      check_inside(self.inside, self.folder)
    for path in paths:
      try:
        path.unlink()
      except (FileNotFoundError, NotADirectoryError):
        pass


def load_results(output_dir: str | os.PathLike,
                 units: Sequence[str] | None = None) -> pd.DataFrame:
  """The rows of a run folder's units (finished and unfinished), sorted.

  Args:
    output_dir: the run folder (``<output_dir>/<experiment>``).
    units: the unit ids to read; by default those of the folder's manifest
      (other unit folders, say of another run, are ignored), or every unit
      folder when there is no manifest.

  Returns:
    The rows, with the run's sessions (versions, commit, command, host,
    times) in ``frame.attrs["provenance"]`` when there is a manifest. A unit
    whose rows fail their checks contributes the rows before the first bad
    one, with a warning (a torn last line, left by a crash, is dropped
    silently).
  """
  folder = Path(output_dir)
  manifest = read_manifest(folder)
  if units is None and manifest is not None:
    units = manifest["units"]
  if units is None:
    paths = sorted((folder / "units").glob("*"))
  else:
    paths = [folder / "units" / unit for unit in units]
  rows: list[Row] = []
  for path in paths:
    if not path.is_dir():
      continue
    store = UnitStore(path, inside=folder)
    unit_rows = store.read()
    done = store.done_record()
    if unit_rows.problem and not unit_rows.torn_tail:
      warnings.warn(f"keeping the {len(unit_rows.rows)} rows before a bad "
                    f"line: {unit_rows.problem}")
    elif done is not None and done.get("rows") != len(unit_rows.rows):
      warnings.warn(f"{store.rows_path}: {len(unit_rows.rows)} rows, the "
                    f"finished unit had {done.get('rows')}")
    rows.extend(unit_rows.rows)
  frame = rows_to_frame(rows)
  frame = frame.sort_values(
      ["experiment", "game", "algorithm", "hyperparameters", "seed",
       "metric", "iteration"], kind="stable").reset_index(drop=True)
  if manifest is not None:
    frame.attrs["provenance"] = manifest.get("sessions", [])
  return frame


def write_merged(output_dir: str | os.PathLike,
                 frame: pd.DataFrame | None = None) -> tuple[Path, Path]:
  """Writes ``results.parquet`` and ``results.csv`` atomically; returns
  their paths. ``frame.attrs`` (the provenance) goes into the Parquet
  file's metadata, where ``pandas.read_parquet`` restores it."""
  output_dir = Path(output_dir)
  if frame is None:
    frame = load_results(output_dir)
  parquet = output_dir / "results.parquet"
  csv_path = output_dir / "results.csv"
  atomic_write(parquet, lambda handle: frame.to_parquet(handle, index=False),
               inside=output_dir)
  atomic_write(csv_path, frame.to_csv(index=False), inside=output_dir)
  return parquet, csv_path
