"""What every spiel_ext solver shares: the OpenSpiel-style solver contract.

Mirrors ``open_spiel/python/algorithms/cfr.py``: construct with a game,
call ``evaluate_and_update_policy()`` (alias ``iteration()``) once per
iteration, read the policies:

- ``current_policy()`` returns the same policy object on every call, and the
  solver updates it in place after each iteration, as OpenSpiel's CFR does:
  a reference kept by the caller shows the newest iterate. (Writing into it
  changes the solver's iterate, as in OpenSpiel.)
- ``average_policy()`` returns a fresh policy on every call, so one kept
  from iteration 10 stays the iteration-10 average.

Both are :class:`spiel_ext.policy.TabularPolicy` objects: OpenSpiel
``TabularPolicy`` objects that pyspiel's C++ functions also accept
(``pyspiel.exploitability(game, solver.average_policy())``).
``tabular_current_policy()`` / ``tabular_average_policy()`` return
``pyspiel.TabularPolicy`` objects, as OpenSpiel's C++ solvers do.

An iteration updates the players in turn (alternating updates: each player
responds to the profile the previous one left) or all from the same profile
(simultaneous updates). That loop lives here, once; a solver provides the
two halves of a player's update, ``_compute_update`` (read the current
profile) and ``_apply_update`` (change the solver's arrays).

Every solver class names its hyperparameters once, in a frozen dataclass
``Config`` (:class:`SolverConfig`); the constructor is ``(game,
config=None, **shortcuts)`` (:mod:`spiel_ext.algorithms.protocol`). The
solver's whole state is that config and the numpy arrays named in
``_STATE_ARRAYS``, so ``state_dict()`` / ``load_state_dict()`` and pickling
checkpoint and resume a run exactly, random generator included. A solver's
rules may keep arrays of their own across iterations (``initial_state``, see
:mod:`spiel_ext.algorithms.regret_rules`); :meth:`Solver._adopt_rule_state`
makes them part of the state beside ``_STATE_ARRAYS``.
"""

from __future__ import annotations

import dataclasses
import inspect
import warnings
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
import pyspiel

from spiel_ext.algorithms.checks import short_repr
from spiel_ext.algorithms.protocol import (STATE_VERSION, Progress,
                                           check_state_version,
                                           config_from_plain, config_to_plain,
                                           resolve_config, values_equal)
from spiel_ext.engine import GameTree, compile_game
from spiel_ext.policy import TabularPolicy, to_tabular_policy


def set_field(config: Any, name: str, value: Any) -> None:
  """Stores a checked, normalised value in a frozen config (for
  ``__post_init__``).

  Args:
    config: the frozen config dataclass.
    name: the field's name.
    value: the value to store.
  """
  object.__setattr__(config, name, value)


def _frozen(value: Any) -> Any:
  """A hashable stand-in for a config value (arrays by their bytes)."""
  if isinstance(value, np.ndarray):
    return (value.shape, value.dtype.str, value.tobytes())
  if isinstance(value, Mapping):
    return tuple(sorted(((repr(key), _frozen(item))
                         for key, item in value.items())))
  if isinstance(value, (list, tuple)):
    return tuple(_frozen(item) for item in value)
  return value


