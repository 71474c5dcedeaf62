"""Plain data: the one serializer of configs, state dicts and checkpoint
files.

Plain data is None, bools, numbers, strings, numpy arrays, lists and
dicts of them. One walk (:func:`encode`) writes a value in one of three
forms, and one walk (:func:`decode`) reads the first two back:

- :data:`CONFIG`: a config value as plain data (:func:`to_plain`):
  numpy scalars as Python numbers, tuples as lists, and the small value
  objects registered with :func:`plain_data` (a rule such as
  ``PowerAveraging(gamma=2.0)``) as ``{"__type__": name, <fields>}``;
- the document form: a state dict as JSON-able data whose numpy arrays
  and scalars move to a table of named arrays (:func:`to_document`), how
  a checkpoint file stores it;
- :data:`HASHABLE`: a hashable stand-in of a config value (:func:`hashable`).

:func:`values_equal` compares config values (arrays by their entries).
"""

from __future__ import annotations

import dataclasses
import numbers
from collections.abc import Mapping
from typing import Any, Callable, Protocol, TypeVar

import numpy as np

# The value objects a config may hold, by class name (see plain_data).
PLAIN_TYPES: dict[str, type] = {}
_TYPE_KEY = "__type__"
# Markers of the document form, for values JSON has no form of. A mapping
# whose keys are not all strings, or that uses a marker as a key, is
# written as its items.
_ARRAY, _SCALAR, _TUPLE, _ITEMS = ("__array__", "__scalar__", "__tuple__",
                                   "__items__")
_MARKERS = (_ARRAY, _SCALAR, _TUPLE, _ITEMS)
# What a form's leaf returns for a container (or an object) to walk into.
_WALK = object()

T = TypeVar("T")
Walk = Callable[[Any, str], Any]


class DecodeWalk(Protocol):
  """The inverse walk handed to a ``decode`` reader (``at`` is optional)."""

  def __call__(self, item: Any, at: str = "", /) -> Any:
    ...  # pragma: no cover


def plain_data(cls: type[T]) -> type[T]:
  """Class decorator: instances of the dataclass ``cls`` may be config
  values; they are written as ``{"__type__": cls.__name__, <fields>}``
  and read back by calling ``cls(**fields)``. Only registered classes are
  ever instantiated from a state.

  Args:
    cls: a dataclass.

  Returns:
    ``cls`` itself, registered.

  Raises:
    TypeError: ``cls`` is not a dataclass.
    ValueError: another class of the same name is registered.
  """
  if not dataclasses.is_dataclass(cls):
    raise TypeError(f"plain_data: {cls.__name__} is not a dataclass.")
  known = PLAIN_TYPES.get(cls.__name__)
  if known is not None and ((known.__module__, known.__qualname__) !=
                            (cls.__module__, cls.__qualname__)):
    # A state names the class only; a second class of that name would
    # silently take the first one's place in every state read afterwards.
    raise ValueError(
        f"plain_data: two classes named {cls.__name__} ({known.__module__} "
        f"and {cls.__module__}); give the new one another name.")
  PLAIN_TYPES[cls.__name__] = cls
  return cls


class Form:
  """How :func:`encode` writes what it meets; the base writes lists and
  tuples as lists and mappings as dicts, and refuses anything else.

  Attributes:
    mapping_types: the mapping classes the form walks into.
  """

  mapping_types: tuple[type[Mapping], ...] = (Mapping,)

  def leaf(self, value: Any, where: str) -> Any:
    """``value`` written, or ``_WALK`` to walk into it.

    Args:
      value: the value met.
      where: what to call it in error messages.

    Returns:
      The written value, or ``_WALK``.
    """
    del where
    if value is None or isinstance(value, (bool, str)):
      return value
    return _WALK

  def sequence(self, items: list[Any], value: Any) -> Any:
    """A list or tuple, its ``items`` written.

    Args:
      items: the written items.
      value: the list or tuple.

    Returns:
      The written sequence.
    """
    del value
    return items

  def mapping(self, value: Mapping, where: str, walk: Walk) -> Any:
    """A mapping, each item written with ``walk(item, where)``.

    Args:
      value: the mapping.
      where: what to call it in error messages.
      walk: writes a nested value.

    Returns:
      The written mapping.
    """
    return {key: walk(item, f"{where}[{key!r}]")
            for key, item in value.items()}

  def other(self, value: Any, where: str, walk: Walk) -> Any:
    """Anything else.

    Args:
      value: the value.
      where, walk: as for :meth:`mapping`.

    Returns:
      The written value.

    Raises:
      TypeError: naming ``where``; the value has no form here.
    """
    del walk
    raise TypeError(f"{where} = {value!r} has no plain-data form.")


