"""The one contract every spiel_ext solver and learner meets.

OpenSpiel's Python solvers share a shape (``open_spiel/python/algorithms/
cfr.py``): construct with a game, call ``evaluate_and_update_policy()`` once
per iteration, read ``average_policy()`` and ``current_policy()``. spiel_ext
keeps that shape for every solver, every learner in an unknown environment
and OpenSpiel's own CFR (through :mod:`spiel_ext.algorithms.openspiel`), and
adds what a long run needs:

- ``iteration_count``: completed iterations;
- ``progress()``: iterations and, for learners, the episodes played;
- ``config``: the hyperparameters, once, as a frozen dataclass
  (``type(solver).Config``); a solver rebuilt from its game and config and
  given a ``state_dict()`` continues exactly where the original was;
- ``state_dict()`` / ``load_state_dict()``: the state as plain data (numpy
  arrays, numbers, strings, lists and dicts of them) with a ``version``
  key, never a pickled object.

Constructors take ``(game, config=None, **keyword_shortcuts)``:
``CFRSolver(game)``, ``CFRSolver(game, alternating_updates=False)`` and
``CFRSolver(game, CFRSolver.Config(alternating_updates=False))`` are the same
solver. :func:`resolve_config` does that merge, once, for every class.

A config's fields travel in a ``state_dict()`` as plain data
(:func:`to_plain` / :func:`from_plain`): numbers, strings, None, numpy
arrays, lists and dicts of them, and the small value objects registered
with :func:`plain_data` (a rule such as ``PowerAveraging(gamma=2.0)`` or a
scope such as ``FirstDecisions(player=0)``), written as
``{"__type__": name, <their fields>}``.
"""

from __future__ import annotations

import dataclasses
import numbers
from collections.abc import Mapping
from typing import Any, NamedTuple, Protocol, TypeVar, runtime_checkable

import numpy as np

# The format of ``state_dict()``; a checkpoint of another version is refused
# with a one-line reason rather than read wrongly.
STATE_VERSION = 2

ConfigT = TypeVar("ConfigT")


class Progress(NamedTuple):
  """How far a solver has come.

  Attributes:
    iterations: completed iterations.
    episodes: episodes played in the environment (learners), or None for a
      solver that reads the game's numbers directly.
  """
  iterations: int
  episodes: int | None = None


@runtime_checkable
class SolverProtocol(Protocol):
  """What the platform, the evaluators and users may rely on.

  Attributes:
    config: the hyperparameters, a frozen dataclass (``type(solver).Config``).
  """

  config: Any

  @property
  def iteration_count(self) -> int:
    """The number of completed iterations."""

  def evaluate_and_update_policy(self) -> None:
    """Runs one iteration."""

  def average_policy(self) -> Any:
    """The average strategy profile.

    Returns:
      A policy (for spiel_ext's solvers a
      :class:`spiel_ext.policy.TabularPolicy`).
    """

  def current_policy(self) -> Any:
    """The current strategy profile.

    Returns:
      A policy (for spiel_ext's solvers a
      :class:`spiel_ext.policy.TabularPolicy`).
    """

  def progress(self) -> Progress:
    """How far the run has come.

    Returns:
      The iterations completed and, for a learner, the episodes played.
    """

  def state_dict(self) -> dict[str, Any]:
    """The state as plain data, to resume from.

    Returns:
      A dict of numpy arrays, numbers, strings, lists and dicts of them,
      with a ``version`` key.
    """

  def load_state_dict(self, state: dict[str, Any]) -> None:
    """Restores a :meth:`state_dict`, in place.

    Args:
      state: a :meth:`state_dict` of an object of the same class, game and
        config.
    """


def resolve_config(config_class: type[ConfigT], config: ConfigT | None,
                   shortcuts: dict[str, Any], owner: str) -> ConfigT:
  """``config`` (or the class's defaults) with the keyword ``shortcuts``
  applied.

  Args:
    config_class: the config dataclass.
    config: a ``config_class``, or None for its defaults.
    shortcuts: {field name: value} to replace in ``config``.
    owner: the class name errors start with.

  Returns:
    The config (``config`` itself when there are no shortcuts; the
    replaced copy is checked by the config's ``__post_init__``).

  Raises:
    TypeError: ``config`` is not a ``config_class``, or a shortcut names no
      field of it (naming the accepted fields).
  """
  if config is None:
    config = config_class()
  elif not isinstance(config, config_class):
    raise TypeError(f"{owner}: config must be a {config_class.__qualname__} "
                    f"or None; got {type(config).__name__}.")
  fields = [field.name for field in dataclasses.fields(config_class)]
  unknown = sorted(set(shortcuts) - set(fields))
  if unknown:
    raise TypeError(f"{owner}() got unexpected keyword argument(s) "
                    f"{', '.join(unknown)}; accepted: {', '.join(fields)}.")
  return dataclasses.replace(config, **shortcuts) if shortcuts else config


