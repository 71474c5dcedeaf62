"""The compiled tree of ``spiel_ext_unknown_env``, built from its base tree.

The true game of an unknown environment (Qiu, Wang, Ma, Wen, Zhang,
"Combining Counterfactual Regret Minimization with Information Gain to
Solve Extensive Games with Unknown Environments", 2023; see
:mod:`spiel_ext.games.unknown_env`) is its base game's tree with the hidden
chance probabilities c*, where each base terminal becomes a chance node
with two terminal children, the drawn reward: LOSS (player 0 gets -1) with
probability p(z), then WIN (+1). Its states keep a base-tree history and
read everything from the compiled base tree and the hidden parameters the
game already holds, so the same arrays follow from those directly:

- history h of the base tree is history h + 2 t(h) of the true game, t(h)
  the number of base terminals before h in pre-order (each brings its two
  reward children, which come right after it);
- infosets, their keys, players and legal actions are the base tree's
  (the true game's infostate strings are the base game's until the reward
  is drawn, and decisions come before it);
- chance probabilities are c* on the base histories (1 below a decision),
  p(z) and 1 - p(z) on the reward children; the utilities are the reward,
  -1 / +1 for player 0 and the opposite for player 1.

The engine uses :func:`build_unknown_env_tree` for every
``spiel_ext_unknown_env`` (``UnknownEnvGame.native_tree_builder``); it
returns exactly what the engine's generic walk of the game's states
returns, or None (the walk) for a base game without information-state
strings, whose true game the walk then refuses with its own error.
"""

from __future__ import annotations

import numpy as np

from spiel_ext.engine import CHANCE, TERMINAL, GameTree
from spiel_ext.engine.admission import SizeLimit
from spiel_ext.games.unknown_env.game import UnknownEnvGame
from spiel_ext.games.unknown_env.params import LOSS, WIN

__all__ = ["build_unknown_env_tree"]


def build_unknown_env_tree(game: UnknownEnvGame, limit: SizeLimit
                           ) -> tuple[dict[str, np.ndarray], list[str]] | None:
  """The arrays and infoset keys of a ``spiel_ext_unknown_env`` game.

  Args:
    game: the game (its base tree and hidden parameters already made).
    limit: the size limit the engine admitted the game with.

  Returns:
    (arrays, keys): the compiled arrays by name and the infostate string of
    every infoset row; None for a base game without information-state
    strings (the engine's walk then refuses the game).

  Raises:
    ValueError: the tree is above ``limit``.
  """
  if not game.base_tree.game.get_type().provides_information_state_string:
    return None
  num_histories = _admitted_size(game, limit)
  return (_true_game_arrays(game, num_histories),
          list(game.base_tree.infoset_keys))


def _admitted_size(game: UnknownEnvGame, limit: SizeLimit) -> int:
  """The true game's number of histories; refuses a tree above ``limit``."""
  base = game.base_tree
  num_histories = base.num_histories + 2 * len(base.terminals)
  key_bytes = sum(map(len, base.infoset_keys))
  if num_histories > limit.history_cap(2, base.num_infosets, key_bytes):
    raise limit.error(game, num_histories, "it has", base.num_infosets,
                      key_bytes)
  return num_histories


def _positions(base: GameTree) -> np.ndarray:
  """Where each base history goes in the true game (its reward children
  come right after each base terminal)."""
  reward_children = np.zeros(base.num_histories, dtype=np.int32)
  reward_children[base.terminals] = 2
  return (np.arange(base.num_histories, dtype=np.int32) +
          np.cumsum(reward_children, dtype=np.int32) - reward_children)


def _true_game_arrays(game: UnknownEnvGame,
                      num_histories: int) -> dict[str, np.ndarray]:
  """The compiled arrays by name, from the base tree and the hidden
  parameters."""
  base = game.base_tree
  terminals = base.terminals
  position = _positions(base)
  moved = position[terminals]
  loss, win = moved + 1, moved + 2

  parent = np.empty(num_histories, dtype=np.int32)
  parent[position[1:]] = position[base.parent[1:]]
  parent[0] = -1
  parent[loss] = parent[win] = moved
  action = np.empty(num_histories, dtype=np.int32)
  action[position] = base.action
  action[loss], action[win] = LOSS, WIN
  node_player = np.empty(num_histories, dtype=np.int32)
  node_player[position] = base.node_player
  node_player[moved] = CHANCE
  node_player[loss] = node_player[win] = TERMINAL
  infoset = np.full(num_histories, -1, dtype=np.int32)
  infoset[position] = base.infoset
  chance_prob = np.empty(num_histories)
  chance_prob[position] = game.hidden.chance_prob
  loss_prob = game.hidden.loss_prob[terminals].astype(np.float64)
  chance_prob[loss] = loss_prob
  chance_prob[win] = 1.0 - loss_prob
  utility = np.zeros((num_histories, 2))
  utility[loss] = (-1.0, 1.0)
  utility[win] = (1.0, -1.0)
  return {
      "parent": parent,
      "action": action,
      "node_player": node_player,
      "infoset": infoset,
      "chance_prob": chance_prob,
      "utility": utility,
      "infoset_player": base.infoset_player.copy(),
      "infoset_legal": base.infoset_legal.copy(),
      "infoset_history": position[base.infoset_history],
  }
