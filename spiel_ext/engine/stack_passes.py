"""CFR's counterfactual-value pass on every core, with a value stack.

The pass of :func:`spiel_ext.engine.passes.player_regret_pass` (Zinkevich,
Johanson, Bowling, Piccione, "Regret Minimization in Games with Incomplete
Information", NeurIPS 2007: v_i(I, a) = sum_{h in I} x_{-i}(h) u_i(h.a)) on
the blocks of :func:`spiel_ext.engine.schedules.parallel_blocks`, reading
as few bytes per history as it can, for it is bound by memory traffic:

- the forward sweep fills x_{-i} of the decision and chance histories only,
  in arrays indexed by their place among them (``internal``), so it reads
  and writes contiguous runs;
- the backward sweep walks each block's histories last to first, the order
  in which a postfix expression is evaluated: each history pushes its value
  and the probability of its incoming edge onto a stack, and a decision or
  chance history pops its children's (last child first, the serial pass's
  order of addition). No per-history value array is read or written, and
  an edge's probability is read through one index (:class:`StackLayout`).

The top of the tree (the few histories above the blocks) runs serially
after the blocks, reading the blocks' root values. The sums are the serial
pass's, term for term, so every result equals it to the bit whatever the
number of threads.
"""

from __future__ import annotations

from typing import NamedTuple

import numba
import numpy as np
from numba import prange

from spiel_ext.engine.constants import CHANCE, TERMINAL
from spiel_ext.engine.passes import jit
from spiel_ext.engine.prefetch import prefetch

parallel_jit = numba.njit(cache=True, nogil=True, parallel=True)
step_jit = numba.njit(cache=True, nogil=True, inline="always")

# Indices known to be >= 0 are cast to this in the hot loops: numba checks
# a signed index for a negative value (counting from the end), which made
# the backward sweep 1.4x slower.
unsigned = numba.uint64

# How many histories ahead the backward sweep prefetches an edge's policy
# entry, for a policy of at least PREFETCH_MIN_BYTES (a table that does not
# stay in cache: 1.2x faster on a 23 MB one, slower on a 0.6 MB one).
PREFETCH_AHEAD = 16
PREFETCH_MIN_BYTES = 4 << 20


class StackLayout(NamedTuple):
  """What the stack passes read, derived once per tree.

  ``weight_index[h]``: where the probability of h's incoming edge is: the
  policy's flat index for a player's edge, else the policy's size plus the
  index in :func:`chance_weights` (a chance edge's probability, or 1 for
  the root). ``chance_edges``: the histories whose parent is chance, in
  pre-order (the order of their entries). ``node_kind``: node_player as
  int8. Per non-terminal history j = 0, 1, ... in pre-order (h =
  internal[j]): ``parent_position`` (j of h's parent, -1 at the root),
  ``num_children``, ``internal_weight_index`` and ``internal_parent_slot``
  (weight_index and parent_slot of h). ``stack_size``: the most entries the backward sweep's stack
  holds; ``max_children``: the most children of a history."""
  weight_index: np.ndarray
  chance_edges: np.ndarray
  node_kind: np.ndarray
  parent_position: np.ndarray
  num_children: np.ndarray
  internal_weight_index: np.ndarray
  internal_parent_slot: np.ndarray
  stack_size: int
  max_children: int


