"""The solver contract's plumbing, written once for every class that meets
it.

Full-width solvers (:class:`spiel_ext.algorithms.base.Solver`), learners
in unknown environments (:class:`spiel_ext.algorithms.learner_base.
EpisodeLearner`) and the adapters of OpenSpiel's own CFR
(:mod:`spiel_ext.algorithms.openspiel`) all inherit :class:`Contract`:

- the config: one frozen :class:`SolverConfig` subclass per class
  (``type(obj).Config``), merged with the constructor's keyword shortcuts
  (:meth:`Contract._resolve`, renamed keywords included);
- the constructor's signature, synthesised from the config for
  ``inspect.signature`` and ``help`` (:func:`constructor_signature`);
- one registry of the classes by name, for :meth:`Contract.from_state_dict`;
- ``state_dict()`` / ``load_state_dict()``: the header (format version,
  class, game, config, iteration, the random generator) written and
  checked here, the config compared field by field; a class adds only its
  own arrays (:meth:`Contract._save_state` / :meth:`Contract._load_state`),
  checked on load with :func:`check_array` (shape, dtype, finite entries,
  and the range of what each holds: ``ARRAY_RANGES``). A checkpoint is
  untrusted input: a misfit is refused in one line naming the field;
- pickling, through the state dict.

A state names its class under ``_CLASS_KEY``: ``"solver"`` for solvers and
adapters, ``"learner"`` for learners (whose states hold their inner
solver's state under ``"solver"``).
"""

from __future__ import annotations

import dataclasses
import inspect
import warnings
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np

from spiel_ext.algorithms.checks import short_repr
from spiel_ext.algorithms.protocol import (FORMAT_VERSION, Progress,
                                           check_state_version,
                                           config_from_plain, config_to_plain,
                                           hashable, resolve_config,
                                           values_equal)


def config_property(name: str, what: str) -> property:
  """A read-only property giving ``self.config.<name>``: a config field
  read as an attribute of the object holding the config.

  Args:
    name: the config field.
    what: what the field is; the property's docstring is ``what`` followed
      by (``config.<name>``).

  Returns:
    The property.
  """
  return property(lambda self: getattr(self.config, name),
                  doc=f"{what} (``config.{name}``).")


def set_field(config: Any, name: str, value: Any) -> None:
  """Stores a checked, normalised value in a frozen config (for
  ``__post_init__``).

  Args:
    config: the frozen config dataclass.
    name: the field's name.
    value: the value to store.
  """
  object.__setattr__(config, name, value)


@dataclasses.dataclass(frozen=True, eq=False)
class SolverConfig:
  """Base class of every solver's, learner's and adapter's config.

  A config is a frozen dataclass whose ``__post_init__`` checks and
  normalises its own fields, then calls ``super().__post_init__()`` (so
  a config extending two others checks the fields of both, in the order
  of its bases). Configs compare by value, arrays included; subclasses
  are declared with ``@dataclasses.dataclass(frozen=True, eq=False)`` to
  keep that equality.
  """

  def __post_init__(self) -> None:
    """The end of the chain of checks (nothing to check here)."""

  def __eq__(self, other: Any) -> bool:
    if type(other) is not type(self):
      return NotImplemented
    return all(values_equal(getattr(self, field.name),
                            getattr(other, field.name))
               for field in dataclasses.fields(self))

  def __hash__(self) -> int:
    return hash((type(self).__name__,) + tuple(
        hashable(getattr(self, field.name))
        for field in dataclasses.fields(self)))

  def replace(self, **changes: Any) -> "SolverConfig":
    """A copy with ``changes`` (checked again).

    Args:
      changes: {field name: new value}.

    Returns:
      A new config of the same class.

    Raises:
      TypeError: a keyword naming no field, or a value of the wrong type.
      ValueError: a value out of range.
    """
    return dataclasses.replace(self, **changes)


