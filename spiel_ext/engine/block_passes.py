"""The passes of :mod:`spiel_ext.engine.passes` on every core, bit for bit.

A large tree is cut once into blocks (:func:`spiel_ext.engine.schedules.
parallel_blocks`): ``top``, the few histories near the root that were split,
in pre-order, and ``roots``, disjoint subtrees below them that cover every
other history. A forward pass runs the top serially, then the blocks in
parallel (each block reads only its own histories and its root's parent).
A backward pass runs the blocks in parallel, each stopping below its root,
then ``tail`` (the top and the roots, deepest first) serially. Every
history's sum is thereby formed from the same terms in the same order as in
the serial pass. A sum over an infoset, whose histories lie in several
blocks, is gathered afterwards per infoset (infosets in parallel), adding
its histories in the serial pass's order. So every result equals the
serial pass's to the bit, whatever the number of threads, which only
decides which thread walks which blocks.

Notation as in :mod:`spiel_ext.engine.passes` (Zinkevich, Johanson,
Bowling, Piccione, "Regret Minimization in Games with Incomplete
Information", NeurIPS 2007).
"""

from __future__ import annotations

import numba
import numpy as np
from numba import prange

from spiel_ext.engine.constants import CHANCE, TERMINAL
from spiel_ext.engine.passes import (forward_step, jit, opponent_reach,
                                      step_jit)
from spiel_ext.engine.threads import serial_copy

# Kernels run on numba's threads; compiled once, cached on disk.
parallel_jit = numba.njit(cache=True, nogil=True, parallel=True)

# Each thread gets this many runs of blocks, for balance.
UNITS_PER_THREAD = 4


def num_units() -> int:
  """The ``units`` argument of the parallel kernels: a few runs of blocks
  per thread, for balance (which runs a thread takes changes no result)."""
  return numba.get_num_threads() * UNITS_PER_THREAD


@jit
def unit_bounds(roots, end, units):
  """Splits the blocks into ``units`` runs of about equal histories: run u
  is roots[bounds[u]:bounds[u + 1]]. The parallel kernels take ``units``
  (:func:`num_units`: a few per thread) and share the runs out."""
  total = 0
  for b in range(roots.shape[0]):
    total += end[roots[b]] - roots[b]
  bounds = np.empty(units + 1, dtype=np.int64)
  bounds[0] = 0
  unit = 1
  running = 0
  for b in range(roots.shape[0]):
    running += end[roots[b]] - roots[b]
    while unit < units and running * units >= total * unit:
      bounds[unit] = b + 1
      unit += 1
  while unit <= units:
    bounds[unit] = roots.shape[0]
    unit += 1
  return bounds


@parallel_jit
def forward_others(parent, parent_slot, policy_index, chance_prob, policy,
                   player, weight, others, top, roots, end, units):
  """:func:`spiel_ext.engine.passes.forward_others` by blocks."""
  flat = policy.reshape(-1)
  weight[0] = 1.0
  others[0] = 1.0
  for j in range(1, top.shape[0]):  # top[0] is the root.
    forward_step(top[j], parent, parent_slot, policy_index, chance_prob,
                 flat, player, weight, others)
  bounds = unit_bounds(roots, end, units)
  for unit in prange(bounds.shape[0] - 1):
    for b in range(bounds[unit], bounds[unit + 1]):
      for h in range(roots[b], end[roots[b]]):
        forward_step(h, parent, parent_slot, policy_index, chance_prob,
                     flat, player, weight, others)


