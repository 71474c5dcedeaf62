"""The numba-compiled passes every tabular algorithm shares (SPEC section 2).

All passes work on the flat arrays of :class:`spiel_ext.engine.GameTree`:
histories in pre-order (parents first, subtrees contiguous), so a forward
pass is one loop up the indices and a backward pass one loop down. A policy
is a [infosets, num_distinct_actions] float array laid out like OpenSpiel's
``TabularPolicy.action_probability_array``.

Notation (SPEC 3): x_i(h) is player i's own reach of h, x_{-i}(h) the reach
by chance and every other player, u_i(h) player i's expected utility below h.
"""

from __future__ import annotations

import numba
import numpy as np

CHANCE = -1
TERMINAL = -4

_jit = numba.njit(cache=True, nogil=True)


@_jit
def parent_slots(parent, node_player, num_players):
  """Who acts at each history's parent: a player, num_players for chance."""
  slots = np.empty(parent.shape[0], dtype=np.int32)
  slots[0] = -1
  for h in range(1, parent.shape[0]):
    acting = node_player[parent[h]]
    slots[h] = num_players if acting == CHANCE else acting
  return slots


@_jit
def edge_policy_index(parent, node_player, infoset, action, num_actions):
  """Flat index infoset(parent) * A + action of each decision edge, else -1."""
  index = np.full(parent.shape[0], -1, dtype=np.int64)
  for h in range(1, parent.shape[0]):
    p = parent[h]
    if node_player[p] >= 0:
      index[h] = np.int64(infoset[p]) * num_actions + action[h]
  return index


@_jit
def edge_weights(policy_index, chance_prob, policy):
  """Probability of each history's incoming edge (1 at the root)."""
  flat = policy.reshape(-1)
  weights = np.empty(policy_index.shape[0])
  weights[0] = 1.0
  for h in range(1, policy_index.shape[0]):
    k = policy_index[h]
    weights[h] = chance_prob[h] if k < 0 else flat[k]
  return weights


@_jit
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


@_jit
def subtree_ends(parent):
  """end[h]: one past the last history of h's subtree (pre-order ranges)."""
  num_histories = parent.shape[0]
  end = np.arange(1, num_histories + 1, dtype=np.int32)
  for h in range(num_histories - 1, 0, -1):
    if end[h] > end[parent[h]]:
      end[parent[h]] = end[h]
  return end


@_jit
def infoset_histories(infoset, num_infosets):
  """CSR lists of each infoset's histories in pre-order: infoset I holds
  histories[start[I]:start[I + 1]]."""
  start = np.zeros(num_infosets + 1, dtype=np.int64)
  for h in range(infoset.shape[0]):
    if infoset[h] >= 0:
      start[infoset[h] + 1] += 1
  for row in range(num_infosets):
    start[row + 1] += start[row]
  fill = start[:-1].copy()
  histories = np.empty(start[num_infosets], dtype=np.int32)
  for h in range(infoset.shape[0]):
    if infoset[h] >= 0:
      histories[fill[infoset[h]]] = h
      fill[infoset[h]] += 1
  return start, histories


@_jit
def own_edges(parent, node_player, policy_index, player):
  """Flat index J * A + a of the nearest edge out of one of ``player``'s
  histories above each history (-1 above the player's first decision)."""
  edge = np.full(parent.shape[0], -1, dtype=np.int64)
  for h in range(1, parent.shape[0]):
    p = parent[h]
    edge[h] = policy_index[h] if node_player[p] == player else edge[p]
  return edge


@_jit
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


@_jit
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


@_jit
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


@_jit
def forward_others(parent, parent_slot, policy_index, chance_prob, policy,
                   player, weight, others):
  """Fills weight[h] (the probability of h's edge) and others[h] =
  x_{-i}(h) (chance and every player but ``player``) in one forward sweep."""
  flat = policy.reshape(-1)
  weight[0] = 1.0
  others[0] = 1.0
  for h in range(1, parent.shape[0]):
    k = policy_index[h]
    w = chance_prob[h] if k < 0 else flat[k]
    weight[h] = w
    p = parent[h]
    others[h] = others[p] if parent_slot[h] == player else others[p] * w


