"""The numba-compiled passes every tabular algorithm shares.

All passes work on the flat arrays of :class:`spiel_ext.engine.GameTree`:
histories in pre-order (parents first, subtrees contiguous), so a forward
pass is one loop up the indices and a backward pass one loop down. A policy
is a [infosets, num_distinct_actions] float array laid out like OpenSpiel's
``TabularPolicy.action_probability_array``.

Notation: x_i(h) is player i's own reach of h, x_{-i}(h) the reach by
chance and every other player, u_i(h) player i's expected utility below h
(as in Zinkevich, Johanson, Bowling, Piccione, "Regret Minimization in Games
with Incomplete Information", NeurIPS 2007).
"""

from __future__ import annotations

import numba
import numpy as np

# Module-level ints: numba compiles them in as constants.
from spiel_ext.engine.constants import CHANCE, TERMINAL

# The engine's kernels: compiled once, cached on disk, releasing the GIL.
jit = numba.njit(cache=True, nogil=True)

# The per-history steps, inlined at numba's level into the serial kernels
# and into the block kernels' parallel loops (LLVM does not inline calls
# out of a parallel loop's body, which made those passes several times
# slower).
step_jit = numba.njit(cache=True, nogil=True, inline="always")


@jit
def parent_slots(parent, node_player, num_players):
  """Who acts at each history's parent: a player, num_players for chance."""
  slots = np.empty(parent.shape[0], dtype=np.int32)
  slots[0] = -1
  for h in range(1, parent.shape[0]):
    acting = node_player[parent[h]]
    slots[h] = num_players if acting == CHANCE else acting
  return slots


@jit
def edge_policy_index(parent, node_player, infoset, action, num_actions):
  """Flat index infoset(parent) * A + action of each decision edge, else -1."""
  index = np.full(parent.shape[0], -1, dtype=np.int64)
  for h in range(1, parent.shape[0]):
    p = parent[h]
    if node_player[p] >= 0:
      index[h] = np.int64(infoset[p]) * num_actions + action[h]
  return index


@jit
def subtree_ends(parent):
  """end[h]: one past the last history of h's subtree (pre-order ranges)."""
  num_histories = parent.shape[0]
  end = np.arange(1, num_histories + 1, dtype=np.int32)
  for h in range(num_histories - 1, 0, -1):
    if end[h] > end[parent[h]]:
      end[parent[h]] = end[h]
  return end


@jit
def group_indices(keys, num_groups):
  """CSR grouping of indices by key, in increasing index: group g holds
  members[start[g]:start[g + 1]]; negative keys belong to no group."""
  start = np.zeros(num_groups + 1, dtype=np.int64)
  for k in range(keys.shape[0]):
    if keys[k] >= 0:
      start[keys[k] + 1] += 1
  for g in range(num_groups):
    start[g + 1] += start[g]
  fill = start[:-1].copy()
  members = np.empty(start[num_groups], dtype=np.int32)
  for k in range(keys.shape[0]):
    if keys[k] >= 0:
      members[fill[keys[k]]] = k
      fill[keys[k]] += 1
  return start, members


@jit
def infoset_histories(infoset, num_infosets):
  """Each infoset's histories in pre-order: infoset I holds
  histories[start[I]:start[I + 1]]."""
  return group_indices(infoset, num_infosets)


@jit
def own_sequences(parent, node_player, action, infoset, infoset_history,
                  infoset_player, num_actions):
  """For each infoset I, the acting player's previous own decision as a flat
  index I' * A + a' (-1 when I is the player's first decision), read off
  I's first history (all of I's histories agree under perfect recall)."""
  num_infosets = infoset_history.shape[0]
  sequence = np.full(num_infosets, -1, dtype=np.int64)
  for row in range(num_infosets):
    child = infoset_history[row]
    h = parent[child]
    while h >= 0:
      if node_player[h] == infoset_player[row]:
        sequence[row] = np.int64(infoset[h]) * num_actions + action[child]
        break
      child = h
      h = parent[h]
  return sequence