def constructor_signature(cls: type[Contract]) -> inspect.Signature:
  """``(game, <OpenSpiel's positional arguments>, config=None, *,
  <the config's fields>)``: what the constructor accepts, for
  ``inspect.signature`` and ``help``.

  Args:
    cls: a :class:`Contract` subclass (its ``Config`` and
      ``_POSITIONAL``).

  Returns:
    The signature, with the config's defaults.
  """
  positional = inspect.Parameter.POSITIONAL_OR_KEYWORD
  keyword = inspect.Parameter.KEYWORD_ONLY
  fields = {field.name: field for field in dataclasses.fields(cls.Config)}

  def default(name: str) -> Any:
    field = fields[name]
    if field.default is not dataclasses.MISSING:
      return field.default
    # A field without a default has a default factory.
    return field.default_factory()  # type: ignore[operator]

  parameters = [inspect.Parameter("game", positional)]
  parameters += [inspect.Parameter(name, positional, default=default(name))
                 for name in cls._POSITIONAL]
  parameters.append(inspect.Parameter(
      "config", keyword if cls._POSITIONAL else positional, default=None))
  parameters += [inspect.Parameter(name, keyword, default=default(name))
                 for name in fields if name not in cls._POSITIONAL]
  return inspect.Signature(parameters)


# Every class meeting the contract, by name, for Contract.from_state_dict.
_CLASSES: dict[str, type] = {}


# What the values of the state arrays mean, by name (a name not listed
# holds any finite numbers): "nonnegative" (sums of weights, counts),
# "unit" (entries in [0, 1]: reach probabilities, uniform draws) or
# "strategy" (rows of probabilities summing to 1).
ARRAY_RANGES: dict[str, str] = {
    "cumulative_policy": "nonnegative", "cumulative_reach": "nonnegative",
    "average_sequence": "nonnegative", "decision_counts": "nonnegative",
    "_next_block": "nonnegative", "own_reach": "unit", "_uniforms": "unit",
    "_current": "strategy", "sigma": "strategy", "initial_sigma": "strategy",
    "current_policy": "strategy",
}
# How far a loaded strategy's entries may be outside [0, 1] and its rows'
# sums from 1 (what rounding leaves after many updates).
_STRATEGY_TOLERANCE = 1e-6


def check_values(name: str, value: np.ndarray, owner: str = "") -> None:
  """Raises ValueError unless ``value`` is finite and in the range
  ``ARRAY_RANGES`` gives its name.

  Args:
    name: the array's key in the state.
    value: a numeric array.
    owner: the class name the error starts with ("" for none).

  Raises:
    ValueError: one line naming the array and what is wrong.
  """
  start = (f"{owner}: " if owner else "") + (
      f"checkpoint array {name} is corrupt:")
  if value.dtype.kind == "b":
    return
  if not np.all(np.isfinite(value)):
    raise ValueError(f"{start} non-finite entries.")
  kind = ARRAY_RANGES.get(name)
  if kind == "nonnegative" and np.any(value < 0):
    raise ValueError(f"{start} negative entries (it must be >= 0); "
                     f"minimum {value.min()!r}.")
  if kind in ("unit", "strategy") and (
      np.any(value < -_STRATEGY_TOLERANCE) or
      np.any(value > 1.0 + _STRATEGY_TOLERANCE)):
    raise ValueError(f"{start} entries outside [0, 1] (it holds "
                     f"probabilities); range [{value.min()!r}, "
                     f"{value.max()!r}].")
  if kind == "strategy" and value.ndim >= 1 and value.size:
    sums = value.reshape(-1, value.shape[-1]).sum(axis=1)
    off = np.abs(sums - 1.0) > _STRATEGY_TOLERANCE
    if np.any(off):
      row = int(np.flatnonzero(off)[0])
      raise ValueError(f"{start} not a strategy, row {row} sums to "
                       f"{sums[row]!r}, not 1.")


