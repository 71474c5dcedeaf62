"""Native tree builders: games that make their compiled arrays from their
rules instead of through pyspiel states.

The compiler (:mod:`.compiler`) enumerates any game by walking its
``pyspiel.State`` objects, about 10 us per history for a game written in
Python. A game may instead have a *native builder*, a function
``builder(game, limit) -> (arrays, keys)`` that returns exactly what the
walk would: the arrays of :mod:`.layout` (without ``perfect_recall``, which
the compiler adds), with the same histories in the same pre-order, and the
information-state string of every infoset row. It must respect ``limit``
(:class:`~.admission.SizeLimit`) as the walk does, refusing a tree above it
with ``limit.error(...)`` before building it. It may return None to leave
the game to the walk.

A game gets a builder in one of two ways:

- :func:`register_native_builder` under its short name;
- its game class names one in a ``native_tree_builder`` attribute, as
  ``"package.module:function"``, imported on the game's first compile. This
  is how spiel_ext's own games declare theirs: their modules are imported
  by ``import spiel_ext``, which must not import the engine or numba, and
  the engine does not import the games (imports point down the layers).

A registered builder takes precedence over the class attribute. The disk
cache's key hashes spiel_ext's source (:mod:`.fingerprint`), so editing a
builder inside the package makes new cache files; the source of a builder
outside the package is not hashed: clear the cache after changing one.
"""

from __future__ import annotations

import importlib
from typing import Callable, Optional

import numpy as np
import pyspiel

from spiel_ext.engine.admission import SizeLimit

__all__ = ["NativeBuilder", "native_builder", "register_native_builder"]

TreeArrays = tuple[dict[str, np.ndarray], list[str]]
NativeBuilder = Callable[[pyspiel.Game, SizeLimit], Optional[TreeArrays]]

_BUILDERS: dict[str, NativeBuilder] = {}


def register_native_builder(short_name: str, builder: NativeBuilder) -> None:
  """Makes ``builder`` compile every game whose type has ``short_name``.

  Args:
    short_name: the game's ``get_type().short_name``.
    builder: ``builder(game, limit)`` returning ``(arrays, keys)`` exactly as
      the compiler's walk would, or None to leave the game to the walk.

  Raises:
    TypeError: ``short_name`` is not a string or ``builder`` not callable.
  """
  if not isinstance(short_name, str):
    raise TypeError(f"short_name must be a string; got {short_name!r}.")
  if not callable(builder):
    raise TypeError(f"builder must be callable; got {builder!r}.")
  _BUILDERS[short_name] = builder


def native_builder(game: pyspiel.Game) -> NativeBuilder | None:
  """The native builder of ``game``, or None when it has none."""
  builder = _BUILDERS.get(game.get_type().short_name)
  if builder is not None:
    return builder
  declared = getattr(type(game), "native_tree_builder", None)
  if not isinstance(declared, str):
    return None
  module_name, _, function_name = declared.partition(":")
  return getattr(importlib.import_module(module_name), function_name)
