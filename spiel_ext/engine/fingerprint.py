"""What a compiled tree depends on besides its game string.

The disk cache files a tree under its game string together with

- :func:`code_fingerprint`: the cache format, spiel_ext's version and
  source, OpenSpiel's version (the C++ games) and numpy's version (the
  unknown-environment games draw their hidden parameters from numpy's
  generators); computed once per process;
- :func:`game_fingerprint`: for a game written in Python (registered with
  ``pyspiel.register_game``), a hash of the source files of its game and
  state classes and of their Python base classes, found with
  ``inspect.getsourcefile``; the same for every game nested in its
  parameters (``turn_based_simultaneous_game(game=...)``). Computed once per
  class.

A Python game whose source cannot be read, or whose source file changed
after this process started (the classes in memory may then differ from the
file), has no fingerprint: its trees are kept in memory only, never on disk.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import inspect
import os
import time
import weakref
from pathlib import Path

import numpy as np
import pyspiel

import spiel_ext

# Bump when the stored arrays change meaning or layout.
FORMAT_VERSION = 3

_PROCESS_START = time.time()
_code_fingerprint: str | None = None
_class_fingerprints: "weakref.WeakKeyDictionary[type, str | None]" = (
    weakref.WeakKeyDictionary())
# Modules of classes whose source is not the game's own (pyspiel's bindings).
_BINDING_MODULES = ("pyspiel", "pybind11_builtins", "builtins")


def code_fingerprint() -> str:
  """Hash of the cache format, spiel_ext's source and version, and the
  OpenSpiel and numpy versions (once per process)."""
  global _code_fingerprint
  if _code_fingerprint is None:
    digest = hashlib.blake2b(digest_size=16)
    digest.update(f"format={FORMAT_VERSION};spiel_ext={spiel_ext.__version__};"
                  f"numpy={np.__version__};".encode())
    try:
      digest.update(importlib.metadata.version("open_spiel").encode())
    except importlib.metadata.PackageNotFoundError:
      digest.update(b"open_spiel-unknown")
    package_root = Path(spiel_ext.__file__).parent
    for source in sorted(package_root.rglob("*.py")):
      digest.update(str(source.relative_to(package_root)).encode())
      digest.update(source.read_bytes())
    _code_fingerprint = digest.hexdigest()
  return _code_fingerprint


def game_fingerprint(game: pyspiel.Game) -> str | None:
  """Hash of the Python source ``game`` runs (empty for pure C++ games).

  None when some of it cannot be read or changed after this process
  started: such a game must not be cached on disk.
  """
  parts = []
  if type(game) is not pyspiel.Game:
    part = _class_fingerprint(type(game), game)
    if part is None:
      return None
    parts.append(part)
  for nested in _nested_games(game.get_parameters()):
    if nested is None:
      return None
    part = game_fingerprint(nested)
    if part is None:
      return None
    parts.append(part)
  return ";".join(parts)


def _nested_games(parameters: dict):
  """The games given as parameters (``game=name(...)``); None for one that
  cannot be loaded."""
  for value in parameters.values():
    if isinstance(value, dict) and "name" in value:
      nested = dict(value)
      name = nested.pop("name")
      try:
        yield pyspiel.load_game(name, nested)
      except (pyspiel.SpielError, RuntimeError, ValueError, TypeError):
        yield None


def _class_fingerprint(game_class: type, game: pyspiel.Game) -> str | None:
  """The fingerprint of a Python game class and its state class (cached)."""
  try:
    return _class_fingerprints[game_class]
  except KeyError:
    pass
  try:
    state_class = type(game.new_initial_state())
  except Exception:  # pylint: disable=broad-except
    state_class = None
  classes = list(game_class.__mro__)
  if state_class is not None:
    classes += state_class.__mro__
  fingerprint = _source_fingerprint(classes)
  _class_fingerprints[game_class] = fingerprint
  return fingerprint


def _source_fingerprint(classes: list[type]) -> str | None:
  files = set()
  for cls in classes:
    if cls.__module__.split(".")[0] in _BINDING_MODULES:
      continue
    try:
      source = inspect.getsourcefile(cls)
    except (TypeError, OSError):
      source = None
    if source is None:
      return None
    files.add(os.path.abspath(source))
  digest = hashlib.blake2b(digest_size=16)
  for source in sorted(files):
    try:
      if os.stat(source).st_mtime > _PROCESS_START:
        return None
      with open(source, "rb") as handle:
        content = handle.read()
    except OSError:
      return None
    digest.update(source.encode() + b"\0" + content + b"\0")
  return digest.hexdigest()