def encode(value: Any, form: Form, where: str = "value") -> Any:
  """``value`` written in ``form``: the one walk of every plain-data
  writer.

  Args:
    value: the value.
    form: how to write it.
    where: what to call it in error messages.

  Returns:
    The written value.

  Raises:
    TypeError: naming where, for a value the form has no way to write.
  """
  def walk(item: Any, at: str) -> Any:
    return encode(item, form, at)

  written = form.leaf(value, where)
  if written is not _WALK:
    return written
  if isinstance(value, (list, tuple)):
    return form.sequence([walk(item, f"{where}[{index}]")
                          for index, item in enumerate(value)], value)
  if isinstance(value, form.mapping_types):
    return form.mapping(value, where, walk)
  return form.other(value, where, walk)


def decode(value: Any, special: Callable[[Mapping, DecodeWalk], Any]) -> Any:
  """The inverse walk: lists item by item, mappings key by key unless
  ``special`` reads them (it returns ``_WALK`` for a plain mapping).

  Args:
    value: written data.
    special: reads a marked mapping, given the walk for nested values.

  Returns:
    The value read back.
  """
  def walk(item: Any, at: str = "") -> Any:
    del at
    return decode(item, special)

  if isinstance(value, list):
    return [walk(item) for item in value]
  if not isinstance(value, Mapping):
    return value
  read = special(value, walk)
  if read is not _WALK:
    return read
  return {key: walk(item) for key, item in value.items()}


class _ConfigForm(Form):
  """Config values as plain data (see :func:`to_plain`)."""

  def leaf(self, value: Any, where: str) -> Any:
    if isinstance(value, np.bool_):
      return bool(value)
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
      if isinstance(value, np.ndarray):
        return value.copy()
      return super().leaf(value, where)
    return int(value) if isinstance(value, numbers.Integral) else float(
        value)

  def mapping(self, value: Mapping, where: str, walk: Walk) -> Any:
    plain = {}
    for key, item in value.items():
      if isinstance(key, (bool, np.bool_)) or not isinstance(
          key, (str, numbers.Integral)):
        raise TypeError(f"{where} has the key {key!r}; a plain-data mapping "
                        "takes str or int keys.")
      key = key if isinstance(key, str) else int(key)
      if key == _TYPE_KEY:
        raise TypeError(f"{where} may not use the key {_TYPE_KEY!r}.")
      plain[key] = walk(item, f"{where}[{key!r}]")
    return plain

  def other(self, value: Any, where: str, walk: Walk) -> Any:
    if PLAIN_TYPES.get(type(value).__name__) is type(value):
      plain = {_TYPE_KEY: type(value).__name__}
      # A registered class is a dataclass (mypy narrows value to object).
      for field in dataclasses.fields(value):  # type: ignore[arg-type]
        if field.init:
          plain[field.name] = walk(getattr(value, field.name),
                                   f"{where}.{field.name}")
      return plain
    raise TypeError(f"{where} = {value!r} has no plain-data form (numbers, "
                    "strings, arrays, lists, dicts and the value objects "
                    "registered with protocol.plain_data).")


class _HashableForm(Form):
  """Hashable stand-ins of config values (see :func:`hashable`)."""

  def leaf(self, value: Any, where: str) -> Any:
    if isinstance(value, np.ndarray):
      return (value.shape, value.dtype.str, value.tobytes())
    if isinstance(value, (list, tuple, Mapping)):
      return _WALK
    return value

  def sequence(self, items: list[Any], value: Any) -> Any:
    return tuple(items)

  def mapping(self, value: Mapping, where: str, walk: Walk) -> Any:
    return tuple(sorted((repr(key), walk(item, where))
                        for key, item in value.items()))


class _DocumentForm(Form):
  """A state dict as JSON-able data, its numpy arrays and scalars moved
  to ``arrays`` (see :func:`to_document`).

  Args:
    arrays: {name: array}, filled as the walk meets arrays.
  """

  mapping_types = (dict,)

  def __init__(self, arrays: dict[str, np.ndarray]):
    self.arrays = arrays

  def leaf(self, value: Any, where: str) -> Any:
    if isinstance(value, (int, float)) and not isinstance(value, np.generic):
      return value
    if not isinstance(value, (np.ndarray, np.generic)):
      return super().leaf(value, where)
    array = np.asarray(value)
    if array.dtype.hasobject or array.dtype.kind not in "biufcUS":
      raise TypeError(f"checkpoint value {where} is an array of "
                      f"{array.dtype}, not of numbers or text.")
    name = f"a{len(self.arrays)}"
    self.arrays[name] = array
    return {_ARRAY if isinstance(value, np.ndarray) else _SCALAR: name}

  def sequence(self, items: list[Any], value: Any) -> Any:
    return items if isinstance(value, list) else {_TUPLE: items}

  def mapping(self, value: Mapping, where: str, walk: Walk) -> Any:
    if all(isinstance(key, str) and key not in _MARKERS for key in value):
      return super().mapping(value, where, walk)
    return {_ITEMS: [[walk(key, f"{where} key"),
                      walk(item, f"{where}[{key!r}]")]
                     for key, item in value.items()]}

  def other(self, value: Any, where: str, walk: Walk) -> Any:
    raise TypeError(f"checkpoint value {where} is a {type(value).__name__}, "
                    "not plain data (numbers, strings, numpy arrays, lists, "
                    "tuples and dicts of them).")


