"""On-disk cache of compiled game trees.

A tree is stored once per game in ``$SPIEL_EXT_CACHE_DIR`` (default:
``$XDG_CACHE_HOME/spiel_ext`` or ``~/.cache/spiel_ext``); setting the variable
to an empty string turns the disk cache off. The file name hashes the game
string with everything the tree depends on (see
:mod:`spiel_ext.engine.fingerprint`): spiel_ext's source and version, the
OpenSpiel and numpy versions, and the source of a game written in Python, so
editing a game definition or upgrading a package makes a new file. A Python
game whose source cannot be read is never stored on disk. The name also
holds the user's id, so users sharing a folder keep a file each.

A cache folder may be shared by a group, or written by someone else, so a
file in it is untrusted input. Each file is signed with a keyed hash
(BLAKE2b with a 32-byte secret key) under a key private to the user: the
file ``tree-key.<uid>`` in the cache folder, created with mode 0600 on
first use. A key file that is not a regular file owned by the user with no
access for anyone else is not used, and neither is the disk cache (with a
warning). The signature is checked before anything in the file is parsed,
so a file written by someone else, or with a recomputed plain checksum, is
refused; a signed file's arrays are then checked as a tree of its game
(:func:`spiel_ext.engine.tree_checks.check_stored_tree`, which
:func:`spiel_ext.engine.compile_game` passes to :func:`load`). A refused or
corrupt file is reported (naming the file and the problem), deleted and
rebuilt; a file that cannot be read (permissions, a symbolic link) is
reported and left alone, and the tree is built in memory. Files are
written atomically (a temporary file, then a rename) with the permissions
the umask allows; temporary files a killed process left behind are deleted
after an hour.
"""

from __future__ import annotations

import hashlib
import hmac
import io
import json
import os
import secrets
import stat
import tempfile
import time
import warnings
from pathlib import Path
from typing import Callable

import numpy as np

import spiel_ext
from spiel_ext.engine.fingerprint import FORMAT_VERSION, code_fingerprint
from spiel_ext.files import umask

CACHE_ENV_VAR = "SPIEL_EXT_CACHE_DIR"
# A temporary file older than this belongs to a writer that died.
STALE_TEMPORARY_SECONDS = 3600.0
# A tree file: this header, the keyed hash of the rest, then an .npz archive.
_HEADER = b"spiel_ext tree cache\n"
KEY_BYTES = 32
_TAG_BYTES = 32
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)

_swept_folders: set[Path] = set()
# The user's key by key file (None: refused), read once per process.
_keys: dict[Path, bytes | None] = {}

StoredTree = tuple[dict[str, np.ndarray], list[str]]
TreeCheck = Callable[[dict[str, np.ndarray], list[str]], None]


class RefusedFile(ValueError):
  """A cache file or key that is not to be used; the message says why."""


def cache_dir() -> Path | None:
  """The cache folder, or None when caching is turned off."""
  configured = os.environ.get(CACHE_ENV_VAR)
  if configured is not None:
    return Path(configured).expanduser() if configured.strip() else None
  base = os.environ.get("XDG_CACHE_HOME") or os.path.join(
      os.path.expanduser("~"), ".cache")
  return Path(base) / "spiel_ext"


def _user_id() -> str:
  if hasattr(os, "getuid"):
    return str(os.getuid())
  import getpass  # pylint: disable=import-outside-toplevel
  return getpass.getuser()


def cache_path(game_string: str, game_fingerprint: str = "") -> Path | None:
  """Where the tree of this game is stored; None when caching is off."""
  folder = cache_dir()
  if folder is None:
    return None
  name = hashlib.blake2b(
      f"{game_string}|{code_fingerprint()}|{game_fingerprint}|"
      f"{_user_id()}".encode(), digest_size=16).hexdigest()
  return folder / "trees" / f"{name}.npz"


def key_path() -> Path | None:
  """The file holding this user's key; None when caching is off."""
  folder = cache_dir()
  return None if folder is None else folder / f"tree-key.{_user_id()}"


def _read_key(path: Path) -> bytes:
  """The key in ``path``; RefusedFile unless it is a regular file of
  ``KEY_BYTES`` bytes owned by the user and closed to everyone else."""
  try:
    descriptor = os.open(path, os.O_RDONLY | _NOFOLLOW)
  except FileNotFoundError:
    raise
  except OSError as error:
    raise RefusedFile(f"cannot be opened ({error})") from None
  try:
    info = os.fstat(descriptor)
    if not stat.S_ISREG(info.st_mode):
      raise RefusedFile("is not a regular file")
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
      raise RefusedFile(f"is owned by user {info.st_uid}, not by this user "
                        f"({os.getuid()})")
    if stat.S_IMODE(info.st_mode) & 0o077:
      raise RefusedFile(f"has mode {stat.S_IMODE(info.st_mode):o}; it must "
                        "give no access to group or others (600)")
    key = os.read(descriptor, KEY_BYTES + 1)
  finally:
    os.close(descriptor)
  if len(key) != KEY_BYTES:
    raise RefusedFile(f"holds {len(key)} bytes, not a {KEY_BYTES}-byte key")
  return key


