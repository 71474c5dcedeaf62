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

from spiel_ext.engine import passes
from spiel_ext.engine.inputs import (ViewLike, check_player, float_array,
                                     policy_array)

__all__ = ["PlayerPass", "counterfactual_values", "edge_weights",
           "infoset_reach", "player_counterfactual_values", "reach",
           "root_values", "values"]


class PlayerPass(NamedTuple):
  """What :func:`player_counterfactual_values` returns (player's rows)."""
  cfv: np.ndarray
  own_reach: np.ndarray
  others_reach: np.ndarray


def edge_weights(view: ViewLike, policy: np.ndarray) -> np.ndarray:
  """Probability of each history's incoming edge under ``policy``."""
  tree = view.tree
  return passes.edge_weights(tree.edge_policy_index, view.chance_prob,
                             policy_array(tree, policy))


def reach(view: ViewLike, policy: np.ndarray) -> np.ndarray:
  """Reach probabilities [histories, players + 1]; the last column is chance.

  Column p < num_players is player p's own contribution x_p(h); the product
  of all columns is the probability of reaching h.
  """
  tree = view.tree
  return passes.reach_probabilities(tree.parent, tree.parent_slot,
                                    edge_weights(view, policy),
                                    tree.num_players)


def values(view: ViewLike, policy: np.ndarray) -> np.ndarray:
  """Expected utility of every player below every history, [histories,
  players]."""
  return passes.expected_values(view.tree.parent, edge_weights(view, policy),
                                view.utility)


# For the functions whose arguments shadow them.
_reach, _values = reach, values


def root_values(view: ViewLike, policy: np.ndarray | None = None,
                reach: np.ndarray | None = None) -> np.ndarray:
  """Each player's expected utility at the root (from terminal reaches);
  ``reach`` is ``reach(view, policy)`` if already computed."""
  tree = view.tree
  reach = (_reach(view, policy) if reach is None else
           float_array(tree, "reach", reach, tree.reach_shape))
  return passes.terminal_values(tree.terminals, reach, view.utility)


def counterfactual_values(view: ViewLike, policy: np.ndarray,
                          reach: np.ndarray | None = None,
                          values: np.ndarray | None = None) -> np.ndarray:
  """v_i(I, a) = sum_{h in I} x_{-i}(h) u_i(h.a) for every infoset [I, A].

  i is the player acting at I. Entries of illegal actions are 0. ``reach``
  and ``values`` are those of ``policy`` if already computed.
  """
  tree = view.tree
  reach = (_reach(view, policy) if reach is None else
           float_array(tree, "reach", reach, tree.reach_shape))
  values = (_values(view, policy) if values is None else
            float_array(tree, "values", values, tree.utility.shape))
  return passes.counterfactual_values(
      tree.parent, tree.node_player, tree.infoset, tree.action, reach, values,
      tree.num_infosets, tree.num_distinct_actions)


def player_counterfactual_values(view: ViewLike, policy: np.ndarray,
                                 player: int) -> PlayerPass:
  """The fused pass regret minimisers run once per player and iteration.

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
  passes.player_regret_pass(
      tree.parent, tree.parent_slot, tree.edge_policy_index,
      tree.node_player, tree.infoset, view.chance_prob, view.utility, policy,
      player, track_own, cfv, own_reach, others_reach, rows.start)
  if not track_own:
    own_reach = passes.own_reach_of_infosets(tree.own_sequence, policy,
                                             rows.start, rows.stop)
  return PlayerPass(cfv, own_reach, others_reach)


def infoset_reach(view: ViewLike,
                  reach: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
  """Per-infoset reach sums from a [histories, players + 1] reach array.

  Returns:
    (own, others): own[I] = x_i(I), the acting player's own reach of I
    (equal on every history of I under perfect recall), and
    others[I] = sum_{h in I} x_{-i}(h), chance and opponents' reach.
  """
  tree = view.tree
  return passes.infoset_reach(
      tree.node_player, tree.infoset,
      float_array(tree, "reach", reach, tree.reach_shape), tree.num_infosets)
