"""Regret passes: edge weights, reach, expected and counterfactual values.

Functions of a game view (a :class:`~spiel_ext.engine.inputs.ViewLike`: a
compiled tree and the chance probabilities and utilities of a game on it, a
:class:`~spiel_ext.engine.game_tree.GameView` or a GameTree, which stands
for the view of its compiled game) and a policy, a
[infosets, num_distinct_actions] float array laid out like OpenSpiel's
``TabularPolicy.action_probability_array``. The counterfactual values are
those of Zinkevich, Johanson, Bowling, Piccione, "Regret Minimization in
Games with Incomplete Information", NeurIPS 2007: with x_i(h) player i's own
reach of h and x_{-i}(h) the reach by chance and every other player,
v_i(I, a) = sum_{h in I} x_{-i}(h) u_i(h.a).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from spiel_ext.engine import block_passes, passes, stack_passes
from spiel_ext.engine.schedules import ParallelBlocks
from spiel_ext.engine.inputs import (ViewLike, check_player, float_array,
                                     policy_array)

# Each pass runs on every core for a tree of tree.pass_blocks() (see
# spiel_ext.engine.block_passes), serially otherwise; both give the same
# bits.

__all__ = ["PlayerPass", "counterfactual_values", "edge_weights",
           "forward_others", "infoset_reach", "own_reach",
           "player_counterfactual_values",
           "reach", "root_values", "terminal_reaches", "values",
           "values_of_weights"]


class PlayerPass(NamedTuple):
  """What :func:`player_counterfactual_values` returns (player's rows).

  Attributes:
    cfv: [rows, A] counterfactual action values.
    own_reach: [rows] the player's own reach of each infoset.
    others_reach: [rows] the reach by chance and the other players.
  """
  cfv: np.ndarray
  own_reach: np.ndarray
  others_reach: np.ndarray


def edge_weights(view: ViewLike, policy: np.ndarray) -> np.ndarray:
  """Probability of each history's incoming edge under ``policy``.

  Args:
    view: the game.
    policy: a [infosets, actions] array.

  Returns:
    [histories]: the policy's probability of the edge into each decision
    history's child, the view's chance probability at chance edges, 1 at
    the root.
  """
  tree = view.tree
  kernel = (block_passes.edge_weights_serial if tree.pass_blocks() is None
            else block_passes.edge_weights)
  return kernel(tree.edge_policy_index, view.chance_prob,
                policy_array(tree, policy))


def reach(view: ViewLike, policy: np.ndarray) -> np.ndarray:
  """Reach probabilities [histories, players + 1]; the last column is chance.

  Args:
    view: the game.
    policy: a [infosets, actions] array.

  Returns:
    [histories, players + 1]: column p < num_players is player p's own
    contribution x_p(h); the product of all columns is the probability of
    reaching h.
  """
  tree = view.tree
  weights = edge_weights(view, policy)
  blocks = tree.pass_blocks()
  if blocks is None:
    return passes.reach_probabilities(tree.parent, tree.parent_slot, weights,
                                      tree.num_players)
  return block_passes.reach_probabilities(
      tree.parent, tree.parent_slot, weights, tree.num_players, blocks.top,
      blocks.roots, tree.subtree_end, block_passes.num_units())


def values(view: ViewLike, policy: np.ndarray) -> np.ndarray:
  """Expected utility of every player below every history.

  Args:
    view: the game.
    policy: a [infosets, actions] array.

  Returns:
    [histories, players]: each player's expected utility below each
    history when everyone plays ``policy``.
  """
  return values_of_weights(view, edge_weights(view, policy))


def values_of_weights(view: ViewLike, weights: np.ndarray) -> np.ndarray:
  """:func:`values` from the edge probabilities.

  Args:
    view: the game.
    weights: [histories], ``edge_weights(view, policy)``.

  Returns:
    [histories, players], as :func:`values`.
  """
  tree = view.tree
  blocks = tree.pass_blocks()
  if blocks is None:
    return passes.expected_values(tree.parent, weights, view.utility)
  return block_passes.expected_values(tree.parent, weights, view.utility,
                                      blocks.top, blocks.tail, blocks.roots,
                                      tree.subtree_end,
                                      block_passes.num_units())


# For the functions whose arguments shadow them.
_reach, _values = reach, values


def root_values(view: ViewLike, policy: np.ndarray | None = None,
                reach: np.ndarray | None = None) -> np.ndarray:
  """Each player's expected utility at the root (from terminal reaches).

  Args:
    view: the game.
    policy: a [infosets, actions] array (not read when ``reach`` is given).
    reach: ``reach(view, policy)`` if already computed.

  Returns:
    [players]: sum_z P(z) u_i(z) over the terminals z.
  """
  tree = view.tree
  reach = (_reach(view, policy) if reach is None else
           float_array(tree, "reach", reach, tree.reach_shape))
  return passes.terminal_values(tree.terminals, reach, view.utility)


def counterfactual_values(view: ViewLike, policy: np.ndarray,
                          reach: np.ndarray | None = None,
                          values: np.ndarray | None = None) -> np.ndarray:
  """v_i(I, a) = sum_{h in I} x_{-i}(h) u_i(h.a) for every infoset [I, A].

  i is the player acting at I. Entries of illegal actions are 0.

  Args:
    view: the game.
    policy: a [infosets, actions] array.
    reach: ``reach(view, policy)`` if already computed.
    values: ``values(view, policy)`` if already computed.

  Returns:
    [infosets, num_distinct_actions] counterfactual action values.
  """
  tree = view.tree
  reach = (_reach(view, policy) if reach is None else
           float_array(tree, "reach", reach, tree.reach_shape))
  values = (_values(view, policy) if values is None else
            float_array(tree, "values", values, tree.utility.shape))
  if tree.pass_blocks() is None:
    return passes.counterfactual_values(
        tree.parent, tree.node_player, tree.infoset, tree.action, reach,
        values, tree.num_infosets, tree.num_distinct_actions)
  return block_passes.counterfactual_values(
      tree.node_player, tree.infoset_player, *tree.infoset_histories,
      tree.subtree_end, tree.action, reach, values,
      tree.num_distinct_actions)


def player_counterfactual_values(view: ViewLike, policy: np.ndarray,
                                 player: int) -> PlayerPass:
  """The fused pass regret minimisers run once per player and iteration.

  Args:
    view: the game.
    policy: a [infosets, actions] array.
    player: whose rows.

  Returns:
    PlayerPass(cfv, own_reach, others_reach), arrays on ``player``'s rows
    only (``tree.player_rows[player]``): cfv[I, a] =
    sum_{h in I} x_{-i}(h) u_i(h.a); own_reach[I] = x_i(I) under perfect
    recall, else sum_{h in I} x_i(h) as OpenSpiel's CFR accumulates it;
    others_reach[I] = sum_{h in I} x_{-i}(h).
  """
  tree = view.tree
  check_player(tree, player)
  rows = tree.player_rows[player]
  policy = policy_array(tree, policy)
  cfv = np.zeros((rows.stop - rows.start, tree.num_distinct_actions))
  track_own = not tree.perfect_recall
  own_reach = np.zeros(rows.stop - rows.start)
  others_reach = np.zeros(rows.stop - rows.start)
  blocks = tree.pass_blocks()
  if blocks is None or track_own:
    passes.player_regret_pass(
        tree.parent, tree.parent_slot, tree.edge_policy_index,
        tree.node_player, tree.infoset, view.chance_prob, view.utility,
        policy, player, track_own, cfv, own_reach, others_reach, rows.start)
  else:
    _stack_pass(view, policy, player, blocks, cfv, others_reach)
  if not track_own:
    own_reach = passes.own_reach_of_infosets(tree.own_sequence, policy,
                                             rows.start, rows.stop)
  return PlayerPass(cfv, own_reach, others_reach)


def _stack_pass(view: ViewLike, policy: np.ndarray, player: int,
                blocks: ParallelBlocks, cfv: np.ndarray,
                others_reach: np.ndarray) -> None:
  """player_counterfactual_values' cfv and others_reach by the stack
  passes (:mod:`spiel_ext.engine.stack_passes`)."""
  tree = view.tree
  rows = tree.player_rows[player]
  stack = tree.stack_layout
  edges = tree.member_edges
  others, value, edge_value, member_reach = tree.scratch_arrays(4)
  chance = stack_passes.chance_weights(view.chance_prob, stack.chance_edges)
  bounds = block_passes.unit_bounds(blocks.roots, tree.subtree_end,
                                    block_passes.num_units())
  stack_passes.stack_others(
      stack.parent_position, stack.internal_weight_index,
      stack.internal_parent_slot, policy, chance, player, others,
      blocks.top_position, blocks.first, blocks.stop, bounds)
  stack_passes.stack_values(
      stack.node_kind, stack.weight_index, policy, chance, view.utility,
      player, stack.num_children, others, edges.member_position,
      edges.edge_start, edge_value, member_reach, value, tree.subtree_end,
      blocks.roots, blocks.stop, blocks.top, blocks.top_position, bounds,
      stack.stack_size, stack.max_children,
      policy.nbytes >= stack_passes.PREFETCH_MIN_BYTES)
  block_passes.gather_player_cfv(
      tree.infoset_histories.start, edges.edge_start, edges.edge_action,
      member_reach, edge_value, rows.start, rows.stop, cfv, others_reach,
      block_passes.num_units())


def terminal_reaches(view: ViewLike,
                     reach: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
  """The others' reach at the terminals, and the root values.

  Args:
    view: the game.
    reach: a checked [histories, players + 1] reach array.

  Returns:
    (others, root_values): others[k, i] = x_{-i}(z_k) at each terminal z_k
    (``tree.terminals`` order), and each player's expected utility
    sum_z P(z) u_i(z).
  """
  tree = view.tree
  kernel = (block_passes.terminal_reaches_serial
            if tree.pass_blocks() is None else block_passes.terminal_reaches)
  return kernel(reach, tree.terminals, view.utility)


def infoset_reach(view: ViewLike,
                  reach: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
  """Per-infoset reach sums from a reach array.

  Args:
    view: the game.
    reach: [histories, players + 1], as :func:`reach` returns it.

  Returns:
    (own, others): own[I] = x_i(I), the acting player's own reach of I
    (equal on every history of I under perfect recall), and
    others[I] = sum_{h in I} x_{-i}(h), chance and opponents' reach.
  """
  tree = view.tree
  reach = float_array(tree, "reach", reach, tree.reach_shape)
  if tree.pass_blocks() is None:
    return passes.infoset_reach(tree.node_player, tree.infoset, reach,
                                tree.num_infosets)
  return block_passes.infoset_reach(tree.infoset_player,
                                    *tree.infoset_histories, reach)


def own_reach(view: ViewLike, policy: np.ndarray) -> np.ndarray:
  """Each infoset's own reach x_i(I) by its acting player under
  ``policy``: ``infoset_reach(view, reach(view, policy))[0]``, computed
  on the infosets alone (a product along the player's own sequence) when
  the game has perfect recall.

  Args:
    view: the game.
    policy: a [infosets, actions] array.

  Returns:
    [infosets] own reach.
  """
  tree = view.tree
  policy = policy_array(tree, policy)
  if not tree.perfect_recall:
    return infoset_reach(view, reach(view, policy))[0]
  return np.concatenate([
      passes.own_reach_of_infosets(tree.own_sequence, policy, rows.start,
                                   rows.stop) for rows in tree.player_rows])


def forward_others(view: ViewLike, policy: np.ndarray,
                   player: int) -> tuple[np.ndarray, np.ndarray]:
  """Edge probabilities and the reach by everyone but ``player``.

  Args:
    view: the game.
    policy: a checked [infosets, actions] float64 array.
    player: whose reach is left out.

  Returns:
    (weight, others): [histories] each history's edge probability under
    ``policy``, and x_{-i}(h), chance's and every player's reach but
    ``player``'s.
  """
  tree = view.tree
  weight = np.empty(tree.num_histories)
  others = np.empty(tree.num_histories)
  blocks = tree.pass_blocks()
  if blocks is None:
    passes.forward_others(tree.parent, tree.parent_slot,
                          tree.edge_policy_index, view.chance_prob, policy,
                          player, weight, others)
  else:
    block_passes.forward_others(
        tree.parent, tree.parent_slot, tree.edge_policy_index,
        view.chance_prob, policy, player, weight, others, blocks.top,
        blocks.roots, tree.subtree_end, block_passes.num_units())
  return weight, others