def check_array(state: Mapping, name: str, like: np.ndarray,
                owner: str = "") -> np.ndarray:
  """``state[name]`` checked against the array it replaces.

  Args:
    state: a state dict.
    name: the array's key.
    like: the array of the object loading the state.
    owner: the class name errors start with (none when empty).

  Returns:
    ``state[name]`` as an array (not copied).

  Raises:
    ValueError: the array is missing, of another shape, not numeric, with
      non-finite entries, or outside the range of what it holds (see
      ``ARRAY_RANGES``).
  """
  start = f"{owner}: checkpoint" if owner else "checkpoint"
  if name not in state:
    raise ValueError(f"{start} has no array {name}.")
  try:
    value = np.asarray(state[name])
  except (TypeError, ValueError) as error:
    raise ValueError(f"{start} array {name} is corrupt: not an array "
                     f"({error}).") from None
  if value.shape != like.shape:
    raise ValueError(f"{start} array {name} is corrupt: shape "
                     f"{value.shape}, expected {like.shape}.")
  if value.dtype.kind not in "biuf":
    raise ValueError(f"{start} array {name} is corrupt: dtype "
                     f"{value.dtype}, not numeric.")
  check_values(name, value, owner)
  return value


def check_count(state: Mapping, name: str, owner: str) -> int:
  """``state[name]`` as an int, checked to be a whole number >= 0.

  Args:
    state: a state dict.
    name: the field (``"iteration"``, ``"episodes"``).
    owner: the class name the error starts with.

  Returns:
    The count.

  Raises:
    ValueError: the field is missing, not an integer, or negative.
  """
  value = state.get(name) if isinstance(state, Mapping) else None
  if isinstance(value, np.ndarray) and value.ndim == 0:
    value = value.item()
  if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
    raise ValueError(f"{owner}: checkpoint field {name} must be an integer "
                     f">= 0; got {short_repr(value)}.")
  if value < 0:
    raise ValueError(f"{owner}: checkpoint field {name} must be >= 0; got "
                     f"{int(value)}.")
  return int(value)