CONFIG = _ConfigForm()
HASHABLE = _HashableForm()


def to_plain(value: Any, name: str = "value") -> Any:
  """``value`` as plain data: None, bool, int, float and str as they are
  (numpy scalars as Python numbers), numpy arrays copied, tuples and lists
  as lists, mappings as dicts (str or int keys), registered value objects
  as ``{"__type__": ..., <fields>}``.

  Args:
    value: the value to convert.
    name: what to call the value in error messages.

  Returns:
    The plain data.

  Raises:
    TypeError: naming ``name``, for anything else (a lambda, an object
      without a plain-data form).
  """
  return encode(value, CONFIG, name)


def _read_type(value: Mapping, walk: DecodeWalk) -> Any:
  """A registered value object, or ``_WALK`` for a plain mapping."""
  if _TYPE_KEY not in value:
    return _WALK
  cls = PLAIN_TYPES.get(value[_TYPE_KEY])
  if cls is None:
    raise ValueError(f"unknown value type {value[_TYPE_KEY]!r} in a "
                     f"state; known: {sorted(PLAIN_TYPES)}.")
  return cls(**{key: walk(item) for key, item in value.items()
                if key != _TYPE_KEY})


def from_plain(value: Any) -> Any:
  """The inverse of :func:`to_plain` (lists stay lists).

  Args:
    value: plain data, as :func:`to_plain` writes it.

  Returns:
    The value, registered value objects rebuilt.

  Raises:
    ValueError: a ``__type__`` that names no registered class.
  """
  return decode(value, _read_type)


def hashable(value: Any) -> Any:
  """A hashable stand-in for a config value (arrays by their bytes,
  sequences as tuples, mappings as sorted items).

  Args:
    value: a config value.

  Returns:
    A hashable value, equal for equal values.
  """
  return encode(value, HASHABLE)


def to_document(value: Any, arrays: dict[str, np.ndarray],
                where: str = "checkpoint") -> Any:
  """A state dict (None, bools, numbers, strings, numpy arrays and
  scalars, lists, tuples and dicts of them) as JSON-able data, its arrays
  moved to ``arrays``; :func:`from_document` gives it back exactly.

  Args:
    value: the state dict.
    arrays: {name: array}, filled with the arrays.
    where: what to call the value in error messages.

  Returns:
    The JSON-able document.

  Raises:
    TypeError: a value that is not plain data (naming where it is).
  """
  return encode(value, _DocumentForm(arrays), where)


def from_document(value: Any, arrays: Mapping[str, np.ndarray]) -> Any:
  """The inverse of :func:`to_document`.

  Args:
    value: a document.
    arrays: the arrays :func:`to_document` moved out, by name.

  Returns:
    The state dict.

  Raises:
    KeyError: a marker naming an array that is not in ``arrays``.
  """
  def special(mapping: Mapping, walk: DecodeWalk) -> Any:
    if len(mapping) != 1:
      return _WALK
    (key, item), = mapping.items()
    if key == _ARRAY:
      return arrays[item]
    if key == _SCALAR:
      return arrays[item][()]
    if key == _TUPLE:
      return tuple(walk(entry) for entry in item)
    if key == _ITEMS:
      return {walk(entry_key): walk(entry) for entry_key, entry in item}
    return _WALK

  return decode(value, special)


def values_equal(first: Any, second: Any) -> bool:
  """Equality of config values: arrays by shape and entries, mappings and
  sequences item by item, anything else by ``is`` or ``==``.

  Args:
    first: a config value.
    second: another.

  Returns:
    Whether they are equal (False where ``==`` raises).
  """
  if first is second:
    return True
  if isinstance(first, np.ndarray) or isinstance(second, np.ndarray):
    return (isinstance(first, np.ndarray) and
            isinstance(second, np.ndarray) and
            first.shape == second.shape and
            bool(np.array_equal(first, second)))
  if isinstance(first, Mapping) or isinstance(second, Mapping):
    return (isinstance(first, Mapping) and isinstance(second, Mapping) and
            first.keys() == second.keys() and
            all(values_equal(first[key], second[key]) for key in first))
  if isinstance(first, (list, tuple)) or isinstance(second, (list, tuple)):
    return (isinstance(first, (list, tuple)) and
            isinstance(second, (list, tuple)) and
            len(first) == len(second) and
            all(values_equal(a, b) for a, b in zip(first, second)))
  try:
    return bool(first == second)
  except (TypeError, ValueError):
    return False