@dataclasses.dataclass(frozen=True, eq=False)
class SolverConfig:
  """Base class of the solvers' configs.

  A config is a frozen dataclass whose ``__post_init__`` checks and
  normalises its fields, once (each error names the field). Configs
  compare by value, arrays included; subclasses are declared with
  ``@dataclasses.dataclass(frozen=True, eq=False)`` to keep that equality.
  """

  def __eq__(self, other: Any) -> bool:
    if type(other) is not type(self):
      return NotImplemented
    return all(values_equal(getattr(self, field.name),
                            getattr(other, field.name))
               for field in dataclasses.fields(self))

  def __hash__(self) -> int:
    return hash((type(self).__name__,) + tuple(
        _frozen(getattr(self, field.name))
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


def constructor_signature(cls: type) -> inspect.Signature:
  """``(game, <OpenSpiel's positional arguments>, config=None, *,
  <the config's fields>)``: what the constructor accepts, for
  ``inspect.signature`` and ``help``.

  Args:
    cls: a :class:`Solver` subclass (its ``Config`` and ``_POSITIONAL``).

  Returns:
    The signature, with the config's defaults.
  """
  positional = inspect.Parameter.POSITIONAL_OR_KEYWORD
  keyword = inspect.Parameter.KEYWORD_ONLY
  fields = {field.name: field for field in dataclasses.fields(cls.Config)}

  def default(name):
    field = fields[name]
    if field.default is not dataclasses.MISSING:
      return field.default
    return field.default_factory()  # pytype: disable=missing-parameter

  parameters = [inspect.Parameter("game", positional)]
  parameters += [inspect.Parameter(name, positional, default=default(name))
                 for name in cls._POSITIONAL]
  parameters.append(inspect.Parameter(
      "config", keyword if cls._POSITIONAL else positional, default=None))
  parameters += [inspect.Parameter(name, keyword, default=default(name))
                 for name in fields if name not in cls._POSITIONAL]
  return inspect.Signature(parameters)


# Every concrete solver class by name, for Solver.from_state_dict.
_SOLVER_CLASSES: dict[str, type] = {}


class Solver:
  """Base class: game checks, seeding, the player loop, policies out,
  checkpoints.

  Subclasses set ``Config`` (a :class:`SolverConfig` with at least
  ``alternating_updates`` and ``seed``) and build their arrays in
  :meth:`_build`.

  Args:
    game: a pyspiel game, a game string or a compiled GameTree.
    config: a ``type(self).Config`` (default: its defaults).
    shortcuts: the config's fields as keywords, replacing ``config``'s
      (``CFRSolver(game, alternating_updates=False)``).

  Raises:
    TypeError: ``config`` of another class, a keyword naming no field, or a
      field of the wrong type (naming it).
    ValueError: a field out of range (naming it), or a game the solver
      cannot handle.
  """

  Config: ClassVar[type] = SolverConfig
  # Names of the numpy arrays that, with ``_iteration`` and the random
  # generator, make up the solver's whole state.
  _STATE_ARRAYS: ClassVar[tuple[str, ...]] = ()
  # The state array holding the current strategy (updated in place only, so
  # that ``current_policy()`` can share its memory).
  _CURRENT_ARRAY: ClassVar[str] = ""
  # Config fields OpenSpiel's constructor takes positionally after the game
  # (``DCFRSolver(game, 1.5, 0, 2)``).
  _POSITIONAL: ClassVar[tuple[str, ...]] = ()
  # Keywords that were renamed: {old keyword: config field}.
  _RENAMED: ClassVar[dict[str, str]] = {}

  def __init_subclass__(cls, **kwargs) -> None:
    super().__init_subclass__(**kwargs)
    cls.__signature__ = constructor_signature(cls)
    _SOLVER_CLASSES[cls.__name__] = cls

  def __init__(self, game: pyspiel.Game | str | GameTree,
               config: Any = None, **shortcuts: Any):
    self._config = self._resolve(config, shortcuts)
    self._tree = compile_game(game)
    self._game = self._tree.game
    self._check_game()
    self._rng = np.random.default_rng(self._config.seed)
    self._iteration = 0
    self._current_policy: TabularPolicy | None = None
    # The rules' own arrays by name (see _adopt_rule_state).
    self._rule_state: dict[str, np.ndarray] = {}
    self._build()

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

  @classmethod
  def _positional(cls, args: tuple[Any, ...], config: Any,
                  shortcuts: dict[str, Any]) -> Any:
    """Reads OpenSpiel's positional arguments (``_POSITIONAL``) into
    ``shortcuts``; a lone positional config is the config. Returns the
    config."""
    if len(args) == 1 and isinstance(args[0], cls.Config):
      if config is not None:
        raise TypeError(f"{cls.__name__}() got two configs.")
      return args[0]
    if len(args) > len(cls._POSITIONAL):
      raise TypeError(
          f"{cls.__name__}() takes the game and at most "
          f"{len(cls._POSITIONAL)} positional arguments "
          f"({', '.join(cls._POSITIONAL)}); got {len(args)}.")
    for name, value in zip(cls._POSITIONAL, args):
      if name in shortcuts:
        raise TypeError(f"{cls.__name__}() got multiple values for "
                        f"argument {name!r}.")
      shortcuts[name] = value
    return config

  def _build(self) -> None:
    """Creates the solver's arrays and rules from ``self.config`` (after
    the game is compiled and the generator seeded)."""

  def _adopt_rule_state(self, rules: tuple[Any, ...]) -> None:
    """Creates the arrays the ``rules`` keep across iterations (each rule's
    optional ``initial_state(tree)``) and makes them part of the solver's
    state: saved by :meth:`state_dict`, restored by
    :meth:`load_state_dict`.

    Raises:
      ValueError: a rule's array without one row per infoset, or a name
        that another rule or a solver array already uses.
    """
    tree = self._tree
    for rule in rules:
      initial_state = getattr(rule, "initial_state", None)
      if initial_state is None:
        continue
      for name, array in initial_state(tree).items():
        if name in self._rule_state or name in self._STATE_ARRAYS:
          raise ValueError(f"{type(rule).__name__}.initial_state: the array "
                           f"name {name!r} is already used by this solver.")
        array = np.asarray(array)
        if array.ndim == 0 or array.shape[0] != tree.num_infosets:
          raise ValueError(
              f"{type(rule).__name__}.initial_state: array {name!r} has "
              f"shape {array.shape}; its first axis must be the "
              f"{tree.num_infosets} infosets.")
        self._rule_state[name] = array

  def _state_arrays(self) -> dict[str, np.ndarray]:
    """The arrays that, with the iteration and the generator, are the
    solver's state: ``_STATE_ARRAYS`` and the rules' own."""
    arrays = {name: getattr(self, name) for name in self._STATE_ARRAYS}
    arrays.update(self._rule_state)
    return arrays

  # ------------------------------------------------------------- contract
  @property
  def config(self) -> Any:
    """The hyperparameters (``type(self).Config``)."""
    return self._config

  @property
  def game(self) -> pyspiel.Game:
    """The pyspiel game the solver runs on."""
    return self._game

  @property
  def tree(self) -> GameTree:
    """The compiled game tree the solver runs on."""
    return self._tree

  @property
  def iteration_count(self) -> int:
    """Number of completed iterations."""
    return self._iteration

  def progress(self) -> Progress:
    """Iterations completed (a solver plays no episodes).

    Returns:
      ``Progress(iteration_count, None)``.
    """
    return Progress(self._iteration, None)

  @property
  def hyperparameters(self) -> dict[str, Any]:
    """The config as a dict {field: value}, in the config's order."""
    return {field.name: getattr(self._config, field.name)
            for field in dataclasses.fields(self._config)}

  def evaluate_and_update_policy(self) -> None:
    """Runs one iteration: every player's update, in turn or at once."""
    self._iteration += 1
    t = self._iteration
    players = range(self._tree.num_players)
    if self._config.alternating_updates:
      for player in players:
        self._apply_update(player, self._compute_update(player), t)
    else:
      updates = [self._compute_update(player) for player in players]
      for player, update in zip(players, updates):
        self._apply_update(player, update, t)

  def iteration(self) -> None:
    """Alias of :meth:`evaluate_and_update_policy`."""
    self.evaluate_and_update_policy()

  def current_policy(self) -> TabularPolicy:
    """The current strategy profile: the same TabularPolicy on every call,
    updated in place by each iteration (as OpenSpiel's CFR).

    Returns:
      The policy, sharing the solver's current-strategy array.
    """
    if self._current_policy is None:
      self._current_policy = to_tabular_policy(
          self._tree, getattr(self, self._CURRENT_ARRAY), copy=False)
    return self._current_policy

  def average_policy(self) -> TabularPolicy:
    """The average strategy profile, as a fresh TabularPolicy.

    Returns:
      A new policy holding :meth:`average_strategy`.
    """
    return to_tabular_policy(self._tree, self.average_strategy(), copy=False)

  def tabular_current_policy(self) -> pyspiel.TabularPolicy:
    """The current profile as a ``pyspiel.TabularPolicy`` (a copy), as
    OpenSpiel's C++ ``CFRSolver.tabular_current_policy()``.

    Returns:
      A new pyspiel.TabularPolicy {infostate key: [(action, prob)]} over
      each infoset's legal actions.
    """
    return pyspiel.TabularPolicy(dict(self.current_policy().items()))

  def tabular_average_policy(self) -> pyspiel.TabularPolicy:
    """The average profile as a ``pyspiel.TabularPolicy``, as OpenSpiel's
    C++ ``CFRSolver.tabular_average_policy()``.

    Returns:
      A new pyspiel.TabularPolicy {infostate key: [(action, prob)]} over
      each infoset's legal actions.
    """
    return pyspiel.TabularPolicy(dict(self.average_policy().items()))

  def current_strategy(self) -> np.ndarray:
    """The current strategy as a [infosets, actions] array (a copy).

    Returns:
      A new [num_infosets, num_distinct_actions] array.
    """
    return getattr(self, self._CURRENT_ARRAY).copy()

  def average_strategy(self) -> np.ndarray:
    """The average strategy as a [infosets, actions] array (a new array).

    Returns:
      A new [num_infosets, num_distinct_actions] array.
    """
    raise NotImplementedError

  def _normalised_average(self, numerator: np.ndarray,
                          name: str = "cumulative_policy") -> np.ndarray:
    """``numerator`` normalised per infoset; uniform where it sums to 0.

    Raises:
      RuntimeError: ``numerator`` (the solver's array ``name``) holds NaN or
        infinite entries (never the case for the solvers' own updates).
    """
    totals = numerator.sum(axis=1, keepdims=True)
    if not np.isfinite(totals).all():
      row = int(np.flatnonzero(~np.isfinite(totals[:, 0]))[0])
      raise RuntimeError(
          f"{type(self).__name__}.{name} holds non-finite values at infoset "
          f"{self._tree.infoset_keys[row]!r} after iteration "
          f"{self._iteration}: {numerator[row].tolist()}.")
    empty = totals == 0.0
    with np.errstate(invalid="ignore", divide="ignore"):
      average = numerator / totals
    if empty.any():
      return np.where(empty, self._tree.uniform_policy(), average)
    return average

  # -------------------------------------------------------- player updates
  def _compute_update(self, player: int) -> Any:
    """What ``player``'s update needs from the current profile."""
    raise NotImplementedError

  def _apply_update(self, player: int, update: Any, t: int) -> None:
    """Changes the solver's arrays with ``update`` at iteration ``t``."""
    raise NotImplementedError

  # ----------------------------------------------------------- checkpoint
  def _plain_config(self) -> dict[str, Any]:
    """The config as plain data (see :func:`protocol.config_to_plain`); a
    solver whose config may hold values without a plain form (a callable,
    a policy object) writes them as what they mean on this game."""
    return config_to_plain(self._config)

  def state_dict(self) -> dict[str, Any]:
    """Everything needed to resume, as plain data: the format version, the
    class, the game, the config, the arrays (copies), the iteration and the
    generator's state.

    Returns:
      {"version", "solver", "game", "config", "iteration", "rng_state",
      and one numpy array per state array}.
    """
    state = {
        "version": STATE_VERSION,
        "solver": type(self).__name__,
        "game": self._tree.game_string,
        "config": self._plain_config(),
        "iteration": self._iteration,
        "rng_state": self._rng.bit_generator.state,
    }
    state.update({name: array.copy()
                  for name, array in self._state_arrays().items()})
    return state

  def load_state_dict(self, state: dict[str, Any]) -> None:
    """Restores a :meth:`state_dict` of a solver of this class, game and
    config (the seed may differ: the generator's state is restored), in
    place: policies returned by :meth:`current_policy` follow.

    Args:
      state: a :meth:`state_dict`.

    Raises:
      ValueError: a state of another format version, class, game or
        config, or arrays of the wrong shape or with non-finite entries.
    """
    name = type(self).__name__
    check_state_version(state, name)
    if state.get("solver") != name:
      raise ValueError(f"checkpoint is from {state.get('solver')}, not "
                       f"{name}.")
    if state.get("game") != self._tree.game_string:
      raise ValueError(f"checkpoint is for game {state.get('game')}, not "
                       f"{self._tree.game_string}.")
    mine = self._plain_config()
    theirs = state.get("config")
    if not isinstance(theirs, Mapping) or theirs.keys() != mine.keys():
      raise ValueError(f"{name}: the checkpoint's config is not a "
                       f"{type(self._config).__qualname__}.")
    differing = [field for field in mine if field != "seed" and
                 not values_equal(mine[field], theirs[field])]
    if differing:
      raise ValueError(
          f"{name}: the checkpoint's config differs in "
          f"{', '.join(differing)} ("
          + ", ".join(f"{field}={short_repr(theirs[field])}, here "
                      f"{short_repr(mine[field])}" for field in differing)
          + f"); build the solver with {name}.from_state_dict(state).")
    arrays = self._state_arrays()
    for array_name, current in arrays.items():
      if array_name not in state:
        raise ValueError(f"checkpoint has no array {array_name}.")
      value = np.asarray(state[array_name])
      if (value.shape != current.shape or value.dtype.kind not in "biuf" or
          not np.all(np.isfinite(value))):
        raise ValueError(f"checkpoint array {array_name} is corrupt: shape "
                         f"{value.shape} (expected {current.shape}) or "
                         "non-finite entries.")
    for array_name, current in arrays.items():
      current[...] = state[array_name]
    self._iteration = int(state["iteration"])
    self._rng.bit_generator.state = state["rng_state"]

  @classmethod
  def from_state_dict(cls, state: dict[str, Any]) -> "Solver":
    """The solver a :meth:`state_dict` describes, built from its game and
    config and given its state (``Solver.from_state_dict`` finds the class
    by name).

    Args:
      state: a :meth:`state_dict`.

    Returns:
      The solver (of the class the state names), with the state loaded.

    Raises:
      ValueError: a state of another format version, or of a class that is
        not ``cls`` or one of its subclasses.
    """
    check_state_version(state, cls.__name__)
    name = state.get("solver")
    solver_class = _SOLVER_CLASSES.get(name)
    if solver_class is None or not issubclass(solver_class, cls):
      raise ValueError(f"checkpoint is from {name}, not {cls.__name__}.")
    config = config_from_plain(solver_class.Config, state.get("config"),
                               solver_class.__name__)
    solver = solver_class(state["game"], config=config)
    solver.load_state_dict(state)
    return solver

  def __getstate__(self) -> dict[str, Any]:
    return {"state": self.state_dict()}

  def __setstate__(self, pickled: dict[str, Any]) -> None:
    state = pickled["state"]
    if "version" not in state and "hyperparameters" in state:
      # Pickled before state formats were versioned: its hyperparameters
      # are the constructor's keywords.
      self.__init__(state["game"], config=self._legacy_config(  # pylint: disable=unnecessary-dunder-call
          state["hyperparameters"]))
      state = self._legacy_state(state)
      state = dict(state, version=STATE_VERSION,
                   config=self._plain_config())
    else:
      check_state_version(state, type(self).__name__)
      self.__init__(state["game"], config=config_from_plain(  # pylint: disable=unnecessary-dunder-call
          type(self).Config, state.get("config"), type(self).__name__))
    self.load_state_dict(state)

  @classmethod
  def _legacy_config(cls, hyperparameters: dict[str, Any]) -> Any:
    """The config of a solver pickled before state formats were versioned
    (its constructor's keywords)."""
    shortcuts = dict(hyperparameters)
    for old, new in cls._RENAMED.items():
      if old in shortcuts:
        shortcuts[new] = shortcuts.pop(old)
    return resolve_config(cls.Config, None, shortcuts, cls.__name__)

  def _legacy_state(self, state: dict[str, Any]) -> dict[str, Any]:
    """A state pickled before state formats were versioned, with what it
    lacks filled in (default: nothing lacks)."""
    return state

  def __repr__(self) -> str:
    arguments = "".join(f"{name}={short_repr(value)}, "
                        for name, value in self.hyperparameters.items())
    return (f"{type(self).__name__}(game={self._tree.game_string!r}, "
            f"{arguments}iteration={self._iteration})")

  # --------------------------------------------------------------- checks
  def _check_game(self) -> None:
    """Raises ValueError for games the solver cannot handle (the engine has
    already refused what it cannot compile)."""