class Contract:
  """The solver contract's plumbing (see the module docstring).

  A subclass sets ``Config`` and, in its constructor, ``self._config``
  (through :meth:`_resolve`), ``self._iteration`` and, if it draws random
  numbers, ``self._rng``; it says which game it runs on
  (:meth:`_game_string`) and saves and loads its own arrays.
  """

  Config: ClassVar[type[SolverConfig]] = SolverConfig
  # Config fields OpenSpiel's constructor takes positionally after the game
  # (``DCFRSolver(game, 1.5, 0, 2)``).
  _POSITIONAL: ClassVar[tuple[str, ...]] = ()
  # Keywords that were renamed: {old keyword: config field}.
  _RENAMED: ClassVar[dict[str, str]] = {}
  # The state key naming the class.
  _CLASS_KEY: ClassVar[str] = "solver"
  # Config fields a loaded state may differ in (what they set, the state
  # replaces).
  _FREE_FIELDS: ClassVar[tuple[str, ...]] = ("seed",)
  _rng: np.random.Generator | None = None
  _iteration: int = 0
  # Set by the subclass's constructor.
  _config: Any
  # Set on each subclass by __init_subclass__.
  __signature__: ClassVar[inspect.Signature]

  def __init_subclass__(cls, **kwargs: Any) -> None:
    super().__init_subclass__(**kwargs)
    cls.__signature__ = constructor_signature(cls)
    _CLASSES[cls.__name__] = cls

  @classmethod
  def _resolve(cls, config: Any, shortcuts: dict[str, Any]) -> Any:
    """The config of ``config`` and the keyword ``shortcuts`` (renamed
    keywords accepted, with a DeprecationWarning)."""
    for old, new in cls._RENAMED.items():
      if old in shortcuts:
        if new in shortcuts:
          raise TypeError(f"{cls.__name__}() got both {old}= and {new}=; "
                          f"{old}= is the old name of {new}=.")
        warnings.warn(f"{cls.__name__}({old}=...) is deprecated; use "
                      f"{new}=...", DeprecationWarning, stacklevel=3)
        shortcuts[new] = shortcuts.pop(old)
    return resolve_config(cls.Config, config, shortcuts, cls.__name__)

  # ------------------------------------------------------------- contract
  @property
  def config(self) -> Any:
    """The hyperparameters (``type(self).Config``)."""
    return self._config

  @property
  def iteration_count(self) -> int:
    """Number of completed iterations."""
    return self._iteration

  def progress(self) -> Progress:
    """Iterations completed and, for a learner, the episodes played.

    Returns:
      ``Progress(iteration_count, episodes or None)``.
    """
    return Progress(self.iteration_count, self._episodes())

  def iteration(self) -> None:
    """Alias of ``evaluate_and_update_policy()``."""
    self.evaluate_and_update_policy()

  def evaluate_and_update_policy(self) -> None:
    """Runs one iteration (each class says what it does)."""
    raise NotImplementedError

  def _episodes(self) -> int | None:
    """Episodes played (None: the class plays none)."""
    return None

  def _game_string(self) -> str:
    """The game as the state names it."""
    raise NotImplementedError

  # ----------------------------------------------------------- checkpoint
  def _plain_config(self) -> dict[str, Any]:
    """The config as plain data (see :func:`protocol.config_to_plain`); a
    class whose config may hold values without a plain form (a callable,
    a policy object) writes them as what they mean on its game."""
    return config_to_plain(self._config)

  def _save_state(self, state: dict[str, Any]) -> None:
    """Adds the class's own arrays and parts to ``state``."""

  def _load_state(self, state: dict[str, Any]) -> None:
    """Checks and restores the class's own arrays and parts."""

  def state_dict(self) -> dict[str, Any]:
    """Everything needed to resume, as plain data: the format version, the
    class, the game, the config, the iteration, the generator's state and
    the class's own arrays (copies).

    Returns:
      {"version", "solver" (or "learner"), "game", "config", "iteration",
      "rng_state" (if the class draws random numbers), and its parts}.
    """
    state = {"version": FORMAT_VERSION,
             self._CLASS_KEY: type(self).__name__,
             "game": self._game_string(),
             "config": self._plain_config(),
             "iteration": self.iteration_count}
    if self._rng is not None:
      state["rng_state"] = self._rng.bit_generator.state
    self._save_state(state)
    return state

  def _check_state(self, state: dict[str, Any]) -> None:
    """Raises ValueError for a state of another format version, class,
    game or config, a negative or non-integer iteration, or a generator
    state that does not fit."""
    name = type(self).__name__
    check_state_version(state, name)
    if state.get(self._CLASS_KEY) != name:
      raise ValueError(f"checkpoint is from {state.get(self._CLASS_KEY)}, "
                       f"not {name}.")
    if state.get("game") != self._game_string():
      raise ValueError(f"checkpoint is for game {state.get('game')}, not "
                       f"{self._game_string()}.")
    check_count(state, "iteration", name)
    if self._rng is not None:
      self._checked_rng_state(state)
    mine = self._plain_config()
    theirs = state.get("config")
    if not isinstance(theirs, Mapping) or theirs.keys() != mine.keys():
      raise ValueError(f"{name}: the checkpoint's config is not a "
                       f"{type(self._config).__qualname__}.")
    differing = [field for field in mine if field not in self._FREE_FIELDS
                 and not values_equal(mine[field], theirs[field])]
    if differing:
      raise ValueError(
          f"{name}: the checkpoint's config differs in "
          f"{', '.join(differing)} ("
          + ", ".join(f"{field}={short_repr(theirs[field])}, here "
                      f"{short_repr(mine[field])}" for field in differing)
          + f"); build the solver with {name}.from_state_dict(state).")

  def _checked_rng_state(self, state: dict[str, Any]) -> Any:
    """The state's ``rng_state``, tried on a scratch generator of the same
    kind; ValueError naming the field if it does not fit."""
    assert self._rng is not None  # only called for a class that draws
    rng_state: Any = state.get("rng_state")
    scratch = type(self._rng.bit_generator)()
    try:
      scratch.state = rng_state
    except (TypeError, ValueError, KeyError) as error:
      raise ValueError(
          f"{type(self).__name__}: checkpoint field rng_state is not a "
          f"{type(scratch).__name__} state ({error}).") from None
    return rng_state

  def load_state_dict(self, state: dict[str, Any]) -> None:
    """Restores a :meth:`state_dict` of an object of this class, game and
    config (the seed may differ where the state replaces what it set), in
    place.

    Args:
      state: a :meth:`state_dict`.

    Raises:
      ValueError: a state of another format version, class, game or
        config, a negative or non-integer iteration, a generator state
        that does not fit, or arrays that do not fit (shape, dtype,
        non-finite entries, values outside the range of what they hold).
    """
    self._check_state(state)
    self._load_state(state)
    self._iteration = int(state["iteration"])
    if self._rng is not None:
      self._rng.bit_generator.state = state["rng_state"]

  @classmethod
  def from_state_dict(cls, state: dict[str, Any]) -> Any:
    """The object a :meth:`state_dict` describes, built from its game and
    config and given its state (a base class finds the class by name).

    Args:
      state: a :meth:`state_dict`.

    Returns:
      An object of the class the state names, with the state loaded.

    Raises:
      ValueError: a state of another format version, of a class that is
        not ``cls`` or one of its subclasses, or with a bad config.
    """
    check_state_version(state, cls.__name__)
    name = state.get(cls._CLASS_KEY)
    if isinstance(name, str) and name not in _CLASSES:
      # spiel_ext.algorithms imports each solver on first use: import the
      # one the state names, which registers it.
      from spiel_ext import algorithms  # pylint: disable=g-import-not-at-top
      if name in algorithms.__all__:
        getattr(algorithms, name)
    found = _CLASSES.get(name) if isinstance(name, str) else None
    if found is None or not issubclass(found, cls):
      raise ValueError(f"checkpoint is from {name}, not {cls.__name__}.")
    config = config_from_plain(found.Config, state.get("config"),
                               found.__name__)
    # Every registered subclass's constructor takes (game, config=...).
    built: Any = found(state["game"], config=config)  # type: ignore[call-arg]
    built.load_state_dict(state)
    return built

  def __getstate__(self) -> dict[str, Any]:
    return {"state": self.state_dict()}

  def __setstate__(self, pickled: Any) -> None:
    state = pickled.get("state") if isinstance(pickled, dict) else None
    if not isinstance(state, dict):
      raise ValueError(
          f"this {type(self).__name__} checkpoint was pickled by an older "
          "spiel_ext and cannot be read by this one; run it again without "
          "--resume.")
    if "version" not in state and "hyperparameters" in state:
      state = self._unversioned(state)
    else:
      name = type(self).__name__
      check_state_version(state, name)
      config = config_from_plain(type(self).Config, state.get("config"), name)
      # Rebuilds this object in place with its own class's constructor.
      # pylint: disable-next=unnecessary-dunder-call
      self.__init__(state["game"], config=config)  # type: ignore[misc]
    self.load_state_dict(state)

  def _unversioned(self, state: dict[str, Any]) -> dict[str, Any]:
    """Builds ``self`` from a state pickled before state formats were
    versioned and returns the state in today's format."""
    del state
    raise ValueError(
        f"this {type(self).__name__} checkpoint was pickled by an older "
        "spiel_ext and cannot be read by this one; run it again without "
        "--resume.")