@_jit
def others_from_reach(reach, player, histories):
  """x_{-i}(h) for the given histories, from a [histories, players + 1]
  reach table."""
  others = np.empty(histories.shape[0])
  for k in range(histories.shape[0]):
    others[k] = opponent_reach(reach, histories[k], player)
  return others


@_jit
def others_reach(parent, parent_slot, policy_index, chance_prob, policy,
                 player):
  """x_{-i}(h) for every history."""
  weight = np.empty(parent.shape[0])
  others = np.empty(parent.shape[0])
  forward_others(parent, parent_slot, policy_index, chance_prob, policy,
                 player, weight, others)
  return others


@_jit
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
  return value[0]


@_jit
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


@_jit
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


@_jit
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


@_jit
def opponent_reach(reach, h, player):
  """x_{-player}(h): product of every reach column but ``player``'s."""
  product = 1.0
  for slot in range(reach.shape[1]):
    if slot != player:
      product *= reach[h, slot]
  return product


@_jit
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


@_jit
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


@_jit
def children_lists(parent):
  """CSR child lists: the children of h are children[start[h]:start[h+1]],
  in increasing history index (the str(action) order of the walk)."""
  num_histories = parent.shape[0]
  start = np.zeros(num_histories + 1, dtype=np.int64)
  for h in range(1, num_histories):
    start[parent[h] + 1] += 1
  for h in range(num_histories):
    start[h + 1] += start[h]
  fill = start[:-1].copy()
  children = np.empty(max(num_histories - 1, 0), dtype=np.int32)
  for h in range(1, num_histories):
    children[fill[parent[h]]] = h
    fill[parent[h]] += 1
  return start, children


@_jit
def level_schedule(parent, node_player, infoset, player):
  """All histories sorted by (own-decision level descending, index
  descending); level L is order[bounds[L, 0]:bounds[L, 1]]. The level of h
  is the number of ``player``'s decisions above it. Also the player's
  infosets grouped by level: level L's are
  infosets[infoset_bounds[L, 0]:infoset_bounds[L, 1]]."""
  num_histories = parent.shape[0]
  level = np.zeros(num_histories, dtype=np.int32)
  max_level = 0
  for h in range(1, num_histories):
    p = parent[h]
    level[h] = level[p] + (1 if node_player[p] == player else 0)
    if level[h] > max_level:
      max_level = level[h]
  bounds = np.zeros((max_level + 1, 2), dtype=np.int64)
  for h in range(num_histories):
    bounds[level[h], 1] += 1
  position = 0
  for lev in range(max_level, -1, -1):
    size = bounds[lev, 1]
    bounds[lev, 0] = position
    bounds[lev, 1] = position
    position += size
  order = np.empty(num_histories, dtype=np.int32)
  for h in range(num_histories - 1, -1, -1):
    order[bounds[level[h], 1]] = h
    bounds[level[h], 1] += 1
  # The player's infosets by level, each listed once.
  num_infosets = infoset.max() + 1
  seen = np.zeros(num_infosets, dtype=np.bool_)
  infoset_bounds = np.zeros((max_level + 1, 2), dtype=np.int64)
  listed = np.empty(num_infosets, dtype=np.int32)
  count = 0
  for lev in range(max_level, -1, -1):
    infoset_bounds[lev, 0] = count
    for k in range(bounds[lev, 0], bounds[lev, 1]):
      h = order[k]
      if node_player[h] == player and not seen[infoset[h]]:
        seen[infoset[h]] = True
        listed[count] = infoset[h]
        count += 1
    infoset_bounds[lev, 1] = count
  return order, bounds, listed[:count], infoset_bounds


@_jit
def counterfactual_weights(parent, node_player, weights, player):
  """x_{-i}(h) at ``player``'s histories, multiplied from h's own edge up to
  the root edge: the order OpenSpiel's BestResponsePolicy uses, so that
  near-ties break the same way."""
  result = np.zeros(parent.shape[0])
  for h in range(parent.shape[0]):
    if node_player[h] == player:
      product = 1.0
      g = h
      while g > 0:
        if node_player[parent[g]] != player:
          product = product * weights[g]
        g = parent[g]
      result[h] = product
  return result


