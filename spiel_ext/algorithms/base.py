"""What every spiel_ext solver shares: the OpenSpiel-style solver contract.

Mirrors ``open_spiel/python/algorithms/cfr.py``: construct with a game,
call ``evaluate_and_update_policy()`` (alias ``iteration()``) once per
iteration, read ``current_policy()`` / ``average_policy()`` as
``TabularPolicy`` objects. Unlike OpenSpiel, both return fresh objects, so a
policy kept from iteration 10 stays the iteration-10 policy.

Solvers hold their whole state in numpy arrays named in ``_STATE_ARRAYS``,
so ``state_dict()`` / ``load_state_dict()`` and pickling checkpoint and
resume a run exactly, random generator included.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python import policy as openspiel_policy

from spiel_ext.engine import GameTree, compile_game
from spiel_ext.policy import to_tabular_policy


class Solver:
  """Base class: game checks, seeding, policies out, checkpoints."""

  # Names of the numpy arrays that, with ``_iteration`` and the random
  # generator, make up the solver's whole state.
  _STATE_ARRAYS: tuple[str, ...] = ()
  # Whether the algorithm needs a two-player zero-sum game.
  _REQUIRES_TWO_PLAYER_ZERO_SUM = False

  def __init__(self, game: pyspiel.Game | str | GameTree, *,
               seed: int | None = 0, **hyperparameters: Any):
    self._tree = compile_game(game)
    self._game = self._tree.game
    self._check_game()
    if seed is not None and (not isinstance(seed, (int, np.integer)) or
                             isinstance(seed, bool)):
      raise ValueError(f"seed must be an int or None; got {seed!r}.")
    self._seed = seed
    self._rng = np.random.default_rng(seed)
    self._hyperparameters = dict(hyperparameters, seed=seed)
    self._iteration = 0

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
    return dict(self._hyperparameters)

  def evaluate_and_update_policy(self) -> None:
    """Runs one iteration."""
    self._iteration += 1
    self._run_iteration()

  def iteration(self) -> None:
    """Alias of :meth:`evaluate_and_update_policy`."""
    self.evaluate_and_update_policy()

  def current_policy(self) -> openspiel_policy.TabularPolicy:
    """The current strategy profile, as a fresh TabularPolicy."""
    return to_tabular_policy(self._tree, self.current_strategy())

  def average_policy(self) -> openspiel_policy.TabularPolicy:
    """The average strategy profile, as a fresh TabularPolicy."""
    return to_tabular_policy(self._tree, self.average_strategy(), copy=False)

  def current_strategy(self) -> np.ndarray:
    """The current strategy as a [infosets, actions] array (a copy)."""
    raise NotImplementedError

  def average_strategy(self) -> np.ndarray:
    """The average strategy as a [infosets, actions] array (a new array)."""
    raise NotImplementedError

  def _run_iteration(self) -> None:
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
    """Restores a :meth:`state_dict`; raises ValueError if it does not fit."""
    if state.get("solver") != type(self).__name__:
      raise ValueError(f"checkpoint is from {state.get('solver')}, not "
                       f"{type(self).__name__}.")
    if state.get("game") != self._tree.game_string:
      raise ValueError(f"checkpoint is for game {state.get('game')}, not "
                       f"{self._tree.game_string}.")
    for name in self._STATE_ARRAYS:
      value = np.asarray(state[name])
      current = getattr(self, name)
      if value.shape != current.shape or not np.all(np.isfinite(value)):
        raise ValueError(f"checkpoint array {name} is corrupt: shape "
                         f"{value.shape} (expected {current.shape}) or "
                         "non-finite entries.")
    for name in self._STATE_ARRAYS:
      setattr(self, name, np.array(state[name], dtype=getattr(self, name).dtype))
    self._iteration = int(state["iteration"])
    self._rng.bit_generator.state = state["rng_state"]

  def __getstate__(self) -> dict[str, Any]:
    return {"state": self.state_dict(), "class": type(self)}

  def __setstate__(self, pickled: dict[str, Any]) -> None:
    state = pickled["state"]
    hyperparameters = dict(state["hyperparameters"])
    self.__init__(state["game"], **hyperparameters)  # pylint: disable=unnecessary-dunder-call
    self.load_state_dict(state)

  # --------------------------------------------------------------- checks
  def _check_game(self) -> None:
    game_type = self._game.get_type()
    if self._REQUIRES_TWO_PLAYER_ZERO_SUM and (
        self._game.num_players() != 2 or game_type.utility not in (
            pyspiel.GameType.Utility.ZERO_SUM,
            pyspiel.GameType.Utility.CONSTANT_SUM)):
      raise ValueError(
          f"{type(self).__name__} needs a two-player zero-sum game; "
          f"{self._tree.game_string} has {self._game.num_players()} players "
          f"and {game_type.utility} utility.")


def check_choice(name: str, value: Any, choices) -> None:
  """Raises ValueError unless ``value`` is one of ``choices``."""
  if value not in choices:
    raise ValueError(f"{name} must be one of {sorted(choices)}; got {value!r}.")


def check_real(name: str, value: Any, low: float = -math.inf,
               high: float = math.inf, low_inclusive: bool = True) -> float:
  """Raises ValueError unless ``value`` is a real number in the range."""
  try:
    number = float(value)
  except (TypeError, ValueError):
    raise ValueError(f"{name} must be a number; got {value!r}.") from None
  below = number < low if low_inclusive else number <= low
  if math.isnan(number) or below or number > high:
    bracket = "[" if low_inclusive else "("
    raise ValueError(f"{name} must be in {bracket}{low}, {high}]; got {value!r}.")
  return number