def _create_key(path: Path) -> None:
  """Writes a new random key to ``path`` (mode 0600) unless another
  process just did."""
  path.parent.mkdir(parents=True, exist_ok=True)
  descriptor, temporary = tempfile.mkstemp(dir=path.parent, suffix=".key")
  try:
    if hasattr(os, "fchmod"):
      os.fchmod(descriptor, 0o600)  # Whatever the umask.
    os.write(descriptor, secrets.token_bytes(KEY_BYTES))
    os.fsync(descriptor)
    os.close(descriptor)
    descriptor = None
    try:
      os.link(temporary, path)  # Atomic, and never replaces a key.
    except FileExistsError:
      pass
    except OSError:  # A file system without hard links.
      _create_key_in_place(path)
  finally:
    if descriptor is not None:
      os.close(descriptor)
    os.unlink(temporary)


def _create_key_in_place(path: Path) -> None:
  """Writes a new key straight to ``path`` (which must not exist)."""
  try:
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL |
                         _NOFOLLOW, 0o600)
  except FileExistsError:
    return
  try:
    os.write(descriptor, secrets.token_bytes(KEY_BYTES))
    os.fsync(descriptor)
  finally:
    os.close(descriptor)


def _secret_key() -> bytes | None:
  """This user's key (created on first use); None, with a warning once,
  when the key file is not private to the user or cannot be made."""
  path = key_path()
  if path is None:
    return None
  if path in _keys:
    return _keys[path]
  key = None
  try:
    try:
      key = _read_key(path)
    except FileNotFoundError:
      _create_key(path)
      key = _read_key(path)
  except RefusedFile as error:
    warnings.warn(f"spiel_ext's tree cache key {path} {error}; the disk "
                  "cache of compiled trees is not used.")
  except OSError as error:
    warnings.warn(f"spiel_ext's tree cache key {path} cannot be created "
                  f"({error}); the disk cache of compiled trees is not used.")
  _keys[path] = key
  return key


def _tag(key: bytes, chunks) -> bytes:
  digest = hashlib.blake2b(key=key, digest_size=_TAG_BYTES)
  for chunk in chunks:
    digest.update(chunk)
  return digest.digest()


def _open_for_reading(path: Path):
  """``path`` opened for reading, never through a symbolic link and only
  if it is a regular file (OSError otherwise)."""
  descriptor = os.open(path, os.O_RDONLY | _NOFOLLOW |
                       getattr(os, "O_NONBLOCK", 0))
  try:
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):
      raise OSError(f"{path} is not a regular file")
    return os.fdopen(descriptor, "rb")
  except BaseException:
    os.close(descriptor)
    raise


def _encode_keys(keys: list[str]) -> tuple[np.ndarray, np.ndarray]:
  encoded = [key.encode("utf-8") for key in keys]
  offsets = np.zeros(len(encoded) + 1, dtype=np.int64)
  np.cumsum([len(item) for item in encoded], out=offsets[1:])
  return np.frombuffer(b"".join(encoded), dtype=np.uint8), offsets


def _decode_keys(blob: np.ndarray, offsets: np.ndarray) -> list[str]:
  if (blob.dtype != np.uint8 or blob.ndim != 1 or offsets.ndim != 1 or
      offsets.dtype.kind not in "iu" or len(offsets) == 0 or offsets[0] != 0
      or offsets[-1] != len(blob) or np.any(np.diff(offsets) < 0)):
    raise RefusedFile("key_offsets do not cut key_blob into keys")
  raw = blob.tobytes()
  return [raw[offsets[i]:offsets[i + 1]].decode("utf-8")
          for i in range(len(offsets) - 1)]


def sweep_stale_temporaries(folder: Path, now: float | None = None) -> int:
  """Deletes temporary files older than an hour in ``folder``; their count.

  A writer killed mid-save leaves its temporary file; a fresh one may belong
  to a save in progress, so it stays.
  """
  now = time.time() if now is None else now
  removed = 0
  try:
    candidates = list(folder.glob("*.tmp"))
  except OSError:
    return 0
  for candidate in candidates:
    try:
      if now - candidate.stat().st_mtime > STALE_TEMPORARY_SECONDS:
        candidate.unlink()
        removed += 1
    except OSError:
      pass
  return removed


def _sweep_once(folder: Path) -> None:
  if folder not in _swept_folders:
    _swept_folders.add(folder)
    sweep_stale_temporaries(folder)


def _is_unreadable(path: Path) -> bool:
  try:
    with _open_for_reading(path):
      return False
  except FileNotFoundError:
    return False
  except OSError:
    return True