@_jit
def weighted_best_response(node_player, infoset, action, weights, utility,
                           player, order, bounds, level_infosets,
                           infoset_bounds, child_start, children,
                           infoset_weight, history_start, histories,
                           infoset_legal, infoset_num_actions,
                           min_action_prob):
  """Best response of ``player`` by backward induction on values.

  U(h) is the player's value below h: terminal payoff; at chance and other
  players' histories sum_c w(c) U(c) over the children in order; at the
  player's histories U(h.b) for the choice b of h's infoset I, which
  maximises Q(I, a) = sum_{g in I} infoset_weight[g] U(g.a) (first maximal
  action wins). With infoset_weight = x_{-i} this is the standard best
  response, computed in OpenSpiel's BestResponsePolicy order; with a belief
  it is the sequential best response to that belief. With min_action_prob
  = eps the player's histories mix eps on every action.

  Returns (U at the root, best action per infoset (-1 elsewhere), Q [I, A]).
  """
  num_infosets, num_actions = infoset_legal.shape
  value = np.zeros(node_player.shape[0])
  best = np.full(num_infosets, -1, dtype=np.int32)
  q = np.zeros((num_infosets, num_actions))
  for lev in range(bounds.shape[0] - 1, -1, -1):
    for k in range(infoset_bounds[lev, 0], infoset_bounds[lev, 1]):
      s = level_infosets[k]
      for j in range(history_start[s], history_start[s + 1]):
        g = histories[j]
        for c in range(child_start[g], child_start[g + 1]):
          q[s, action[children[c]]] += infoset_weight[g] * value[children[c]]
      top = -np.inf
      for a in range(num_actions):
        if infoset_legal[s, a] and q[s, a] > top:
          top = q[s, a]
          best[s] = a
    for k in range(bounds[lev, 0], bounds[lev, 1]):
      h = order[k]
      acting = node_player[h]
      if acting == TERMINAL:
        value[h] = utility[h, player]
      elif acting == player:
        s = infoset[h]
        total = 0.0
        for c in range(child_start[h], child_start[h + 1]):
          a = action[children[c]]
          share = min_action_prob
          if a == best[s]:
            share += 1.0 - infoset_num_actions[s] * min_action_prob
          if share > 0.0:
            total += share * value[children[c]]
        value[h] = total
      else:
        total = 0.0
        for c in range(child_start[h], child_start[h + 1]):
          w = weights[children[c]]
          if w > 0.0:
            total += w * value[children[c]]
        value[h] = total
  return value[0], best, q


@_jit
def has_near_tie(q, infoset_legal, start_row, stop_row, tolerance):
  """Whether any row's best legal Q is within ``tolerance`` (relative to
  its size, floored at 1) of the second best."""
  for row in range(start_row, stop_row):
    top = -np.inf
    second = -np.inf
    for a in range(q.shape[1]):
      if infoset_legal[row, a]:
        value = q[row, a]
        if value > top:
          second = top
          top = value
        elif value > second:
          second = value
    if second > -np.inf and top - second <= tolerance * max(1.0, abs(top)):
      return True
  return False