@jit
def member_edges(history_members, end, action):
  """Where CFR's pass (:func:`spiel_ext.engine.stack_passes.stack_values`)
  writes a decision history's edges for the infoset gather:
  (member_position, edge_start, edge_action). History h =
  history_members[m] (its infoset's histories, infosets in row order) has
  member_position[h] = m (-1 for other histories) and its edges, children
  in pre-order, at edge_start[m]:edge_start[m + 1], edge_action[e] being
  the edge's action."""
  num_histories = end.shape[0]
  num_members = history_members.shape[0]
  member_position = np.full(num_histories, -1, dtype=np.int32)
  edge_start = np.zeros(num_members + 1, dtype=np.int64)
  for m in range(num_members):
    h = history_members[m]
    member_position[h] = m
    count = 0
    child = h + 1
    while child < end[h]:
      count += 1
      child = end[child]
    edge_start[m + 1] = edge_start[m] + count
  edge_action = np.empty(edge_start[num_members], dtype=np.int32)
  for m in range(num_members):
    h = history_members[m]
    edge = edge_start[m]
    child = h + 1
    while child < end[h]:
      edge_action[edge] = action[child]
      edge += 1
      child = end[child]
  return member_position, edge_start, edge_action


@jit
def row_units(history_start, edge_start, row_start, row_stop, units):
  """Splits rows row_start..row_stop-1 into ``units`` runs of about equal
  edges (an infoset's work is its histories' edges)."""
  first_edge = edge_start[history_start[row_start]]
  total = edge_start[history_start[row_stop]] - first_edge
  bounds = np.empty(units + 1, dtype=np.int64)
  bounds[0] = row_start
  unit = 1
  for row in range(row_start, row_stop):
    done = edge_start[history_start[row + 1]] - first_edge
    while unit < units and done * units >= total * unit:
      bounds[unit] = row + 1
      unit += 1
  while unit <= units:
    bounds[unit] = row_stop
    unit += 1
  return bounds


@parallel_jit
def gather_player_cfv(history_start, edge_start, edge_action, member_reach,
                      edge_value, row_start, row_stop, cfv, others_sum,
                      units):
  """Adds sum_{h in I} x_{-i}(h) into others_sum[I - row_start] and
  v_i(I, a) = sum_{h in I} x_{-i}(h) u_i(h.a) into cfv[I - row_start, a]
  for rows row_start..row_stop-1 (infosets in parallel), from what
  :func:`spiel_ext.engine.stack_passes.stack_values` wrote, in the serial
  pass's order: others_sum over
  I's histories in pre-order, cfv in reverse (each (I, a) has one edge per
  history of I). Threads take runs of rows of about equal edges."""
  bounds = row_units(history_start, edge_start, row_start, row_stop, units)
  for unit in prange(units):
    for row in range(bounds[unit], bounds[unit + 1]):
      r = row - row_start
      first, stop = history_start[row], history_start[row + 1]
      total = others_sum[r]
      for m in range(first, stop):
        total += member_reach[m]
      others_sum[r] = total
      for m in range(stop - 1, first - 1, -1):
        for edge in range(edge_start[m], edge_start[m + 1]):
          cfv[r, edge_action[edge]] += edge_value[edge]


@parallel_jit
def reach_probabilities(parent, parent_slot, weights, num_players, top,
                        roots, end, units):
  """:func:`spiel_ext.engine.passes.reach_probabilities` by blocks."""
  num_histories = parent.shape[0]
  reach = np.empty((num_histories, num_players + 1))
  reach[0, :] = 1.0
  for j in range(1, top.shape[0]):
    _reach_one(top[j], parent, parent_slot, weights, reach)
  bounds = unit_bounds(roots, end, units)
  for unit in prange(bounds.shape[0] - 1):
    for b in range(bounds[unit], bounds[unit + 1]):
      for h in range(roots[b], end[roots[b]]):
        _reach_one(h, parent, parent_slot, weights, reach)
  return reach


@step_jit
def _reach_one(h, parent, parent_slot, weights, reach):
  p = parent[h]
  for slot in range(reach.shape[1]):
    reach[h, slot] = reach[p, slot]
  reach[h, parent_slot[h]] *= weights[h]


@step_jit
def _copy_row(h, source, target):
  for column in range(source.shape[1]):
    target[h, column] = source[h, column]


@step_jit
def _value_one(h, parent, weights, values):
  w = weights[h]
  if w != 0.0:
    p = parent[h]
    for player in range(values.shape[1]):
      values[p, player] += w * values[h, player]


