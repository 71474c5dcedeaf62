"""On-disk cache of compiled game trees.

A tree is stored once per game in ``$SPIEL_EXT_CACHE_DIR`` (default:
``$XDG_CACHE_HOME/spiel_ext`` or ``~/.cache/spiel_ext``); setting the variable
to an empty string turns the disk cache off. The file name hashes the game
string with everything the tree depends on (see
:mod:`spiel_ext.engine.fingerprint`): spiel_ext's source and version, the
OpenSpiel and numpy versions, and the source of a game written in Python, so
editing a game definition or upgrading a package makes a new file. A Python
game whose source cannot be read is never stored on disk.

Each file carries a checksum of its arrays. A file whose content is corrupt
is reported, deleted and rebuilt; a file that cannot be read (permissions)
is reported and left alone, and the tree is built in memory. Files are
written atomically (a temporary file, then a rename) with the permissions
the umask allows, so a cache folder can be shared by a group; temporary
files a killed process left behind are deleted after an hour.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

import spiel_ext
from spiel_ext.engine.fingerprint import FORMAT_VERSION, code_fingerprint
from spiel_ext.files import umask

CACHE_ENV_VAR = "SPIEL_EXT_CACHE_DIR"
# A temporary file older than this belongs to a writer that died.
STALE_TEMPORARY_SECONDS = 3600.0

_swept_folders: set[Path] = set()

StoredTree = tuple[dict[str, np.ndarray], list[str]]


def cache_dir() -> Path | None:
  """The cache folder, or None when caching is turned off."""
  configured = os.environ.get(CACHE_ENV_VAR)
  if configured is not None:
    return Path(configured).expanduser() if configured.strip() else None
  base = os.environ.get("XDG_CACHE_HOME") or os.path.join(
      os.path.expanduser("~"), ".cache")
  return Path(base) / "spiel_ext"


def cache_path(game_string: str, game_fingerprint: str = "") -> Path | None:
  """Where the tree of this game is stored; None when caching is off."""
  folder = cache_dir()
  if folder is None:
    return None
  name = hashlib.blake2b(
      f"{game_string}|{code_fingerprint()}|{game_fingerprint}".encode(),
      digest_size=16).hexdigest()
  return folder / "trees" / f"{name}.npz"


def _open_for_reading(path: Path):
  return open(path, "rb")


def _checksum(arrays: dict[str, np.ndarray], meta: bytes) -> str:
  digest = hashlib.blake2b(digest_size=16)
  digest.update(meta)
  for name in sorted(arrays):
    value = np.ascontiguousarray(arrays[name])
    digest.update(name.encode())
    digest.update(str(value.dtype).encode() + str(value.shape).encode())
    digest.update(value.data)
  return digest.hexdigest()


def _encode_keys(keys: list[str]) -> tuple[np.ndarray, np.ndarray]:
  encoded = [key.encode("utf-8") for key in keys]
  offsets = np.zeros(len(encoded) + 1, dtype=np.int64)
  np.cumsum([len(item) for item in encoded], out=offsets[1:])
  return np.frombuffer(b"".join(encoded), dtype=np.uint8), offsets


def _decode_keys(blob: np.ndarray, offsets: np.ndarray) -> list[str]:
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
  """Writes a tree atomically; returns the file, or None when not written
  (caching off, the folder not writable, or an existing file there that
  cannot be read, which is left alone)."""
  path = cache_path(game_string, game_fingerprint)
  if path is None:
    return None
  payload = dict(arrays)
  payload["key_blob"], payload["key_offsets"] = _encode_keys(keys)
  meta = json.dumps({"game": game_string, "format": FORMAT_VERSION,
                     "version": spiel_ext.__version__}).encode()
  payload["meta"] = np.frombuffer(meta, dtype=np.uint8)
  payload["checksum"] = np.frombuffer(_checksum(payload, meta).encode(),
                                      dtype=np.uint8)
  if _is_unreadable(path):
    return None
  temporary = None
  try:
    path.parent.mkdir(parents=True, exist_ok=True)
    _sweep_once(path.parent)
    with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".tmp",
                                     delete=False) as handle:
      temporary = handle.name
      np.savez(handle, **payload)
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


def load(game_string: str, game_fingerprint: str = "") -> StoredTree | None:
  """Reads a cached tree; None if absent, unreadable or corrupt.

  An unreadable file is reported and kept; a corrupt one is reported and
  deleted.
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
  try:
    return _parse(raw, game_string)
  except Exception as error:  # pylint: disable=broad-except
    warnings.warn(f"spiel_ext tree cache {path} is corrupt ({error}); "
                  "deleting and rebuilding it.")
    try:
      path.unlink()
    except OSError:
      pass
    return None


def _parse(raw: bytes, game_string: str) -> StoredTree:
  with np.load(io.BytesIO(raw), allow_pickle=False) as data:
    payload = {name: data[name] for name in data.files}
  checksum = payload.pop("checksum").tobytes().decode()
  meta_bytes = payload["meta"].tobytes()
  meta = json.loads(meta_bytes)
  if meta.get("game") != game_string:
    raise ValueError(f"it holds {meta.get('game')!r}")
  if meta.get("format") != FORMAT_VERSION:
    raise ValueError(f"it has format {meta.get('format')!r}")
  if _checksum(payload, meta_bytes) != checksum:
    raise ValueError("checksum mismatch")
  keys = _decode_keys(payload.pop("key_blob"), payload.pop("key_offsets"))
  payload.pop("meta")
  return payload, keys
