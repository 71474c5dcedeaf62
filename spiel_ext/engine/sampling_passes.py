"""Sampled traversals of the compiled tree: external sampling.

External sampling (Marc Lanctot, Kevin Waugh, Martin Zinkevich, Michael
Bowling, "Monte Carlo Sampling for Regret Minimization in Extensive Games",
NeurIPS 2009, section 3.2 and Algorithm 1): the traversal for player i
walks every action at i's histories and draws one outcome at every chance
history and one action at every other player's history, from the chance
distribution and the current strategy. A terminal z is reached with
probability q(z) = x_{-i}(z), so the sampled counterfactual value of eq.
(6), v~_i(I, a) = sum_{z} u_i(z) x_{-i}(z[I]) x(z[I]a, z) / q(z), is the
value the walk backs up to I's child by a (own probabilities times the
utility of the drawn leaves): the opponents' and chance reach cancel
against their sampling probability. Its expectation is v_i(I, a).

The kernels run on the arrays of :class:`~spiel_ext.engine.layout.
TreeLayout` (histories in pre-order: the first child of h is h + 1, the
next sibling of c is ``subtree_end[c]``, so no child lists are needed) and
take their random numbers as an array of uniforms in [0, 1), drawn by the
caller from its own generator and consumed in the walk's order (one per
chance or sampled history): the walk is reproducible from the caller's
seed. :func:`external_sampling_draws` bounds how many one walk uses.
"""

from __future__ import annotations

import numba
import numpy as np

from spiel_ext.engine.constants import CHANCE, TERMINAL

__all__ = ["external_sampling_draws", "external_sampling_pass",
           "tree_depth"]

jit = numba.njit(cache=True, nogil=True)


@jit
def tree_depth(parent):
  """The number of edges on the longest root-to-leaf path."""
  depth = np.zeros(parent.shape[0], dtype=np.int64)
  deepest = 0
  for h in range(1, parent.shape[0]):
    depth[h] = depth[parent[h]] + 1
    if depth[h] > deepest:
      deepest = depth[h]
  return deepest


@jit
def external_sampling_draws(parent, node_player, player):
  """The most uniforms one external-sampling walk for ``player`` can use.

  A walk draws once at every chance and every other player's history it
  reaches, explores every child of ``player``'s histories and one child of
  the others; so the bound is, from the leaves up, 0 at a terminal, the
  sum over the children at ``player``'s histories, and 1 plus the maximum
  over the children elsewhere.
  """
  num_histories = parent.shape[0]
  below = np.zeros(num_histories, dtype=np.int64)
  for h in range(num_histories - 1, -1, -1):
    acting = node_player[h]
    need = below[h]
    if acting != player and acting != TERMINAL:
      need += 1
    if h == 0:
      return need
    p = parent[h]
    if node_player[p] == player:
      below[p] += need
    elif need > below[p]:
      below[p] = need
  return 0


@jit
def _draw_child(h, subtree_end, weights_are_chance, chance_prob, policy, row,
                action, u):
  """The child of h drawn with uniform u, from chance_prob (chance) or
  policy[row] (a player); children of probability 0 are never drawn."""
  end = subtree_end[h]
  c = h + 1
  total = 0.0
  chosen = -1
  while c < end:
    w = chance_prob[c] if weights_are_chance else policy[row, action[c]]
    if w > 0.0:
      chosen = c
      total += w
      if u < total:
        return c
    c = subtree_end[c]
  # Rounding left u above the last partial sum: the last possible child.
  return chosen


@jit
def external_sampling_pass(node_player, infoset, action, chance_prob,
                           player_utility, subtree_end, policy, player,
                           average_player,
                           uniforms, cfv, visited, averaged, stack_node,
                           stack_child, stack_value):
  """One external-sampling walk for ``player`` under ``policy``.

  Writes the sampled counterfactual values v~(I, a) into cfv[I, a] for
  every infoset I of ``player`` the walk reaches (each once, under perfect
  recall) and every legal a, and lists those infosets in ``visited``;
  lists, once per reach, the infosets of ``average_player`` the walk
  samples at in ``averaged`` (where OpenSpiel's "simple" average adds the
  current strategy).

  Args:
    node_player, infoset, action, chance_prob, subtree_end: the tree's
      arrays (chance_prob may be a model's).
    player_utility: [histories] the player's utility, ``utility[:, player]``
      (or a model's).
    policy: [infosets, actions] current strategy, read only.
    player: whose values are sampled.
    average_player: the player whose sampled infosets are listed, or -1.
    uniforms: uniforms in [0, 1), consumed in the walk's order (at least
      :func:`external_sampling_draws` of them).
    cfv: [infosets, actions] output (only the visited rows are written).
    visited, averaged: int outputs (capacity: the number of infosets, and
      the draws bound).
    stack_node, stack_child, stack_value: scratch of length at least the
      number of player's histories on a path (tree depth + 1 will do).

  Returns:
    (root value u~_i, number visited, number averaged, uniforms used).
  """
  num_visited = 0
  num_averaged = 0
  k = 0
  depth = 0
  h = 0
  value = 0.0
  while True:
    # Down from h to a terminal; a frame for each of player's histories.
    while True:
      acting = node_player[h]
      if acting == TERMINAL:
        value = player_utility[h]
        break
      if acting == CHANCE:
        h = _draw_child(h, subtree_end, True, chance_prob, policy, 0, action,
                        uniforms[k])
        k += 1
      elif acting != player:
        row = infoset[h]
        if acting == average_player:
          averaged[num_averaged] = row
          num_averaged += 1
        h = _draw_child(h, subtree_end, False, chance_prob, policy, row,
                        action, uniforms[k])
        k += 1
      else:
        visited[num_visited] = infoset[h]
        num_visited += 1
        stack_node[depth] = h
        stack_child[depth] = h + 1
        stack_value[depth] = 0.0
        depth += 1
        h += 1
    # Up with the value until a history of player's has a child left.
    descend = False
    while depth > 0:
      top = depth - 1
      p = stack_node[top]
      c = stack_child[top]
      row = infoset[p]
      a = action[c]
      cfv[row, a] = value
      stack_value[top] += policy[row, a] * value
      sibling = subtree_end[c]
      if sibling < subtree_end[p]:
        stack_child[top] = sibling
        h = sibling
        descend = True
        break
      value = stack_value[top]
      depth = top
    if not descend:
      return value, num_visited, num_averaged, k
