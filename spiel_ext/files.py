"""Writing files so that a crash, a full disk or a bad path loses nothing.

Every file spiel_ext writes goes through :func:`atomic_write`: the data goes
to a temporary file beside the target, is flushed to disk and then renamed
over the target, so a reader sees the old file or the new one, never half of
one. The temporary file is removed whatever goes wrong, and the file gets the
permissions the user's umask allows (``tempfile`` alone creates 0600).
An ``OSError`` becomes :class:`OutputError`, one line naming the path.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import BinaryIO, Callable

TEMPORARY_SUFFIX = ".tmp"


class OutputError(Exception):
  """A file or folder could not be written; the message names the path."""


def umask() -> int:
  """The process's umask, read without changing it where the OS allows."""
  try:
    with open("/proc/self/status") as status:
      for line in status:
        if line.startswith("Umask:"):
          return int(line.split()[1], 8)
  except (OSError, ValueError):
    pass
  mask = os.umask(0o022)
  os.umask(mask)
  return mask


def output_error(path: str | os.PathLike, error: OSError) -> OutputError:
  """An OutputError for ``error`` met while writing ``path`` (or a
  temporary file of its own, which is not named)."""
  reason = error.strerror or str(error)
  where = Path(error.filename) if error.filename else Path(path)
  if where.name.endswith(TEMPORARY_SUFFIX) and where.parent == Path(
      path).parent:
    where = Path(path)
  if isinstance(error, (FileExistsError, NotADirectoryError)):
    reason += " (a file is in the way of a folder)"
  message = f"cannot write {path}: {reason}"
  if where != Path(path):
    message += f" ({where})"
  return OutputError(message)


def make_folder(folder: str | os.PathLike) -> Path:
  """Creates ``folder`` and its parents; OutputError names it if it can't."""
  folder = Path(folder)
  try:
    folder.mkdir(parents=True, exist_ok=True)
  except OSError as error:
    raise output_error(folder, error) from None
  return folder


def atomic_write(path: str | os.PathLike,
                 data: bytes | str | Callable[[BinaryIO], None]) -> Path:
  """Replaces ``path`` with ``data`` (bytes, text as UTF-8, or a function
  that writes to a binary file handle) all at once.

  Raises:
    OutputError: the folder or file could not be written (full disk, a file
      where a folder should be, no permission); nothing is left behind.
  """
  path = Path(path)
  make_folder(path.parent)
  temporary = None
  try:
    with tempfile.NamedTemporaryFile(dir=path.parent, prefix=f".{path.name}.",
                                     suffix=TEMPORARY_SUFFIX,
                                     delete=False) as handle:
      temporary = handle.name
      if callable(data):
        data(handle)
      else:
        handle.write(data.encode("utf-8") if isinstance(data, str) else data)
      handle.flush()
      os.fsync(handle.fileno())
    os.chmod(temporary, 0o666 & ~umask())
    os.replace(temporary, path)
    temporary = None
  except OSError as error:
    raise output_error(path, error) from None
  finally:
    if temporary is not None:
      try:
        os.unlink(temporary)
      except OSError:
        pass
  return path


def append_text(path: str | os.PathLike, text: str,
                sync: bool = True) -> None:
  """Appends ``text`` to ``path``, flushed to the operating system and,
  with ``sync``, to disk.

  An append is not atomic: a crash can leave a torn last line, which
  readers must detect (the results store checks every row). Without
  ``sync`` the text survives the process being killed, not a power loss,
  until :func:`sync_file`.
  """
  path = Path(path)
  make_folder(path.parent)
  try:
    with open(path, "a", encoding="utf-8") as handle:
      handle.write(text)
      handle.flush()
      if sync:
        os.fsync(handle.fileno())
  except OSError as error:
    raise output_error(path, error) from None


def sync_file(path: str | os.PathLike) -> None:
  """Flushes what was written to ``path`` to disk (nothing if it does not
  exist)."""
  try:
    with open(path, "rb") as handle:
      os.fsync(handle.fileno())
  except FileNotFoundError:
    pass
  except OSError as error:
    raise output_error(path, error) from None
