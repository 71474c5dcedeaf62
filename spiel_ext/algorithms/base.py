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
(written once for every solver, learner and adapter, in
:class:`~spiel_ext.algorithms.contract.Contract`) checkpoint and resume a
run exactly, random generator included. A solver's
rules may keep arrays of their own across iterations (``initial_state``, see
:mod:`spiel_ext.algorithms.regret_rules`); :meth:`Solver._adopt_rule_state`
makes them part of the state beside ``_STATE_ARRAYS``.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

import numpy as np
import pyspiel

from spiel_ext.algorithms.checks import short_repr
from spiel_ext.algorithms.contract import (Contract, SolverConfig,
                                           check_array,
                                           constructor_signature, set_field)
from spiel_ext.algorithms.protocol import FORMAT_VERSION, resolve_config
from spiel_ext.engine import GameTree, compile_game
from spiel_ext.policy import TabularPolicy, to_tabular_policy

# The contract's parts that solver modules import from here.
__all__ = ["Solver", "SolverConfig", "constructor_signature", "set_field"]


class Solver(Contract):
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

  # Names of the numpy arrays that, with ``_iteration`` and the random
  # generator, make up the solver's whole state.
  _STATE_ARRAYS: ClassVar[tuple[str, ...]] = ()
  # The state array holding the current strategy (updated in place only, so
  # that ``current_policy()`` can share its memory).
  _CURRENT_ARRAY: ClassVar[str] = ""
  _rng: np.random.Generator

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
  def game(self) -> pyspiel.Game:
    """The pyspiel game the solver runs on."""
    return self._game

  @property
  def tree(self) -> GameTree:
    """The compiled game tree the solver runs on."""
    return self._tree

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
  def _game_string(self) -> str:
    """The compiled game's string."""
    return self._tree.game_string

  def _save_state(self, state: dict[str, Any]) -> None:
    """Adds copies of the state arrays (``_STATE_ARRAYS`` and the rules'
    own)."""
    state.update({name: array.copy()
                  for name, array in self._state_arrays().items()})

  def _load_state(self, state: dict[str, Any]) -> None:
    """Checks every state array, then restores them all in place (so
    policies returned by :meth:`current_policy` follow)."""
    arrays = self._state_arrays()
    for name, current in arrays.items():
      check_array(state, name, current)
    for name, current in arrays.items():
      current[...] = state[name]

  def _unversioned(self, state: dict[str, Any]) -> dict[str, Any]:
    """Builds the solver of a state pickled before state formats were
    versioned (its hyperparameters are the constructor's keywords)."""
    config = self._legacy_config(state["hyperparameters"])
    # Rebuilds this object in place with its own class's constructor.
    # pylint: disable-next=unnecessary-dunder-call
    self.__init__(state["game"], config=config)  # type: ignore[misc]
    state = self._legacy_state(state)
    return dict(state, version=FORMAT_VERSION, config=self._plain_config())

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