@jit
def own_reach_of_infosets(own_sequence, policy, start, stop):
  """x_i(I) for rows start..stop-1 of one player, from own_sequences.

  A parent sequence's infoset precedes its children in row order (its first
  history comes first in pre-order), so one forward loop suffices.
  """
  flat = policy.reshape(-1)
  num_actions = policy.shape[1]
  reach = np.ones(stop - start)
  for row in range(start, stop):
    k = own_sequence[row]
    if k >= 0:
      reach[row - start] = reach[k // num_actions - start] * flat[k]
  return reach


@jit
def forward_others(parent, parent_slot, policy_index, chance_prob, policy,
                   player, weight, others):
  """Fills weight[h] (the probability of h's edge) and others[h] =
  x_{-i}(h) (chance and every player but ``player``) in one forward sweep."""
  flat = policy.reshape(-1)
  weight[0] = 1.0
  others[0] = 1.0
  # The loop's body is forward_step's, written out: called here, even
  # inlined at numba's level, the step made this pass 20x slower.
  for h in range(1, parent.shape[0]):
    k = policy_index[h]
    w = chance_prob[h] if k < 0 else flat[k]
    weight[h] = w
    p = parent[h]
    others[h] = others[p] if parent_slot[h] == player else others[p] * w


@step_jit
def forward_step(h, parent, parent_slot, policy_index, chance_prob, flat,
                 player, weight, others):
  """One history of :func:`forward_others`: its edge's probability
  (``flat`` is the policy's flat view) and its x_{-i}; the step of the
  block passes' parallel loops."""
  k = policy_index[h]
  w = chance_prob[h] if k < 0 else flat[k]
  weight[h] = w
  p = parent[h]
  others[h] = others[p] if parent_slot[h] == player else others[p] * w


@jit
def others_from_reach(reach, player, histories):
  """x_{-i}(h) for the given histories, from a [histories, players + 1]
  reach table."""
  others = np.empty(histories.shape[0])
  for k in range(histories.shape[0]):
    others[k] = opponent_reach(reach, histories[k], player)
  return others


@jit
def others_reach(parent, parent_slot, policy_index, chance_prob, policy,
                 player):
  """x_{-i}(h) for every history."""
  weight = np.empty(parent.shape[0])
  others = np.empty(parent.shape[0])
  forward_others(parent, parent_slot, policy_index, chance_prob, policy,
                 player, weight, others)
  return others


@jit
def player_regret_pass(parent, parent_slot, policy_index, node_player,
                       infoset, chance_prob, utility, policy, player, track_own,
                       cfv, own_reach, others_sum, row_offset):
  """One player's counterfactual values in two sweeps (CFR's pass).

  Adds v_i(I, a) = sum_{h in I} x_{-i}(h) u_i(h.a) into
  cfv[I - row_offset, a] for ``player``'s infosets I; histories that chance
  and the other players reach with probability 0 add nothing and are
  skipped on the way back. With ``track_own``, also adds
  sum_{h in I} x_i(h) into own_reach[I - row_offset] (what OpenSpiel's CFR
  weights its average with; it differs from x_i(I) only without perfect
  recall). Adds sum_{h in I} x_{-i}(h) into others_sum[I - row_offset].
  Returns u_i at the root.
  """
  num_histories = parent.shape[0]
  num_actions = policy.shape[1]
  weight = np.empty(num_histories)
  others = np.empty(num_histories)
  forward_others(parent, parent_slot, policy_index, chance_prob, policy,
                 player, weight, others)
  for h in range(num_histories):
    if node_player[h] == player:
      others_sum[infoset[h] - row_offset] += others[h]
  if track_own:
    own = np.empty(num_histories)
    own[0] = 1.0
    for h in range(num_histories):
      if h > 0:
        p = parent[h]
        own[h] = own[p] * weight[h] if parent_slot[h] == player else own[p]
      if node_player[h] == player:
        own_reach[infoset[h] - row_offset] += own[h]
  value = np.zeros(num_histories)
  cfv_flat = cfv.reshape(-1)
  offset = np.int64(row_offset) * num_actions
  for h in range(num_histories - 1, 0, -1):
    if others[h] == 0.0:
      continue
    if node_player[h] == TERMINAL:
      value[h] = utility[h, player]
    v = value[h]
    p = parent[h]
    value[p] += weight[h] * v
    if parent_slot[h] == player:
      cfv_flat[policy_index[h] - offset] += others[p] * v


@jit
def reach_probabilities(parent, parent_slot, weights, num_players):
  """Forward pass: reach[h, p] = x_p(h), reach[h, num_players] = chance."""
  num_histories = parent.shape[0]
  reach = np.empty((num_histories, num_players + 1))
  reach[0, :] = 1.0
  for h in range(1, num_histories):
    p = parent[h]
    for slot in range(num_players + 1):
      reach[h, slot] = reach[p, slot]
    reach[h, parent_slot[h]] *= weights[h]
  return reach


@jit
def expected_values(parent, weights, utility):
  """Backward pass: values[h, p] = u_p(h), the expected utility below h."""
  values = utility.copy()
  num_players = utility.shape[1]
  for h in range(parent.shape[0] - 1, 0, -1):
    p = parent[h]
    w = weights[h]
    if w != 0.0:
      for player in range(num_players):
        values[p, player] += w * values[h, player]
  return values


@jit
def terminal_values(terminals, reach, utility):
  """Root expected values as sum_z P(z) u(z) over the terminal histories."""
  num_players = utility.shape[1]
  totals = np.zeros(num_players)
  for k in range(terminals.shape[0]):
    z = terminals[k]
    probability = 1.0
    for slot in range(reach.shape[1]):
      probability *= reach[z, slot]
    if probability != 0.0:
      for player in range(num_players):
        totals[player] += probability * utility[z, player]
  return totals


@jit
def opponent_reach(reach, h, player):
  """x_{-player}(h): product of every reach column but ``player``'s."""
  product = 1.0
  for slot in range(reach.shape[1]):
    if slot != player:
      product *= reach[h, slot]
  return product


@jit
def counterfactual_values(parent, node_player, infoset, action, reach, values,
                          num_infosets, num_actions):
  """cfv[I, a] = sum_{h in I} x_{-i}(h) u_i(h.a), i the player acting at I."""
  cfv = np.zeros((num_infosets, num_actions))
  for h in range(1, parent.shape[0]):
    p = parent[h]
    acting = node_player[p]
    if acting >= 0:
      cfv[infoset[p], action[h]] += (opponent_reach(reach, p, acting) *
                                     values[h, acting])
  return cfv


@jit
def infoset_reach(node_player, infoset, reach, num_infosets):
  """own[I] = x_i(I) and others[I] = sum_{h in I} x_{-i}(h)."""
  own = np.zeros(num_infosets)
  others = np.zeros(num_infosets)
  for h in range(node_player.shape[0]):
    acting = node_player[h]
    if acting >= 0:
      own[infoset[h]] = reach[h, acting]
      others[infoset[h]] += opponent_reach(reach, h, acting)
  return own, others


@jit
def children_lists(parent):
  """The children of h are children[start[h]:start[h+1]], in increasing
  history index (the str(action) order of the walk). The root's parent is
  -1, so it is in no list."""
  return group_indices(parent, parent.shape[0])


@jit
def recall_violation(parent, node_player, infoset, action, player,
                     num_infosets, num_actions):
  """How ``player``'s infosets break perfect recall, if they do.

  Returns 0 under perfect recall (every history of an infoset has the same
  previous own (infoset, action)); I + 1 for the first infoset I that breaks
  it while its histories still share their own-decision depth; -(I + 1) for
  the first infoset whose histories differ in own-decision depth.
  """
  num_histories = parent.shape[0]
  last_own = np.full(num_histories, -1, dtype=np.int64)
  own_depth = np.zeros(num_histories, dtype=np.int32)
  seen_last = np.full(num_infosets, -2, dtype=np.int64)
  seen_depth = np.full(num_infosets, -1, dtype=np.int32)
  for h in range(1, num_histories):
    p = parent[h]
    if node_player[p] == player:
      last_own[h] = np.int64(infoset[p]) * num_actions + action[h]
      own_depth[h] = own_depth[p] + 1
    else:
      last_own[h] = last_own[p]
      own_depth[h] = own_depth[p]
  first_break = -1
  for h in range(num_histories):
    if node_player[h] == player:
      s = infoset[h]
      if seen_depth[s] < 0:
        seen_depth[s] = own_depth[h]
        seen_last[s] = last_own[h]
      elif seen_depth[s] != own_depth[h]:
        return -(s + 1)
      elif seen_last[s] != last_own[h] and first_break < 0:
        first_break = s
  return first_break + 1


@jit
def chance_distribution_problem(parent, node_player, chance_prob, tolerance):
  """The first chance history whose outcome probabilities are not a
  distribution (a value outside [0, 1], NaN, or a sum off 1 by more than
  ``tolerance``), or -1 when every chance node is fine."""
  num_histories = parent.shape[0]
  total = np.zeros(num_histories)
  for h in range(1, num_histories):
    p = parent[h]
    if node_player[p] == CHANCE:
      q = chance_prob[h]
      if not (q >= 0.0 and q <= 1.0):
        return p
      total[p] += q
  for h in range(num_histories):
    if node_player[h] == CHANCE and not abs(total[h] - 1.0) <= tolerance:
      return h
  return -1


@jit
def utility_problem(node_player, utility):
  """The first history whose utility row is not finite, or is non-zero
  away from a terminal; -1 when every row is fine."""
  for h in range(utility.shape[0]):
    terminal = node_player[h] == TERMINAL
    for p in range(utility.shape[1]):
      u = utility[h, p]
      if not np.isfinite(u) or (u != 0.0 and not terminal):
        return h
  return -1


@jit
def sample_chance_outcomes(node_player, start, members, chance_prob,
                           uniforms, out):
  """One outcome per chance node: out holds 1 on the drawn child's edge and
  0 on its siblings (1 on every edge out of a decision node); the k-th
  chance node in pre-order draws with ``uniforms[k]``."""
  out[:] = 1.0
  k = 0
  for h in range(node_player.shape[0]):
    if node_player[h] != CHANCE:
      continue
    first, stop = start[h], start[h + 1]
    chosen = members[stop - 1]
    total = 0.0
    for j in range(first, stop):
      total += chance_prob[members[j]]
      if uniforms[k] < total:
        chosen = members[j]
        break
    for j in range(first, stop):
      out[members[j]] = 0.0
    out[chosen] = 1.0
    k += 1


@jit
def numpy_sum(values):
  """``values.sum()`` with numpy's order of additions (its pairwise sum of
  a contiguous array: one accumulator below 8 values, else 8 of them, up
  to 128 values)."""
  n = values.shape[0]
  if n < 8:
    total = 0.0
    for k in range(n):
      total += values[k]
    return total
  lanes = values[:8].copy()
  stop = n - n % 8
  for k in range(8, stop, 8):
    for lane in range(8):
      lanes[lane] += values[k + lane]
  total = ((lanes[0] + lanes[1]) + (lanes[2] + lanes[3])) + (
      (lanes[4] + lanes[5]) + (lanes[6] + lanes[7]))
  for k in range(stop, n):
    total += values[k]
  return total
