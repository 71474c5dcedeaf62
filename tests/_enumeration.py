"""Reference values by enumeration, for tests of best responses on small
games.

Plain Python over a compiled tree's ``parent``, ``node_player``,
``infoset``, ``action`` and ``infoset_legal`` arrays: children found from
``parent``, expected utilities by a recursive walk, and every pure strategy
of a player (one legal action per infoset, all combinations). None of the
engine's passes (reach, values, best responses) is used.
"""

from __future__ import annotations

import itertools

import numpy as np

from spiel_ext.engine import CHANCE


def children_of(tree) -> list[list[int]]:
  """children[h]: the histories whose parent is h."""
  children = [[] for _ in range(tree.num_histories)]
  for history, parent in enumerate(tree.parent):
    if parent >= 0:
      children[int(parent)].append(history)
  return children


def expected_utility(tree, profile: np.ndarray, chance_prob: np.ndarray,
                     utility: np.ndarray, player: int,
                     children: list[list[int]] | None = None) -> float:
  """``player``'s expected utility when every player follows ``profile``
  [infosets, actions] in the game (chance_prob [histories], utility
  [histories, 2]) on ``tree``'s histories."""
  children = children_of(tree) if children is None else children

  def value(history: int) -> float:
    below = children[history]
    if not below:
      return float(utility[history, player])
    if tree.node_player[history] == CHANCE:
      return sum(float(chance_prob[child]) * value(child) for child in below)
    row = int(tree.infoset[history])
    return sum(float(profile[row, tree.action[child]]) * value(child)
               for child in below)

  (root,) = np.flatnonzero(np.asarray(tree.parent) < 0)
  return value(int(root))


def player_rows(tree, player: int) -> np.ndarray:
  """The rows of ``player``'s infosets."""
  return np.flatnonzero(np.asarray(tree.infoset_player) == player)


def pure_strategies(tree, player: int):
  """Yields every pure strategy of ``player``: [infosets, actions] arrays,
  one-hot on the player's rows, 0 on the other rows."""
  rows = player_rows(tree, player)
  legal = [np.flatnonzero(tree.infoset_legal[row]) for row in rows]
  for choice in itertools.product(*legal):
    strategy = np.zeros(tree.infoset_legal.shape)
    strategy[rows, list(choice)] = 1.0
    yield strategy


def combined(tree, own: np.ndarray, others: np.ndarray,
             player: int) -> np.ndarray:
  """``own`` on ``player``'s rows, ``others`` on the rest."""
  profile = np.array(others, dtype=np.float64, copy=True)
  rows = player_rows(tree, player)
  profile[rows] = own[rows]
  return profile


def pure_strategy_values(tree, player: int, others: np.ndarray,
                         objective) -> list[tuple[np.ndarray, float]]:
  """(strategy, objective(profile)) for every pure strategy of ``player``
  against ``others``' rows; ``objective`` maps a full profile to a float."""
  return [(strategy, objective(combined(tree, strategy, others, player)))
          for strategy in pure_strategies(tree, player)]
