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

Solvers hold their whole state in numpy arrays named in ``_STATE_ARRAYS``,
so ``state_dict()`` / ``load_state_dict()`` and pickling checkpoint and
resume a run exactly, random generator included.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from spiel_ext.algorithms.checks import (check_bool, check_hyperparameters,
                                         check_seed, short_repr)
from spiel_ext.engine import GameTree, compile_game
from spiel_ext.policy import TabularPolicy, to_tabular_policy


class Solver:
  """Base class: game checks, seeding, the player loop, policies out,
  checkpoints.

  Args:
    game: a pyspiel game, a game string or a compiled GameTree.
    alternating_updates: True to update players in turn, False to update
      all from the same profile.
    seed: an int in 0..2**63 - 1 or None (fresh entropy) for the solver's
      ``numpy.random.Generator``.
    hyperparameters: the constructor's other arguments, in order (kept for
      ``repr``, checkpoints and pickling).

  Raises:
    TypeError: ``alternating_updates`` is not a bool, ``seed`` not an int or
      ``hyperparameters`` not a dict.
    ValueError: ``seed`` outside 0..2**63 - 1, or a game the solver cannot
      handle.
  """

  # Names of the numpy arrays that, with ``_iteration`` and the random
  # generator, make up the solver's whole state.
  _STATE_ARRAYS: tuple[str, ...] = ()
  # The state array holding the current strategy (updated in place only, so
  # that ``current_policy()`` can share its memory).
  _CURRENT_ARRAY: str = ""

  def __init__(self, game: pyspiel.Game | str | GameTree, *,
               alternating_updates: bool, seed: int | None,
               hyperparameters: dict[str, Any]):
    self._alternating = check_bool("alternating_updates", alternating_updates)
    self._seed = check_seed(seed)
    hyperparameters = check_hyperparameters(hyperparameters)
    self._tree = compile_game(game)
    self._game = self._tree.game
    self._check_game()
    self._rng = np.random.default_rng(self._seed)
    self._hyperparameters = dict(hyperparameters,
                                 alternating_updates=self._alternating,
                                 seed=self._seed)
    self._iteration = 0
    self._current_policy: TabularPolicy | None = None

  # ------------------------------------------------------------- contract
  @property
  def game(self) -> pyspiel.Game:
    return self._game

  @property
  def tree(self) -> GameTree:
    """The compiled game tree the solver runs on."""
    return self._tree

  @property
  def iteration_count(self) -> int:
    """Number of completed iterations."""
    return self._iteration

  @property
  def hyperparameters(self) -> dict[str, Any]:
    """The constructor's arguments (except the game), as given."""
    return dict(self._hyperparameters)

  def evaluate_and_update_policy(self) -> None:
    """Runs one iteration: every player's update, in turn or at once."""
    self._iteration += 1
    t = self._iteration
    players = range(self._tree.num_players)
    if self._alternating:
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
    updated in place by each iteration (as OpenSpiel's CFR)."""
    if self._current_policy is None:
      self._current_policy = to_tabular_policy(
          self._tree, getattr(self, self._CURRENT_ARRAY), copy=False)
    return self._current_policy

  def average_policy(self) -> TabularPolicy:
    """The average strategy profile, as a fresh TabularPolicy."""
    return to_tabular_policy(self._tree, self.average_strategy(), copy=False)

  def tabular_current_policy(self) -> pyspiel.TabularPolicy:
    """The current profile as a ``pyspiel.TabularPolicy`` (a copy), as
    OpenSpiel's C++ ``CFRSolver.tabular_current_policy()``."""
    return pyspiel.TabularPolicy(dict(self.current_policy().items()))

  def tabular_average_policy(self) -> pyspiel.TabularPolicy:
    """The average profile as a ``pyspiel.TabularPolicy``, as OpenSpiel's
    C++ ``CFRSolver.tabular_average_policy()``."""
    return pyspiel.TabularPolicy(dict(self.average_policy().items()))

  def current_strategy(self) -> np.ndarray:
    """The current strategy as a [infosets, actions] array (a copy)."""
    return getattr(self, self._CURRENT_ARRAY).copy()

  def average_strategy(self) -> np.ndarray:
    """The average strategy as a [infosets, actions] array (a new array)."""
    raise NotImplementedError

  # -------------------------------------------------------- player updates
  def _compute_update(self, player: int) -> Any:
    """What ``player``'s update needs from the current profile."""
    raise NotImplementedError

  def _apply_update(self, player: int, update: Any, t: int) -> None:
    """Changes the solver's arrays with ``update`` at iteration ``t``."""
    raise NotImplementedError

  # ----------------------------------------------------------- checkpoint
  def state_dict(self) -> dict[str, Any]:
    """Everything needed to resume: arrays, iteration, generator state."""
    state = {name: getattr(self, name).copy() for name in self._STATE_ARRAYS}
    state.update(
        solver=type(self).__name__,
        game=self._tree.game_string,
        iteration=self._iteration,
        rng_state=self._rng.bit_generator.state,
        hyperparameters=dict(self._hyperparameters),
    )
    return state

  def load_state_dict(self, state: dict[str, Any]) -> None:
    """Restores a :meth:`state_dict` (in place: policies returned by
    :meth:`current_policy` follow); ValueError if it does not fit."""
    if state.get("solver") != type(self).__name__:
      raise ValueError(f"checkpoint is from {state.get('solver')}, not "
                       f"{type(self).__name__}.")
    if state.get("game") != self._tree.game_string:
      raise ValueError(f"checkpoint is for game {state.get('game')}, not "
                       f"{self._tree.game_string}.")
    for name in self._STATE_ARRAYS:
      value = np.asarray(state[name])
      current = getattr(self, name)
      if (value.shape != current.shape or value.dtype.kind not in "biuf" or
          not np.all(np.isfinite(value))):
        raise ValueError(f"checkpoint array {name} is corrupt: shape "
                         f"{value.shape} (expected {current.shape}) or "
                         "non-finite entries.")
    for name in self._STATE_ARRAYS:
      getattr(self, name)[...] = state[name]
    self._iteration = int(state["iteration"])
    self._rng.bit_generator.state = state["rng_state"]

  def __getstate__(self) -> dict[str, Any]:
    return {"state": self.state_dict(), "class": type(self)}

  def __setstate__(self, pickled: dict[str, Any]) -> None:
    state = pickled["state"]
    hyperparameters = dict(state["hyperparameters"])
    # pylint: disable-next=unnecessary-dunder-call
    self.__init__(state["game"], **hyperparameters)
    self.load_state_dict(state)

  def __repr__(self) -> str:
    arguments = "".join(f"{name}={short_repr(value)}, "
                        for name, value in self._hyperparameters.items())
    return (f"{type(self).__name__}(game={self._tree.game_string!r}, "
            f"{arguments}iteration={self._iteration})")

  # --------------------------------------------------------------- checks
  def _check_game(self) -> None:
    """Raises ValueError for games the solver cannot handle (the engine has
    already refused what it cannot compile)."""

