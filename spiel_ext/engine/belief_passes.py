"""Belief passes: beliefs over the histories of an infoset, belief-weighted
action values, and the best value from each infoset on under a belief.

The belief follows Qi Ju, Zhemei Fang, Yunfeng Luo, "Beyond Nash
Equilibrium: Achieving Bayesian Perfect Equilibrium with Belief Update
Fictitious Play", DDCLS 2024, arXiv:2409.02706 (section 4). Functions of a
:class:`~spiel_ext.engine.inputs.ViewLike` and a policy (see
:mod:`spiel_ext.engine.regret_passes`); the numba kernels are in
:mod:`spiel_ext.engine.beliefs`.
"""

from __future__ import annotations

import numpy as np

from spiel_ext.engine import beliefs as kernels
from spiel_ext.engine.inputs import (ViewLike, check_player, float_array,
                                     policy_array)
from spiel_ext.engine.regret_passes import edge_weights, forward_others
from spiel_ext.engine.regret_passes import values as expected_values

__all__ = ["belief_action_values", "beliefs", "sequential_best_values"]


def beliefs(view: ViewLike, policy: np.ndarray,
            player: int) -> tuple[np.ndarray, np.ndarray]:
  """Beliefs over the histories of ``player``'s infosets.

  With i = ``player``, B(I, h) = w(h) / sum_{h' in I} w(h') for the first
  of these weights whose sum over I is positive:

    1. w(h) = x_{-i}(h), the reach of h by chance and the other players
       under ``policy`` (I is on path);
    2. w(h) = chance reach of h times the reach by uniformly random
       opponents (the others never reach I);
    3. w(h) = the reach of h when chance too is uniform over its outcomes,
       times uniformly random opponents (I lies only below probability-0
       chance outcomes). This one is always positive.

  Rule 1 uses the view's chance probabilities; the fallbacks 2 and 3 are
  the compiled game's (``tree.belief_fallbacks``).

  Args:
    view: the game.
    policy: a [infosets, actions] array; ``player``'s rows are not read.
    player: whose infosets.

  Returns:
    (belief, on_path): belief[h] at ``player``'s histories (0 elsewhere),
    and on_path[I] for the player's rows (``player_rows[player]``): True
    where the others reach I (rule 1).
  """
  tree = view.tree
  check_player(tree, player)
  rows = tree.player_rows[player]
  _, others = forward_others(view, policy_array(tree, policy), player)
  return kernels.belief_weights(
      tree.node_player, tree.infoset, others,
      *tree.belief_fallbacks[player], player, rows.start,
      rows.stop - rows.start)


def belief_action_values(view: ViewLike, policy: np.ndarray, player: int,
                         belief: np.ndarray,
                         values: np.ndarray | None = None) -> np.ndarray:
  """Belief-weighted action values on ``player``'s rows, [rows, A].

  Q(I, a) = sum_{h in I} belief[h] u_i(h.a), with u_i(h.a) ``player``'s
  expected utility below h.a when everyone, ``player`` included, plays
  ``policy`` on (BUFP's best decision with its own average strategy as the
  continuation). Entries of illegal actions are 0.

  Args:
    view: the game.
    policy: a [infosets, actions] strategy.
    player: whose rows.
    belief: [histories], e.g. ``beliefs(view, policy, player)[0]``.
    values: ``values(view, policy)`` if already computed.

  Returns:
    [rows, A] Q(I, a) on ``player``'s rows (``player_rows[player]``).
  """
  tree = view.tree
  check_player(tree, player)
  belief = float_array(tree, "belief", belief, (tree.num_histories,))
  values = (expected_values(view, policy) if values is None else
            float_array(tree, "values", values, tree.utility.shape))
  rows = tree.player_rows[player]
  edges = tree.player_edges[player]
  num_actions = tree.num_distinct_actions
  flat = np.bincount(
      tree.edge_policy_index[edges] - rows.start * num_actions,
      weights=belief[tree.parent[edges]] * values[edges, player],
      minlength=(rows.stop - rows.start) * num_actions)
  return flat.reshape(rows.stop - rows.start, num_actions)


def sequential_best_values(view: ViewLike, policy: np.ndarray, player: int,
                           belief: np.ndarray) -> np.ndarray:
  """Best value ``player`` can get from each of its infosets on.

  See :func:`spiel_ext.engine.beliefs.sequential_best_values`.

  Args:
    view: the game.
    policy: a [infosets, actions] array (the others' and the
      continuation's play).
    player: whose infosets.
    belief: [histories] the belief each infoset is reached with, e.g.
      ``beliefs(view, policy, player)[0]``.

  Returns:
    [rows] the best value from each of ``player``'s infosets on.
  """
  tree = view.tree
  check_player(tree, player)
  rows = tree.player_rows[player]
  belief = float_array(tree, "belief", belief, (tree.num_histories,))
  return kernels.sequential_best_values(
      tree.parent, tree.parent_slot, tree.node_player, tree.infoset,
      edge_weights(view, policy), view.utility, player, belief,
      tree.subtree_end, tree.own_edges[player], tree.own_sequence,
      *tree.infoset_histories, rows.start, rows.stop, tree.infoset_legal)
