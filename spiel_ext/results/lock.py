"""One writer per run folder: an OS-level lock held for the whole run.

The lock is ``fcntl.flock`` on ``<run folder>/.lock``. The kernel releases it
when its holder exits, however it exits (kill -9 included), so a lock left by
a dead process is free again and the next run takes it over, saying whose it
was. While held, the file names its holder (pid, host, start time, command),
which is what a second runner is told. A ``.lock`` that is a symbolic link
is refused (:class:`spiel_ext.files.LinkRefused`), never written through.

Locks on network file systems are as good as the file system's own: NFS
(v4, or v3 with its lock manager) honours them across hosts; some other
shared file systems do not.
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
from pathlib import Path
from typing import Any

from spiel_ext.files import make_folder, open_inside, output_error
from spiel_ext.results.manifest import process_record

LOCK_FILE = ".lock"


class FolderLocked(Exception):
  """Another process is writing to the run folder."""


def _describe(holder: dict[str, Any]) -> str:
  return (f"pid {holder.get('pid')} on {holder.get('host')} since "
          f"{holder.get('started_utc')} (`{holder.get('command')}`)")


class RunLock:
  """The lock of one run folder; use as a context manager.

  Raises FolderLocked on entry when another process holds it.
  """

  def __init__(self, folder: str | os.PathLike):
    self.folder = Path(folder)
    self.path = self.folder / LOCK_FILE
    self._handle = None

  def _read_holder(self) -> dict[str, Any] | None:
    try:
      self._handle.seek(0)
      text = self._handle.read()
      holder = json.loads(text) if text.strip() else None
    except (OSError, ValueError):
      return None
    return holder if isinstance(holder, dict) else None

  def acquire(self) -> None:
    make_folder(self.folder)
    try:
      self._handle = os.fdopen(open_inside(
          self.folder, self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT),
                               "a+", encoding="utf-8")
    except OSError as error:
      raise output_error(self.path, error) from None
    try:
      fcntl.flock(self._handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
      holder = self._read_holder()
      self._handle.close()
      self._handle = None
      raise FolderLocked(
          f"{self.folder} is being written by "
          f"{_describe(holder) if holder else 'another process'}; wait for "
          "it to finish or use another --output_dir.") from None
    stale = self._read_holder()
    if stale:
      logging.warning("%s: taking over the lock left by %s, which is no "
                      "longer running.", self.folder, _describe(stale))
    holder = process_record()
    try:
      self._handle.seek(0)
      self._handle.truncate()
      self._handle.write(json.dumps(holder) + "\n")
      self._handle.flush()
      os.fsync(self._handle.fileno())
    except OSError as error:
      self.release()
      raise output_error(self.path, error) from None

  def release(self) -> None:
    if self._handle is None:
      return
    try:
      self._handle.seek(0)
      self._handle.truncate()
      self._handle.flush()
    except OSError:
      pass  # The lock goes with the file handle; the record is only a note.
    fcntl.flock(self._handle.fileno(), fcntl.LOCK_UN)
    self._handle.close()
    self._handle = None

  def __enter__(self) -> "RunLock":
    self.acquire()
    return self

  def __exit__(self, *exc_info) -> None:
    self.release()
