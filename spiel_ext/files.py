"""Writing files so that a crash, a full disk or a bad path loses nothing.

Every file spiel_ext writes goes through :func:`atomic_write`: the data goes
to a temporary file beside the target, is flushed to disk and then renamed
over the target, so a reader sees the old file or the new one, never half of
one. The temporary file is removed whatever goes wrong, and the file gets the
permissions the user's umask allows (``tempfile`` alone creates 0600).
An ``OSError`` becomes :class:`OutputError`, one line naming the path.

A results folder may come from someone else, so what spiel_ext reads from
or writes into one never follows a symbolic link out of it: the functions
given the folder as ``inside`` (and :func:`read_inside`,
:func:`open_inside`) refuse a path any part of which below the folder is a
link, with :class:`LinkRefused` naming the link.
"""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path
from typing import BinaryIO, Callable

TEMPORARY_SUFFIX = ".tmp"


class OutputError(Exception):
  """A file or folder could not be written; the message names the path."""


class LinkRefused(OutputError):
  """A path inside a results folder is, or passes through, a symbolic link,
  which is never followed (it could lead out of the folder); the message
  names the link."""


def _link_refused(inside: Path, link: Path) -> LinkRefused:
  return LinkRefused(f"refused {link}: a symbolic link inside {inside}, "
                     "whose files are never followed out of it (replace the "
                     "link by the file itself)")


def _below(inside: str | os.PathLike, path: str | os.PathLike
           ) -> tuple[Path, tuple[str, ...]]:
  """(``inside``, the parts of ``path`` below it); ValueError if ``path``
  is not inside it."""
  inside = Path(inside)
  parts = Path(os.path.relpath(os.path.abspath(path),
                               os.path.abspath(inside))).parts
  if not parts or parts[0] in (os.curdir, os.pardir):
    raise ValueError(f"{path} is not a file inside {inside}")
  return inside, parts


def check_inside(inside: str | os.PathLike,
                 path: str | os.PathLike) -> Path:
  """``path``, after checking that no part of it below the folder
  ``inside`` (the folder itself is trusted) is a symbolic link; parts that
  do not exist yet are fine.

  Raises:
    LinkRefused: naming the first link.
  """
  inside, parts = _below(inside, path)
  current = inside
  for part in parts:
    current = current / part
    if os.path.islink(current):
      raise _link_refused(inside, current)
    if not os.path.lexists(current):
      break
  return Path(path)


def open_inside(inside: str | os.PathLike, path: str | os.PathLike,
                flags: int, mode: int = 0o666) -> int:
  """``os.open(path, flags, mode)``, following no symbolic link below the
  folder ``inside``: each folder on the way is opened relative to the one
  before it without following links, and the file itself with
  ``O_NOFOLLOW``, so a link swapped in meanwhile is refused too.

  Returns:
    The file descriptor (the caller closes it).

  Raises:
    LinkRefused: a part of ``path`` below ``inside`` is a symbolic link.
    OSError: any other reason it cannot be opened (FileNotFoundError...).
  """
  inside, parts = _below(inside, path)
  nofollow = getattr(os, "O_NOFOLLOW", 0)
  if not (nofollow and os.open in os.supports_dir_fd):
    check_inside(inside, path)
    return os.open(path, flags | nofollow, mode)
  directory = os.open(inside, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
  current = inside
  try:
    for part in parts[:-1]:
      current = current / part
      try:
        opened = os.open(part, os.O_RDONLY | os.O_DIRECTORY | nofollow,
                         dir_fd=directory)
      except OSError as error:
        if error.errno in (errno.ELOOP, errno.ENOTDIR) and os.path.islink(
            current):
          raise _link_refused(inside, current) from None
        raise
      os.close(directory)
      directory = opened
    try:
      return os.open(parts[-1], flags | nofollow, mode, dir_fd=directory)
    except OSError as error:
      if error.errno in (errno.ELOOP, errno.EMLINK) and os.path.islink(
          Path(path)):
        raise _link_refused(inside, Path(path)) from None
      raise
  finally:
    os.close(directory)


def read_inside(inside: str | os.PathLike,
                path: str | os.PathLike) -> bytes:
  """The bytes of ``path``, a file in the folder ``inside``, following no
  symbolic link below it (see :func:`open_inside`).

  Raises:
    LinkRefused: a part of ``path`` below ``inside`` is a symbolic link.
    OSError: it cannot be read (FileNotFoundError when it is missing).
  """
  descriptor = open_inside(inside, path, os.O_RDONLY)
  with os.fdopen(descriptor, "rb") as handle:
    return handle.read()


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
                 data: bytes | str | Callable[[BinaryIO], None],
                 inside: str | os.PathLike | None = None) -> Path:
  """Replaces ``path`` with ``data`` (bytes, text as UTF-8, or a function
  that writes to a binary file handle) all at once.

  Args:
    path: the file.
    data: what it is to hold.
    inside: the results folder ``path`` is in, if it is in one: no part
      of ``path`` below it may be a symbolic link.

  Raises:
    LinkRefused: ``path`` passes through a symbolic link below ``inside``.
    OutputError: the folder or file could not be written (full disk, a file
      where a folder should be, no permission); nothing is left behind.
  """
  path = Path(path)
  if inside is not None:
    check_inside(inside, path)
  make_folder(path.parent)
  if inside is not None:
    check_inside(inside, path)  # No link appeared while making the folder.
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
                sync: bool = True,
                inside: str | os.PathLike | None = None) -> None:
  """Appends ``text`` to ``path``, flushed to the operating system and,
  with ``sync``, to disk.

  An append is not atomic: a crash can leave a torn last line, which
  readers must detect (the results store checks every row). Without
  ``sync`` the text survives the process being killed, not a power loss,
  until :func:`sync_file`. Given the results folder ``path`` is in
  (``inside``), no symbolic link below it is followed (:class:`LinkRefused`
  names it).
  """
  path = Path(path)
  if inside is not None:
    check_inside(inside, path)
  make_folder(path.parent)
  try:
    if inside is None:
      handle = open(path, "a", encoding="utf-8")  # pylint: disable=consider-using-with
    else:
      handle = os.fdopen(open_inside(
          inside, path, os.O_WRONLY | os.O_APPEND | os.O_CREAT,
          0o666), "a", encoding="utf-8")
    with handle:
      handle.write(text)
      handle.flush()
      if sync:
        os.fsync(handle.fileno())
  except OSError as error:
    raise output_error(path, error) from None


def sync_file(path: str | os.PathLike,
              inside: str | os.PathLike | None = None) -> None:
  """Flushes what was written to ``path`` to disk (nothing if it does not
  exist); given the results folder it is in (``inside``), following no
  symbolic link below it."""
  try:
    descriptor = (os.open(path, os.O_RDONLY) if inside is None else
                  open_inside(inside, path, os.O_RDONLY))
    try:
      os.fsync(descriptor)
    finally:
      os.close(descriptor)
  except FileNotFoundError:
    pass
  except OSError as error:
    raise output_error(path, error) from None
