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
(:func:`~spiel_ext.algorithms.plain.to_plain` /
:func:`~spiel_ext.algorithms.plain.from_plain`, importable from here too):
numbers, strings, None, numpy arrays, lists and dicts of them, and the
small value objects registered with
:func:`~spiel_ext.algorithms.plain.plain_data` (a rule such as
``PowerAveraging(gamma=2.0)`` or a scope such as
``FirstDecisions(player=0)``), written as ``{"__type__": name, <their
fields>}``. :class:`~spiel_ext.algorithms.contract.Contract` implements
the contract once for every solver, learner and adapter.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import (TYPE_CHECKING, Any, NamedTuple, Protocol, TypeVar,
                    runtime_checkable)

from spiel_ext.algorithms.plain import (PLAIN_TYPES, from_plain, hashable,
                                        plain_data, to_plain, values_equal)

if TYPE_CHECKING:
  from _typeshed import DataclassInstance

# The one format version of ``state_dict()`` and of the checkpoint files
# that store it (:mod:`spiel_ext.results.store`); a state of another
# version is refused with a one-line reason rather than read wrongly.
FORMAT_VERSION = 2
# The name the state dicts' version has always had.
STATE_VERSION = FORMAT_VERSION

__all__ = ["FORMAT_VERSION", "STATE_VERSION", "PLAIN_TYPES", "Progress",
           "SolverProtocol", "check_state_version", "config_from_plain",
           "config_to_plain", "from_plain", "hashable", "plain_data",
           "resolve_config", "to_plain", "values_equal"]

ConfigT = TypeVar("ConfigT", bound="DataclassInstance")


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
      ``FORMAT_VERSION``.
  """
  version = state.get("version") if isinstance(state, dict) else None
  if version != FORMAT_VERSION:
    raise ValueError(
        f"{owner}: this checkpoint has state format {version!r}, not "
        f"{FORMAT_VERSION}; it was written by another spiel_ext version. Run "
        "again without --resume.")


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