def stack_layout(parent: np.ndarray, parent_slot: np.ndarray,
                 node_player: np.ndarray, policy_index: np.ndarray,
                 num_policy_entries: int) -> StackLayout:
  """The :class:`StackLayout` of a tree.

  Args:
    parent: each history's parent (-1 at the root).
    parent_slot: who acts at each history's parent (num_players: chance).
    node_player: who acts at each history (TERMINAL, CHANCE or a player).
    policy_index: each player edge's flat policy index, -1 elsewhere.
    num_policy_entries: num_infosets * num_distinct_actions.

  Returns:
    The tree's StackLayout.
  """
  internal = np.flatnonzero(node_player != TERMINAL)
  chance_edges = np.flatnonzero(policy_index < 0)[1:].astype(np.int32)
  table_size = num_policy_entries + len(chance_edges) + 1
  index_type = np.int32 if table_size < 2**31 else np.int64
  weight_index = policy_index.astype(index_type)
  weight_index[chance_edges] = num_policy_entries + np.arange(
      len(chance_edges), dtype=index_type)
  weight_index[0] = table_size - 1
  position = np.full(len(parent), -1, dtype=np.int32)
  position[internal] = np.arange(len(internal), dtype=np.int32)
  parent_position = np.where(internal > 0, position[parent[internal]],
                             -1).astype(np.int32)
  num_children = np.bincount(parent[1:], minlength=len(parent))[
      internal].astype(np.int32)
  slot_type = np.int8 if parent_slot.max() < 127 else np.int32
  return StackLayout(
      weight_index, chance_edges, node_player.astype(np.int8),
      parent_position, num_children, weight_index[internal],
      parent_slot[internal].astype(slot_type),
      int(_stack_size(node_player, internal, num_children)),
      int(num_children.max()))


@jit
def _stack_size(node_player, internal, num_children):
  size = 0
  most = 0
  j = internal.shape[0] - 1
  for h in range(node_player.shape[0] - 1, -1, -1):
    if node_player[h] != TERMINAL:
      size -= num_children[j]
      j -= 1
    size += 1
    most = max(most, size)
  return most


@jit
def chance_weights(chance_prob, chance_edges):
  """The entries of weight_index past the policy: the chance probabilities
  of ``chance_edges``, then 1 (the root's)."""
  weights = np.empty(chance_edges.shape[0] + 1)
  for k in range(chance_edges.shape[0]):
    weights[k] = chance_prob[chance_edges[k]]
  weights[chance_edges.shape[0]] = 1.0
  return weights


@step_jit
def _edge_weight(k, flat, chance):
  """The probability at weight_index k: in the policy or past it (a branch
  the processor predicts: most edges are the players')."""
  size = flat.shape[0]
  if k < size:
    return flat[unsigned(k)]
  return chance[unsigned(k - size)]


@step_jit
def _others_one(j, parent_position, weight_index, parent_slot, flat, chance,
                player, others):
  # x * 1.0 is x exactly: a select, not a branch.
  j = unsigned(j)
  w = _edge_weight(weight_index[j], flat, chance)
  factor = 1.0 if parent_slot[j] == player else w
  others[j] = others[unsigned(parent_position[j])] * factor


@parallel_jit
def stack_others(parent_position, weight_index, parent_slot, policy, chance,
                 player, others, top_position, first, stop, bounds):
  """x_{-i}(h) into others[j] for every non-terminal history h =
  internal[j]: the top serially, then the blocks' runs ``bounds`` of
  :func:`spiel_ext.engine.block_passes.unit_bounds` in parallel."""
  flat = policy.reshape(-1)
  others[0] = 1.0
  for t in range(1, top_position.shape[0]):  # The root is top[0].
    _others_one(top_position[t], parent_position, weight_index, parent_slot,
                flat, chance, player, others)
  for unit in prange(bounds.shape[0] - 1):
    for b in range(bounds[unit], bounds[unit + 1]):
      for j in range(first[b], stop[b]):
        _others_one(j, parent_position, weight_index, parent_slot, flat,
                    chance, player, others)


@step_jit
def _pop_children(values, probabilities, base, top, reach, own, edge,
                  edge_value):
  """u_i(h) from h's children's entries values/probabilities[base:top]
  (last child first); at the player's own h also x_{-i}(h) u_i(h.a) into
  edge_value from ``edge`` down."""
  total = 0.0
  for s in range(base, top):
    v = values[unsigned(s)]
    w = probabilities[unsigned(s)]
    if own:
      edge_value[unsigned(edge)] = reach * v
      edge -= 1
    # A sum that starts at +0 never becomes -0: adding +0 where the serial
    # pass skips a child unreached by chance and the others leaves it be.
    reached = (reach if own else reach * w) != 0.0
    total += w * v if reached else 0.0
  return total


