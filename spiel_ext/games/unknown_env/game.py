"""The true game of an unknown environment as a pyspiel game and state.

``spiel_ext_unknown_env(game=...,env_seed=...,chance=...)``: the base game's
tree with its hidden chance distribution c*, and after each base terminal a
final chance node that draws player 0's +-1 reward: the evaluation game of
Qiu, Wang, Ma, Wen, Zhang, "Combining Counterfactual Regret Minimization
with Information Gain to Solve Extensive Games with Unknown Environments",
2023 (details in :mod:`spiel_ext.games.unknown_env`). Registered with
pyspiel on import; the engine is imported only when an instance is loaded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pyspiel

from spiel_ext.games.common import RulesGame, check_integer, zero_sum_info
from spiel_ext.games.unknown_env import deferred
from spiel_ext.games.unknown_env.observer import UnknownEnvObserver
from spiel_ext.games.unknown_env.params import (DEFAULTS, LOSS, MAX_ENV_SEED,
                                                NAME, WIN, check_chance_model,
                                                game_type)

if TYPE_CHECKING:
  from spiel_ext.engine import GameTree
  from spiel_ext.games.unknown_env.hidden import HiddenParameters

__all__ = ["UnknownEnvGame", "UnknownEnvState"]


class _Instance:
  """What every state of one environment instance shares: the base tree,
  the hidden parameters, and each history's children by action.

  pyspiel clones Python states with ``copy.deepcopy``: an instance is
  shared by the clones, never copied. pyspiel serializes Python states by
  pickling their attributes: an instance pickles as None, and the restored
  state takes its game's instance again (see ``UnknownEnvState.shared``).
  """

  def __init__(self, tree: GameTree, hidden: HiddenParameters):
    self.tree = tree
    self.hidden = hidden
    self._start, self._members = tree.children_lists()
    self._by_action: dict[int, dict[int, int]] = {}

  def __deepcopy__(self, memo) -> "_Instance":
    return self

  def __copy__(self) -> "_Instance":
    return self

  def __reduce__(self):
    return (_detached, ())

  def children(self, history: int) -> dict[int, int]:
    """The children of ``history`` by action id, in increasing action id."""
    table = self._by_action.get(history)
    if table is None:
      members = self._members[self._start[history]:self._start[history + 1]]
      actions = self.tree.action[members]
      order = np.argsort(actions, kind="stable")
      table = dict(zip(actions[order].tolist(), members[order].tolist()))
      self._by_action[history] = table
    return table


def _detached() -> None:
  """What a pickled :class:`_Instance` or :class:`_BaseState` unpickles
  as."""
  return None


class _BaseState:
  """Holds an unknown-environment state's base-game state.

  A state clone copies it with the base state's ``clone()``: a deep copy
  would pickle the base state, which rebuilds its game (for a Python base
  game, a new game object per clone). It pickles as None, and the restored
  state rebuilds it from its history (see ``UnknownEnvState.base_state``).
  """
  __slots__ = ("state",)

  def __init__(self, state: pyspiel.State):
    self.state = state

  def __deepcopy__(self, memo) -> "_BaseState":
    return _BaseState(self.state.clone())

  def __reduce__(self):
    return (_detached, ())


class UnknownEnvState(pyspiel.State):
  """A base-tree history (``node``) plus, after a base terminal, the drawn
  reward.

  Args:
    game: the game; the state starts at the base game's root.
  """

  def __init__(self, game: UnknownEnvGame):
    super().__init__(game)
    self._instance = game.instance
    self.node = 0
    self.reward: float | None = None
    self._base: _BaseState | None = None

  @property
  def shared(self) -> _Instance:
    """The game's tree, hidden parameters and children tables."""
    if self._instance is None:  # Restored from a serialized state.
      self._instance = self.get_game().instance
    return self._instance

  @property
  def base_state(self) -> pyspiel.State:
    """The base game's state at this node (built once, then kept up to
    date; do not modify it)."""
    if self._base is None:  # Not built yet, or restored from a serialized
      self._base = _BaseState(self.shared.tree.state(self.node))  # state.
    return self._base.state

  def _at_base_terminal(self) -> bool:
    return bool(self.shared.tree.is_terminal[self.node])

  def current_player(self):
    """Who acts next.

    Returns:
      The base game's player at this node (``pyspiel.PlayerId.CHANCE`` at
      its chance nodes), ``pyspiel.PlayerId.CHANCE`` at a base terminal
      whose reward is not drawn yet, ``pyspiel.PlayerId.TERMINAL`` after.
    """
    if self._at_base_terminal():
      return (pyspiel.PlayerId.TERMINAL if self.reward is not None else
              pyspiel.PlayerId.CHANCE)
    return int(self.shared.tree.node_player[self.node])

  def chance_outcomes(self):
    """The outcomes of the chance node.

    Returns:
      [(outcome, probability)]: at a base chance node each action with
      its hidden probability c*; at a base terminal (LOSS, p(z)) and
      (WIN, 1 - p(z)).
    """
    hidden = self.shared.hidden
    if self._at_base_terminal():
      loss = float(hidden.loss_prob[self.node])
      return [(LOSS, loss), (WIN, 1.0 - loss)]
    return [(action, float(hidden.chance_prob[child]))
            for action, child in self.shared.children(self.node).items()]

  def _legal_actions(self, player):
    return list(self.shared.children(self.node))

  def _apply_action(self, action):
    if self._at_base_terminal():
      self.reward = 1.0 if action == WIN else -1.0
      return
    self.node = self.shared.children(self.node)[action]
    if self._base is not None:
      self._base.state.apply_action(action)

  def is_terminal(self):
    """Whether the game is over.

    Returns:
      True once the reward is drawn.
    """
    return self.reward is not None

  def returns(self):
    """Each player's payoff.

    Returns:
      [reward, -reward], player 0's drawn reward +-1; [0, 0] before
      the draw.
    """
    if self.reward is None:
      return [0.0, 0.0]
    return [self.reward, -self.reward]

  def _action_to_string(self, player, action):
    if self._at_base_terminal():
      return "Reward:-1" if action == LOSS else "Reward:+1"
    return self.base_state.action_to_string(player, action)

  def __str__(self):
    suffix = "" if self.reward is None else f" reward {self.reward:+.0f}"
    return f"{self.base_state}{suffix}"


