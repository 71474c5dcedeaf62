"""Belief passes: beliefs over the histories of an infoset, with fallbacks
off path, and the best value from each infoset on under a belief.

The belief and the perfect-Bayesian gap follow Qi Ju, Zhemei Fang, Yunfeng
Luo, "Beyond Nash Equilibrium: Achieving Bayesian Perfect Equilibrium with
Belief Update Fictitious Play", DDCLS 2024, arXiv:2409.02706 (section 4):
B(I, h) = x_{-i}(h) / sum_{h' in I} x_{-i}(h'), with a fallback where the
others never reach I (see :meth:`spiel_ext.engine.GameTree.beliefs`).
"""

from __future__ import annotations

import numpy as np

from spiel_ext.engine.passes import TERMINAL, jit


@jit
def belief_weights(node_player, infoset, others, uniform_opponents,
                   uniform_all, player, row_offset, num_rows):
  """Beliefs over ``player``'s histories (see GameTree.beliefs).

  ``others`` is x_{-i}(h) under the policy; ``uniform_opponents`` the
  same reach with every other player uniformly random (chance as it is);
  ``uniform_all`` with chance uniform over its outcomes too. Within each of
  the player's infosets the belief normalises the first of the three that
  has a positive sum there. Returns (belief over histories, on_path[rows]:
  whether ``others`` reaches the row).
  """
  num_histories = node_player.shape[0]
  sums = np.zeros((num_rows, 3))
  for h in range(num_histories):
    if node_player[h] == player:
      row = infoset[h] - row_offset
      sums[row, 0] += others[h]
      sums[row, 1] += uniform_opponents[h]
      sums[row, 2] += uniform_all[h]
  belief = np.zeros(num_histories)
  for h in range(num_histories):
    if node_player[h] == player:
      row = infoset[h] - row_offset
      if sums[row, 0] > 0.0:
        belief[h] = others[h] / sums[row, 0]
      elif sums[row, 1] > 0.0:
        belief[h] = uniform_opponents[h] / sums[row, 1]
      elif sums[row, 2] > 0.0:
        belief[h] = uniform_all[h] / sums[row, 2]
  on_path = np.empty(num_rows, dtype=np.bool_)
  for row in range(num_rows):
    on_path[row] = sums[row, 0] > 0.0
  return belief, on_path


@jit
def own_edges(parent, node_player, policy_index, player):
  """Flat index J * A + a of the nearest edge out of one of ``player``'s
  histories above each history (-1 above the player's first decision)."""
  edge = np.full(parent.shape[0], -1, dtype=np.int64)
  for h in range(1, parent.shape[0]):
    p = parent[h]
    edge[h] = policy_index[h] if node_player[p] == player else edge[p]
  return edge


@jit
def sequential_best_values(parent, parent_slot, node_player, infoset, weights,
                           utility, player, belief, subtree_end, own_edge,
                           own_sequence, history_start, histories, start_row,
                           stop_row, infoset_legal):
  """For each infoset I of ``player`` (rows start_row..stop_row-1): the best
  value the player can get from I on, over every continuation strategy (one
  choice per infoset below I), when I is reached with the given belief.

  ``belief[h]`` is the normalised belief over each infoset's histories. From
  I's histories the belief is carried down by chance and the other players'
  edge probabilities (``weights``); the player's own choices below I are
  then optimised infoset by infoset from the bottom up: V(J) = max_a
  [sum of weighted terminal payoffs attached to (J, a) + sum of V(J') over
  the infosets J' that (J, a) leads to]. Perfect recall makes every J below
  I hold only descendants of I's histories. Cost: the size of I's subtrees.
  """
  num_infosets, num_actions = infoset_legal.shape
  num_histories = parent.shape[0]
  carried = np.zeros(num_histories)
  totals = np.zeros(num_infosets * num_actions)
  touched = np.zeros(num_infosets, dtype=np.bool_)
  below = np.empty(num_infosets, dtype=np.int64)
  best = np.zeros(stop_row - start_row)
  for row in range(start_row, stop_row):
    count = 0
    for k in range(history_start[row], history_start[row + 1]):
      root = histories[k]
      carried[root] = belief[root]
      for g in range(root + 1, subtree_end[root]):
        p = parent[g]
        carried[g] = carried[p] if parent_slot[g] == player else (
            carried[p] * weights[g])
        if node_player[g] == TERMINAL:
          totals[own_edge[g]] += carried[g] * utility[g, player]
        elif node_player[g] == player and not touched[infoset[g]]:
          touched[infoset[g]] = True
          below[count] = infoset[g]
          count += 1
    # Deeper infosets have larger rows than the infosets above them.
    order = np.sort(below[:count])[::-1]
    for j in range(count):
      sub = order[j]
      value = -np.inf
      for a in range(num_actions):
        if infoset_legal[sub, a]:
          value = max(value, totals[sub * num_actions + a])
          totals[sub * num_actions + a] = 0.0
      totals[own_sequence[sub]] += value
      touched[sub] = False
    value = -np.inf
    for a in range(num_actions):
      if infoset_legal[row, a]:
        value = max(value, totals[row * num_actions + a])
        totals[row * num_actions + a] = 0.0
    best[row - start_row] = value
  return best