def check_state_version(state: dict[str, Any], owner: str) -> None:
  """Raises ValueError unless ``state`` is a state_dict of this format.

  Args:
    state: a ``state_dict()``.
    owner: the class name the error starts with.

  Raises:
    ValueError: ``state`` is not a dict whose ``version`` is
      ``STATE_VERSION``.
  """
  version = state.get("version") if isinstance(state, dict) else None
  if version != STATE_VERSION:
    raise ValueError(
        f"{owner}: this checkpoint has state format {version!r}, not "
        f"{STATE_VERSION}; it was written by another spiel_ext version. Run "
        "again without --resume.")


# ------------------------------------------------------------- plain data
# The value objects a config may hold, by class name (see plain_data).
PLAIN_TYPES: dict[str, type] = {}
_TYPE_KEY = "__type__"

T = TypeVar("T")


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
  if value is None or isinstance(value, (bool, str)):
    return value
  if isinstance(value, np.bool_):
    return bool(value)
  if isinstance(value, numbers.Integral):
    return int(value)
  if isinstance(value, numbers.Real):
    return float(value)
  if isinstance(value, np.ndarray):
    return value.copy()
  if isinstance(value, (list, tuple)):
    return [to_plain(item, f"{name}[{index}]")
            for index, item in enumerate(value)]
  if isinstance(value, Mapping):
    plain = {}
    for key, item in value.items():
      if isinstance(key, (bool, np.bool_)) or not isinstance(
          key, (str, numbers.Integral)):
        raise TypeError(f"{name} has the key {key!r}; a plain-data mapping "
                        "takes str or int keys.")
      key = key if isinstance(key, str) else int(key)
      if key == _TYPE_KEY:
        raise TypeError(f"{name} may not use the key {_TYPE_KEY!r}.")
      plain[key] = to_plain(item, f"{name}[{key!r}]")
    return plain
  if PLAIN_TYPES.get(type(value).__name__) is type(value):
    plain = {_TYPE_KEY: type(value).__name__}
    for field in dataclasses.fields(value):
      if field.init:
        plain[field.name] = to_plain(getattr(value, field.name),
                                     f"{name}.{field.name}")
    return plain
  raise TypeError(f"{name} = {value!r} has no plain-data form (numbers, "
                  "strings, arrays, lists, dicts and the value objects "
                  "registered with protocol.plain_data).")


def from_plain(value: Any) -> Any:
  """The inverse of :func:`to_plain` (lists stay lists).

  Args:
    value: plain data, as :func:`to_plain` writes it.

  Returns:
    The value, registered value objects rebuilt.

  Raises:
    ValueError: a ``__type__`` that names no registered class.
  """
  if isinstance(value, list):
    return [from_plain(item) for item in value]
  if isinstance(value, Mapping):
    if _TYPE_KEY in value:
      cls = PLAIN_TYPES.get(value[_TYPE_KEY])
      if cls is None:
        raise ValueError(f"unknown value type {value[_TYPE_KEY]!r} in a "
                         f"state; known: {sorted(PLAIN_TYPES)}.")
      return cls(**{key: from_plain(item) for key, item in value.items()
                    if key != _TYPE_KEY})
    return {key: from_plain(item) for key, item in value.items()}
  return value


def config_to_plain(config: Any, **overrides: Any) -> dict[str, Any]:
  """``{field: to_plain(value)}`` of a config dataclass; ``overrides``
  replace field values first (a solver writes, e.g., a callable scope as
  the rows it selects).

  Args:
    config: a config dataclass.
    overrides: {field name: value} written instead of the config's.

  Returns:
    {field name: plain data}, in the config's field order.

  Raises:
    TypeError: a value without a plain-data form (see :func:`to_plain`).
  """
  return {field.name: to_plain(overrides.get(field.name,
                                             getattr(config, field.name)),
                               field.name)
          for field in dataclasses.fields(config)}


def config_from_plain(config_class: type[ConfigT], plain: Any,
                      owner: str) -> ConfigT:
  """The ``config_class`` a :func:`config_to_plain` dict describes.

  Args:
    config_class: the config dataclass.
    plain: a :func:`config_to_plain` dict (fields left out take their
      defaults).
    owner: the class name errors start with.

  Returns:
    The config.

  Raises:
    ValueError: ``plain`` is not a dict of that class's fields, or a field
      fails the config's checks.
  """
  names = {field.name for field in dataclasses.fields(config_class)}
  if not isinstance(plain, Mapping) or set(plain) - names:
    extra = sorted(set(plain) - names) if isinstance(plain, Mapping) else []
    raise ValueError(f"{owner}: the checkpoint's config is not a "
                     f"{config_class.__qualname__}"
                     f"{f' (unknown fields {extra})' if extra else ''}.")
  try:
    return config_class(**{key: from_plain(value)
                           for key, value in plain.items()})
  except TypeError as error:
    raise ValueError(f"{owner}: the checkpoint's config: {error}") from None


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
