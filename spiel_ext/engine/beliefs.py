"""Belief passes (SPEC 3.2 and 5): beliefs with the uniform-opponent
fallback off path, and the best value from each infoset on under a belief
(the perfect-Bayesian gap of seed 000)."""

from __future__ import annotations

import numpy as np

from spiel_ext.engine.passes import TERMINAL, forward_others, jit


@jit
def belief_weights(parent, parent_slot, policy_index, node_player, infoset,
                   chance_prob, uniform_weight, policy, player, row_offset,
                   num_rows):
  """Beliefs over ``player``'s histories (see GameTree.beliefs).

  One forward pass carries x_{-i}(h) under ``policy`` and the fallback
  w(h) (chance reach times uniformly random opponents: ``uniform_weight``
  holds 1/|A| on decision edges and chance probabilities on chance edges);
  a second normalises within each infoset, using w where x_{-i} sums to 0.
  """
  num_histories = parent.shape[0]
  weight = np.empty(num_histories)
  others = np.empty(num_histories)
  fallback = np.empty(num_histories)
  forward_others(parent, parent_slot, policy_index, chance_prob, policy,
                 player, weight, others)
  # Uniform opponents: every decision edge weighs 1/|A|, chance its chance
  # probability (uniform_weight holds exactly that, as edge weights of the
  # uniform policy).
  no_edges = np.full(num_histories, -1, dtype=policy_index.dtype)
  forward_others(parent, parent_slot, no_edges, uniform_weight, policy,
                 player, weight, fallback)
  on_sum = np.zeros(num_rows)
  off_sum = np.zeros(num_rows)
  for h in range(num_histories):
    if node_player[h] == player:
      on_sum[infoset[h] - row_offset] += others[h]
      off_sum[infoset[h] - row_offset] += fallback[h]
  belief = np.zeros(num_histories)
  for h in range(num_histories):
    if node_player[h] == player:
      row = infoset[h] - row_offset
      if on_sum[row] > 0.0:
        belief[h] = others[h] / on_sum[row]
      elif off_sum[row] > 0.0:
        belief[h] = fallback[h] / off_sum[row]
  return belief, on_sum > 0.0


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
