"""Best-response passes: the fast skeleton pass used for NashConv
and the value-order pass that reproduces OpenSpiel's tie-breaking.

The skeleton pass works on one player's decision histories only (everything
between them adds up linearly); the value-order pass does backward induction
on unweighted values with infoset weights, the way OpenSpiel's
``BestResponsePolicy`` sums, and doubles as the sequential best response to a
belief (BUFP(X) of Qi Ju, Zhemei Fang, Yunfeng Luo, "Beyond Nash Equilibrium:
Achieving Bayesian Perfect Equilibrium with Belief Update Fictitious Play",
DDCLS 2024, arXiv:2409.02706).
"""

from __future__ import annotations

import numpy as np

from spiel_ext.engine.passes import TERMINAL, jit


@jit
def own_levels(parent, node_player, player):
  """level[h]: the number of ``player``'s decisions strictly above h."""
  level = np.zeros(parent.shape[0], dtype=np.int32)
  for h in range(1, parent.shape[0]):
    p = parent[h]
    level[h] = level[p] + (1 if node_player[p] == player else 0)
  return level


@jit
def deepest_first(level, include, descending):
  """The included indices grouped by level, deepest level first; within a
  level in descending or ascending index. Returns (order, bounds): level L
  is order[bounds[L, 0]:bounds[L, 1]]."""
  max_level = 0
  count = 0
  for k in range(level.shape[0]):
    if include[k]:
      count += 1
      max_level = max(max_level, level[k])
  bounds = np.zeros((max_level + 1, 2), dtype=np.int64)
  for k in range(level.shape[0]):
    if include[k]:
      bounds[level[k], 1] += 1
  position = 0
  for lev in range(max_level, -1, -1):
    size = bounds[lev, 1]
    bounds[lev, 0] = position
    bounds[lev, 1] = position
    position += size
  order = np.empty(count, dtype=np.int32)
  for j in range(level.shape[0]):
    k = level.shape[0] - 1 - j if descending else j
    if include[k]:
      order[bounds[level[k], 1]] = k
      bounds[level[k], 1] += 1
  return order, bounds


@jit
def level_schedule(parent, node_player, infoset, player):
  """All histories sorted by (own-decision level descending, index
  descending); level L is order[bounds[L, 0]:bounds[L, 1]]. The level of h
  is the number of ``player``'s decisions above it. Also the player's
  infosets grouped by level: level L's are
  infosets[infoset_bounds[L, 0]:infoset_bounds[L, 1]]."""
  level = own_levels(parent, node_player, player)
  order, bounds = deepest_first(level, np.ones(parent.shape[0], np.bool_),
                                True)
  max_level = bounds.shape[0] - 1
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


@jit
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


@jit
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


@jit
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


@jit
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
  level = own_levels(parent, node_player, player)
  nodes, level_bounds = deepest_first(level, node_player == player, False)
  count = nodes.shape[0]
  slot = np.full(num_histories, -1, dtype=np.int64)
  for k in range(count):
    slot[nodes[k]] = k
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


@jit
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
