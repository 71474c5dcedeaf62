"""The memory a compiled tree's numpy arrays take, each buffer counted once.

:func:`memory_report` itemises the bytes of the numpy arrays an object holds
in its attributes (a tree: its stored arrays, the derived ones and the
schedules and scratch arrays computed so far), attribute by attribute; a
buffer several attributes share (a view, a read-only alias, a slice) counts
once, under the first attribute that holds it. ``TreeLayout.nbytes`` is its
total. It looks into numpy arrays, tuples (named or not), lists, dicts
(such as the :class:`~spiel_ext.engine.schedules.PerPlayer` tables), the
calling thread's ``threading.local`` attributes and spiel_ext's own objects
(their ``__dict__`` and ``__slots__``); nothing else.
"""

from __future__ import annotations

import threading
from typing import Iterator

import numpy as np

__all__ = ["memory_report"]


def memory_report(holder: object) -> dict[str, int]:
  """Bytes of the numpy buffers ``holder``'s attributes hold, by attribute
  (in attribute order; attributes holding no new buffer left out)."""
  buffers: set[int] = set()
  visited: set[int] = {id(holder)}
  report: dict[str, int] = {}
  for name, value in _attributes(holder):
    total = 0
    for array in _arrays(value, visited):
      owner = _owner(array)
      if id(owner) not in buffers:
        buffers.add(id(owner))
        total += owner.nbytes
    if total:
      report[name] = total
  return report


def _attributes(holder: object) -> Iterator[tuple[str, object]]:
  """``holder``'s attributes: its ``__dict__``, then its ``__slots__``."""
  yield from list(getattr(holder, "__dict__", {}).items())
  for cls in type(holder).__mro__:
    for name in getattr(cls, "__slots__", ()):
      if name not in ("__dict__", "__weakref__") and hasattr(holder, name):
        yield name, getattr(holder, name)


def _arrays(value: object, visited: set[int]) -> Iterator[np.ndarray]:
  """The numpy arrays in ``value`` (see the module docstring), each object
  looked into once."""
  if isinstance(value, np.ndarray):
    yield value
    return
  if isinstance(value, (str, bytes, int, float, slice)) or (
      id(value) in visited):
    return
  visited.add(id(value))
  if isinstance(value, (tuple, list)):
    for item in value:
      yield from _arrays(item, visited)
  elif isinstance(value, dict):
    for item in value.values():
      yield from _arrays(item, visited)
  elif isinstance(value, threading.local) or (
      type(value).__module__.startswith("spiel_ext.")):
    for _, item in _attributes(value):
      yield from _arrays(item, visited)


def _owner(array: np.ndarray) -> np.ndarray:
  """The array that owns ``array``'s buffer (the last numpy array of its
  chain of bases)."""
  while isinstance(array.base, np.ndarray):
    array = array.base
  return array