def save(game_string: str, game_fingerprint: str, arrays: dict[str, np.ndarray],
         keys: list[str]) -> Path | None:
  """Writes a tree atomically, signed with the user's key; returns the
  file, or None when not written (caching off, no usable key, the folder
  not writable, or an existing file there that cannot be read, which is
  left alone)."""
  path = cache_path(game_string, game_fingerprint)
  if path is None:
    return None
  key = _secret_key()
  if key is None:
    return None
  payload = dict(arrays)
  payload["key_blob"], payload["key_offsets"] = _encode_keys(keys)
  meta = json.dumps({"game": game_string, "format": FORMAT_VERSION,
                     "version": spiel_ext.__version__,
                     "num_histories": len(arrays["parent"]),
                     "num_infosets": len(keys)}).encode()
  payload["meta"] = np.frombuffer(meta, dtype=np.uint8)
  if _is_unreadable(path):
    return None
  temporary = None
  try:
    path.parent.mkdir(parents=True, exist_ok=True)
    _sweep_once(path.parent)
    with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".tmp",
                                     delete=False) as handle:
      temporary = handle.name
      handle.write(_HEADER + bytes(_TAG_BYTES))
      np.savez(handle, **payload)
      # The archive is signed once written (read back from the page cache
      # rather than held twice in memory).
      handle.flush()
      handle.seek(len(_HEADER) + _TAG_BYTES)
      tag = _tag(key, iter(lambda: handle.read(1 << 22), b""))
      handle.seek(len(_HEADER))
      handle.write(tag)
    # NamedTemporaryFile creates 0600; give the file what the umask allows.
    os.chmod(temporary, 0o666 & ~umask())
    os.replace(temporary, path)
  except OSError as error:
    warnings.warn(f"spiel_ext could not write its tree cache {path}: {error}")
    if temporary is not None:
      try:
        os.unlink(temporary)
      except OSError:
        pass
    return None
  return path


def load(game_string: str, game_fingerprint: str = "",
         check: TreeCheck | None = None) -> StoredTree | None:
  """Reads a cached tree; None if absent, unreadable, refused or corrupt.

  The file's signature is checked against the user's key before anything
  in it is parsed; then its arrays and keys, by ``check`` when given. An
  unreadable file is reported and kept; a refused or corrupt one is
  reported, naming the problem, and deleted.

  Args:
    game_string: the game's string.
    game_fingerprint: see :func:`spiel_ext.engine.fingerprint.
      game_fingerprint`.
    check: called with the arrays and the infoset keys; raises ValueError
      for a tree that is not the game's.

  Returns:
    (arrays, infoset keys), or None.
  """
  path = cache_path(game_string, game_fingerprint)
  if path is None:
    return None
  _sweep_once(path.parent)
  try:
    with _open_for_reading(path) as handle:
      raw = handle.read()
  except FileNotFoundError:
    return None
  except OSError as error:
    warnings.warn(f"spiel_ext tree cache {path} cannot be read ({error}); "
                  "building the tree in memory and leaving the file alone.")
    return None
  key = _secret_key()
  if key is None:
    return None
  try:
    arrays, keys = _parse(raw, game_string, key)
    if check is not None:
      check(arrays, keys)
    return arrays, keys
  except Exception as error:  # pylint: disable=broad-except
    problem = str(error).rstrip(".")
    warnings.warn(f"spiel_ext tree cache {path} is corrupt ({problem}); "
                  "deleting and rebuilding it.")
    try:
      path.unlink()
    except OSError:
      pass
    return None


def _parse(raw: bytes, game_string: str, key: bytes) -> StoredTree:
  """The arrays and keys of a file's bytes, once its signature checks."""
  if not raw.startswith(_HEADER) or len(raw) < len(_HEADER) + _TAG_BYTES:
    raise RefusedFile("it is not a spiel_ext tree file")
  body = memoryview(raw)[len(_HEADER) + _TAG_BYTES:]
  stored_tag = raw[len(_HEADER):len(_HEADER) + _TAG_BYTES]
  if not hmac.compare_digest(_tag(key, [body]), stored_tag):
    raise RefusedFile(
        f"its signature does not match this user's key {key_path()}: it was "
        "altered, or written by someone else or under another key")
  with np.load(io.BytesIO(body), allow_pickle=False) as data:
    payload = {name: data[name] for name in data.files}
  for name in ("meta", "key_blob", "key_offsets"):
    if name not in payload:
      raise RefusedFile(f"it has no {name}")
  try:
    meta = json.loads(payload.pop("meta").tobytes())
  except ValueError:
    meta = None
  if not isinstance(meta, dict):
    raise RefusedFile("its meta is not a JSON object")
  if meta.get("game") != game_string:
    raise RefusedFile(f"it holds {meta.get('game')!r}")
  if meta.get("format") != FORMAT_VERSION:
    raise RefusedFile(f"it has format {meta.get('format')!r}")
  keys = _decode_keys(payload.pop("key_blob"), payload.pop("key_offsets"))
  parent = payload.get("parent")
  counts = (len(parent) if isinstance(parent, np.ndarray) and parent.ndim == 1
            else None, len(keys))
  if counts != (meta.get("num_histories"), meta.get("num_infosets")):
    raise RefusedFile(f"it holds {counts[0]} histories and {counts[1]} "
                      f"infosets, its meta says {meta.get('num_histories')} "
                      f"and {meta.get('num_infosets')}")
  return payload, keys