@step_jit
def _block_values(root, stop_history, last_position, node_kind,
                  weight_index, flat, chance, utility, player,
                  num_children, others, member_position, edge_start,
                  edge_value, member_reach, values, probabilities,
                  prefetch_policy):
  """The backward sweep of one block (histories root..stop_history-1,
  last_position the j of its last non-terminal); returns u_i(root)."""
  size = 0
  j = last_position
  v = 0.0
  for h in range(stop_history - 1, root - 1, -1):
    if prefetch_policy and h - PREFETCH_AHEAD >= root:
      ahead = weight_index[unsigned(h - PREFETCH_AHEAD)]
      if ahead < flat.shape[0]:
        prefetch(flat, ahead)
    kind = node_kind[unsigned(h)]
    if kind == TERMINAL:
      v = utility[unsigned(h), unsigned(player)]
    else:
      reach = others[unsigned(j)]
      base = size - num_children[unsigned(j)]
      own = kind == player
      edge = np.int64(0)
      if own:
        member = unsigned(member_position[unsigned(h)])
        member_reach[member] = reach
        edge = edge_start[member + 1] - 1
      v = _pop_children(values, probabilities, base, size, reach, own, edge,
                        edge_value)
      size = base
      j -= 1
    values[unsigned(size)] = v
    probabilities[unsigned(size)] = _edge_weight(weight_index[h], flat,
                                                 chance)
    size += 1
  return v


@step_jit
def _top_value(h, j, end, node_kind, weight_index, flat, chance, utility,
               player, others, member_position, edge_start, edge_value, member_reach,
               value, values, probabilities):
  """u_i(h) of a top history from its children's entries in ``value``."""
  size = 0
  child = h + 1
  while child < end[h]:
    size += 1
    child = end[child]
  # Children last first, as the stack holds them.
  child = h + 1
  s = size - 1
  while child < end[h]:
    from_utility = utility[child, player]
    values[s] = from_utility if node_kind[child] == TERMINAL else value[child]
    probabilities[s] = _edge_weight(weight_index[child], flat, chance)
    s -= 1
    child = end[child]
  reach = others[j]
  own = node_kind[h] == player
  edge = np.int64(0)
  if own:
    member = member_position[h]
    member_reach[member] = reach
    edge = edge_start[member + 1] - 1
  value[h] = _pop_children(values, probabilities, 0, size, reach, own, edge,
                           edge_value)


@parallel_jit
def stack_values(node_kind, weight_index, policy, chance, utility, player,
                 num_children, others, member_position, edge_start,
                 edge_value, member_reach, value, end, roots, stop, top,
                 top_position, bounds, stack_size, max_children,
                 prefetch_policy):
  """u_i of the blocks' roots and the top into ``value`` (other entries
  are left as they were), from ``others`` of :func:`stack_others`. At the
  player's histories h (member m of its infoset's histories, see
  :func:`spiel_ext.engine.block_passes.member_edges`), writes x_{-i}(h)
  into member_reach[m] and x_{-i}(h) u_i(h.a) into edge_value at h's
  edges (for :func:`spiel_ext.engine.block_passes.gather_player_cfv`).
  With ``prefetch_policy``, prefetches the policy entries of the edges a
  few histories ahead (for a policy of PREFETCH_MIN_BYTES or more)."""
  flat = policy.reshape(-1)
  units = bounds.shape[0] - 1
  values = np.empty((units, stack_size))
  probabilities = np.empty((units, stack_size))
  for unit in prange(units):
    for b in range(bounds[unit], bounds[unit + 1]):
      root = roots[b]
      value[root] = _block_values(
          root, end[root], stop[b] - 1, node_kind, weight_index, flat,
          chance, utility, player, num_children, others, member_position,
          edge_start, edge_value, member_reach, values[unit],
          probabilities[unit], prefetch_policy)
  top_values = np.empty(max_children)
  top_probabilities = np.empty(max_children)
  for t in range(top.shape[0] - 1, -1, -1):
    _top_value(top[t], top_position[t], end, node_kind, weight_index,
               flat, chance, utility, player, others, member_position,
               edge_start, edge_value, member_reach, value, top_values,
               top_probabilities)