@_jit
def best_response_schedule(parent, node_player, action, player, num_actions):
  """The skeleton a best-response pass for ``player`` runs on.

  Only ``player``'s own decision histories need a choice; everything between
  them adds up linearly. So each history is attached to its nearest edge
  (g, a) out of one of ``player``'s histories g ("edge" g * A + a, -1 above
  the first decision), and the pass works on those histories alone, deepest
  first. The level of g is the number of ``player``'s decisions above it;
  under perfect recall (or equal own depth) an infoset's histories share a
  level, so every infoset is complete when its level is reached.

  Returns:
    (nodes, level_bounds, node_edge, terminal_edge): ``player``'s histories
    in processing order; level L is nodes[level_bounds[L, 0]:
    level_bounds[L, 1]]; node_edge[k] the edge (in skeleton positions) above
    nodes[k]; terminal_edge[z] the edge above terminal history z.
  """
  num_histories = parent.shape[0]
  level = np.zeros(num_histories, dtype=np.int32)
  max_level = 0
  count = 0
  for h in range(num_histories):
    if h > 0:
      p = parent[h]
      level[h] = level[p] + (1 if node_player[p] == player else 0)
    if node_player[h] == player:
      count += 1
      if level[h] > max_level:
        max_level = level[h]
  level_bounds = np.zeros((max_level + 1, 2), dtype=np.int64)
  for h in range(num_histories):
    if node_player[h] == player:
      level_bounds[level[h], 1] += 1
  position = 0
  for lev in range(max_level, -1, -1):
    size = level_bounds[lev, 1]
    level_bounds[lev, 0] = position
    level_bounds[lev, 1] = position
    position += size
  nodes = np.empty(count, dtype=np.int32)
  slot = np.full(num_histories, -1, dtype=np.int64)
  for h in range(num_histories):
    if node_player[h] == player:
      k = level_bounds[level[h], 1]
      nodes[k] = h
      slot[h] = k
      level_bounds[level[h], 1] += 1
  edge = np.full(num_histories, -1, dtype=np.int64)
  for h in range(1, num_histories):
    p = parent[h]
    if node_player[p] == player:
      edge[h] = slot[p] * num_actions + action[h]
    else:
      edge[h] = edge[p]
  node_edge = np.empty(count, dtype=np.int64)
  for k in range(count):
    node_edge[k] = edge[nodes[k]]
  terminal_edge = np.full(num_histories, -1, dtype=np.int64)
  for h in range(num_histories):
    if node_player[h] == TERMINAL:
      terminal_edge[h] = edge[h]
  return nodes, level_bounds, node_edge, terminal_edge


@_jit
def best_response(terminals, infoset, utility, terminal_others, player, nodes,
                  level_bounds, node_edge, terminal_edge, infoset_legal,
                  infoset_num_actions, min_action_prob):
  """Best-response pass for ``player`` (see GameTree.best_response).

  With cv(h) = x_{-i}(h) u_i^BR(h): C[g, a] = cv(g.a) for ``player``'s
  histories g is the sum of the terminal terms x_{-i}(z) u_i(z) attached to
  edge (g, a) plus cv of the decision histories attached to it; cv(g) =
  sum_a pi_I(a) C[g, a], with pi_I the best response at g's infoset I,
  which maximises Q[I, a] = sum_{g in I} C[g, a]. With min_action_prob = eps
  pi_I puts eps on every legal action and the rest on the maximiser (ties go
  to the lowest action id).
  """
  num_infosets, num_actions = infoset_legal.shape
  edge_value = np.zeros(nodes.shape[0] * num_actions)
  root_value = 0.0
  for k in range(terminals.shape[0]):
    z = terminals[k]
    term = utility[z, player]
    if term == 0.0:
      continue
    term *= terminal_others[k]
    e = terminal_edge[z]
    if e < 0:
      root_value += term
    else:
      edge_value[e] += term
  q = np.zeros((num_infosets, num_actions))
  best = np.full(num_infosets, -1, dtype=np.int32)
  for lev in range(level_bounds.shape[0] - 1, -1, -1):
    start, stop = level_bounds[lev, 0], level_bounds[lev, 1]
    for k in range(start, stop):
      s = infoset[nodes[k]]
      for a in range(num_actions):
        q[s, a] += edge_value[k * num_actions + a]
    for k in range(start, stop):
      s = infoset[nodes[k]]
      if best[s] < 0:
        choice = -1
        top = -np.inf
        for a in range(num_actions):
          if infoset_legal[s, a] and q[s, a] > top:
            top = q[s, a]
            choice = a
        best[s] = choice
      value = 0.0
      for a in range(num_actions):
        if infoset_legal[s, a]:
          weight = min_action_prob
          if a == best[s]:
            weight += 1.0 - infoset_num_actions[s] * min_action_prob
          value += weight * edge_value[k * num_actions + a]
      e = node_edge[k]
      if e < 0:
        root_value += value
      else:
        edge_value[e] += value
  return root_value, best, q


@_jit
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