class UnknownEnvGame(RulesGame):
  """The true game of one environment instance.

  Args:
    params: pyspiel's parameter dict: ``game`` (the base game, default
      ``kuhn_poker()``), ``env_seed`` (an integer in 0..2^31 - 1, the
      integers a game string holds; default 0) and
      ``chance`` ("game", the default, or "dirichlet"; see
      :mod:`spiel_ext.games.unknown_env`).

  Raises:
    ValueError: a bad ``env_seed`` or ``chance``, or a base game that cannot
      be loaded or compiled or does not have two players.
  """

  # The engine builds the tree from the base tree (spiel_ext.engine.native).
  native_tree_builder = (
      "spiel_ext.games.unknown_env.tree:build_unknown_env_tree")
  # For errors about game strings pyspiel cannot read.
  parameter_ranges = {"env_seed": f"0..{MAX_ENV_SEED}"}
  state_class, observer_class = UnknownEnvState, UnknownEnvObserver

  def __init__(self, params=None):
    values = dict(DEFAULTS)
    values.update(params or {})
    env_seed = check_integer(NAME, "env_seed", values["env_seed"], 0,
                             MAX_ENV_SEED)
    chance = check_chance_model(values["chance"])
    # The engine's names: imported when the first instance is made.
    self.base_tree = deferred.base_tree_for(values["game"])
    self.hidden = deferred.HiddenParameters.sample(self.base_tree, env_seed,
                                                   chance)
    self.instance = _Instance(self.base_tree, self.hidden)
    base = self.base_tree.game
    base_type = base.get_type()
    info = zero_sum_info(base.num_distinct_actions(),
                         max(base.max_chance_outcomes(), 2), 2, -1.0, 1.0,
                         base.max_game_length())
    pyspiel.Game.__init__(
        self, game_type(base_type.provides_information_state_tensor,
                        base_type.provides_observation_tensor),
        info, params or {})

  def _observed(self) -> pyspiel.Game:
    """What the observers are made from: the base game."""
    return self.base_tree.game


pyspiel.register_game(game_type(), UnknownEnvGame)
