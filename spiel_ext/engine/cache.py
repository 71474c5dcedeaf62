"""On-disk cache of compiled game trees.

A tree is stored once per game string in ``$SPIEL_EXT_CACHE_DIR`` (default:
``$XDG_CACHE_HOME/spiel_ext`` or ``~/.cache/spiel_ext``); setting the variable
to an empty string turns the disk cache off. The file name hashes the game
string with the package's source, the OpenSpiel version and the cache format,
so editing a game definition or upgrading either package invalidates it. Each
file carries a checksum of its arrays; a corrupt or unreadable file is
reported, deleted and rebuilt, never used.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import os
import tempfile
import warnings
from pathlib import Path

import numpy as np

import spiel_ext

CACHE_ENV_VAR = "SPIEL_EXT_CACHE_DIR"
FORMAT_VERSION = 1

_fingerprint: str | None = None


def cache_dir() -> Path | None:
  """The cache folder, or None when caching is turned off."""
  configured = os.environ.get(CACHE_ENV_VAR)
  if configured is not None:
    return Path(configured).expanduser() if configured.strip() else None
  base = os.environ.get("XDG_CACHE_HOME") or os.path.join(
      os.path.expanduser("~"), ".cache")
  return Path(base) / "spiel_ext"


def code_fingerprint() -> str:
  """Hash of the package source and the OpenSpiel version."""
  global _fingerprint
  if _fingerprint is None:
    digest = hashlib.blake2b(digest_size=16)
    digest.update(f"format={FORMAT_VERSION};".encode())
    try:
      digest.update(importlib.metadata.version("open_spiel").encode())
    except importlib.metadata.PackageNotFoundError:
      digest.update(b"open_spiel-unknown")
    package_root = Path(spiel_ext.__file__).parent
    for source in sorted(package_root.rglob("*.py")):
      digest.update(str(source.relative_to(package_root)).encode())
      digest.update(source.read_bytes())
    _fingerprint = digest.hexdigest()
  return _fingerprint


def cache_path(game_string: str) -> Path | None:
  folder = cache_dir()
  if folder is None:
    return None
  name = hashlib.blake2b(f"{game_string}|{code_fingerprint()}".encode(),
                         digest_size=16).hexdigest()
  return folder / "trees" / f"{name}.npz"


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


def save(game_string: str, arrays: dict[str, np.ndarray],
         keys: list[str]) -> Path | None:
  """Writes a tree atomically; returns the file, or None when caching is off."""
  path = cache_path(game_string)
  if path is None:
    return None
  payload = dict(arrays)
  payload["key_blob"], payload["key_offsets"] = _encode_keys(keys)
  meta = json.dumps({"game": game_string, "format": FORMAT_VERSION,
                     "version": spiel_ext.__version__}).encode()
  payload["meta"] = np.frombuffer(meta, dtype=np.uint8)
  payload["checksum"] = np.frombuffer(_checksum(payload, meta).encode(),
                                      dtype=np.uint8)
  try:
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".tmp",
                                     delete=False) as handle:
      np.savez(handle, **payload)
    os.replace(handle.name, path)
  except OSError as error:
    warnings.warn(f"spiel_ext could not write its tree cache {path}: {error}")
    return None
  return path


def load(game_string: str) -> tuple[dict[str, np.ndarray], list[str]] | None:
  """Reads a cached tree; None if absent. A corrupt file is deleted."""
  path = cache_path(game_string)
  if path is None or not path.exists():
    return None
  try:
    with np.load(path, allow_pickle=False) as data:
      payload = {name: data[name] for name in data.files}
    checksum = payload.pop("checksum").tobytes().decode()
    meta_bytes = payload["meta"].tobytes()
    meta = json.loads(meta_bytes)
    if meta.get("game") != game_string:
      raise ValueError(f"it holds {meta.get('game')!r}")
    if _checksum(payload, meta_bytes) != checksum:
      raise ValueError("checksum mismatch")
    keys = _decode_keys(payload.pop("key_blob"), payload.pop("key_offsets"))
    payload.pop("meta")
    return payload, keys
  except Exception as error:  # pylint: disable=broad-except
    warnings.warn(f"spiel_ext tree cache {path} is corrupt ({error}); "
                  "rebuilding it.")
    try:
      path.unlink()
    except OSError:
      pass
    return None