@parallel_jit
def expected_values(parent, weights, utility, top, tail, roots, end,
                    units):
  """:func:`spiel_ext.engine.passes.expected_values` by blocks."""
  values = np.empty((utility.shape[0], utility.shape[1]))
  for j in range(top.shape[0]):
    _copy_row(top[j], utility, values)
  bounds = unit_bounds(roots, end, units)
  for unit in prange(bounds.shape[0] - 1):
    for b in range(bounds[unit], bounds[unit + 1]):
      root = roots[b]
      for h in range(root, end[root]):
        _copy_row(h, utility, values)
      for h in range(end[root] - 1, root, -1):
        _value_one(h, parent, weights, values)
  for j in range(tail.shape[0]):
    _value_one(tail[j], parent, weights, values)
  return values


@parallel_jit
def counterfactual_values(node_player, infoset_player, history_start,
                          history_members, end, action, reach, values,
                          num_actions):
  """:func:`spiel_ext.engine.passes.counterfactual_values` gathered per
  infoset (infosets in parallel, histories in pre-order)."""
  num_infosets = infoset_player.shape[0]
  cfv = np.zeros((num_infosets, num_actions))
  for row in prange(num_infosets):
    acting = infoset_player[row]
    for j in range(history_start[row], history_start[row + 1]):
      h = history_members[j]
      reach_h = opponent_reach(reach, h, acting)
      child = h + 1
      while child < end[h]:
        cfv[row, action[child]] += reach_h * values[child, acting]
        child = end[child]
  return cfv


@parallel_jit
def infoset_reach(infoset_player, history_start, history_members, reach):
  """:func:`spiel_ext.engine.passes.infoset_reach` gathered per infoset."""
  num_infosets = infoset_player.shape[0]
  own = np.zeros(num_infosets)
  others = np.zeros(num_infosets)
  for row in prange(num_infosets):
    acting = infoset_player[row]
    total = 0.0
    for j in range(history_start[row], history_start[row + 1]):
      h = history_members[j]
      own[row] = reach[h, acting]
      total += opponent_reach(reach, h, acting)
    others[row] = total
  return own, others


def _edge_weights(policy_index, chance_prob, policy):
  """Probability of each history's incoming edge (1 at the root)."""
  flat = policy.reshape(-1)
  weights = np.empty(policy_index.shape[0])
  weights[0] = 1.0
  for h in prange(1, policy_index.shape[0]):
    k = policy_index[h]
    weights[h] = chance_prob[h] if k < 0 else flat[k]
  return weights


def _terminal_reaches(reach, terminals, utility):
  """One sweep over the terminals of a [histories, players + 1] reach table.

  Returns (others, root_values): others[k, i] = x_{-i}(z_k) for terminal
  z_k, and each player's expected utility sum_z P(z) u_i(z) (the terms
  formed in parallel, summed in terminal order).
  """
  num_players = utility.shape[1]
  others = np.empty((terminals.shape[0], num_players))
  terms = np.empty((terminals.shape[0], num_players))
  for k in prange(terminals.shape[0]):
    z = terminals[k]
    chance = reach[z, num_players]
    for i in range(num_players):
      product = chance
      for j in range(num_players):
        if j != i:
          product *= reach[z, j]
      others[k, i] = product
      terms[k, i] = product * reach[z, i] * utility[z, i]
  totals = np.zeros(num_players)
  for k in range(terminals.shape[0]):
    for i in range(num_players):
      totals[i] += terms[k, i]
  return others, totals


# Each compiled twice from one source: on numba's threads for a large tree,
# on the calling thread (prange runs as range) for a small one.
edge_weights = parallel_jit(_edge_weights)
edge_weights_serial = jit(serial_copy(_edge_weights))
terminal_reaches = parallel_jit(_terminal_reaches)
terminal_reaches_serial = jit(serial_copy(_terminal_reaches))
