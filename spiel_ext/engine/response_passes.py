"""Best responses: the fast pass for NashConv, the pass that sums in
OpenSpiel's order, and the choice between them.

Functions of a :class:`~spiel_ext.engine.inputs.ViewLike` and a policy (see
:mod:`spiel_ext.engine.regret_passes`); the numba kernels are in
:mod:`spiel_ext.engine.best_response`.
"""

from __future__ import annotations

import numpy as np

from spiel_ext.engine import best_response as kernels
from spiel_ext.engine import passes
from spiel_ext.engine.inputs import (ViewLike, check_player, float_array,
                                     policy_array)
from spiel_ext.engine.regret_passes import edge_weights

__all__ = ["best_response", "best_response_actions", "weighted_best_response"]


def best_response(
    view: ViewLike, policy: np.ndarray, player: int, *,
    min_action_prob: float = 0.0, reach: np.ndarray | None = None,
    terminal_others: np.ndarray | None = None,
) -> tuple[float, np.ndarray, np.ndarray]:
  """Best response of ``player`` to the other players' part of ``policy``.

  With ``min_action_prob`` = eps > 0 the response is restricted to
  strategies that play every legal action with probability at least eps:
  eps on every action plus (1 - |A| eps) on the best one (the perturbed
  best response of Tim P. Schulze, "A Generalized Extensive-Form Fictitious
  Play Algorithm", 2023, arXiv:2310.09658, eq. 24).

  Args:
    view: the game.
    policy: the profile; only the other players' rows are read (and not at
      all when ``reach`` or ``terminal_others`` is given).
    player: who responds.
    min_action_prob: eps above.
    reach: ``reach(view, policy)`` if already computed.
    terminal_others: x_{-i}(z) at each terminal (``tree.terminals`` order)
      to use instead of the others' reach under ``policy``.

  Returns:
    (value, best_action, action_values): the best-response value of
    ``player`` at the root; for each infoset of ``player`` the chosen action
    (-1 elsewhere); and [I, A] counterfactual action values
    sum_{h in I} x_{-i}(h) v^BR(h.a) at ``player``'s infosets.
  """
  tree = view.tree
  if type(player) is not int or not 0 <= player < tree.num_players:
    check_player(tree, player)
  if terminal_others is not None:
    others = terminal_others
    if (type(others) is not np.ndarray or
        others.shape != tree.terminals.shape):
      others = float_array(tree, "terminal_others", others,
                           tree.terminals.shape)
  elif reach is None:
    others = passes.others_reach(
        tree.parent, tree.parent_slot, tree.edge_policy_index,
        view.chance_prob, policy_array(tree, policy), player)[tree.terminals]
  else:
    others = passes.others_from_reach(
        float_array(tree, "reach", reach, tree.reach_shape), player,
        tree.terminals)
  return kernels.best_response(
      tree.terminals, tree.infoset, view.utility, others, player,
      *tree.best_response_schedules[player], tree.infoset_legal,
      tree.infoset_num_actions, float(min_action_prob))


def weighted_best_response(
    view: ViewLike, policy: np.ndarray, player: int, *,
    infoset_weight: np.ndarray | None = None,
    min_action_prob: float = 0.0) -> tuple[float, np.ndarray, np.ndarray]:
  """Best response by backward induction on values (XFP's, BUFP(X)'s).

  With the default ``infoset_weight`` (x_{-i}, multiplied in OpenSpiel's
  order) it is OpenSpiel's ``BestResponsePolicy`` computed the same way, so
  its choices match OpenSpiel's even at exact ties that round-off decides;
  pass a belief (``beliefs(view, policy, player)[0]``) for the sequential
  best response to that belief (BUFP(X) of Qi Ju, Zhemei Fang, Yunfeng Luo,
  "Beyond Nash Equilibrium: Achieving Bayesian Perfect Equilibrium with
  Belief Update Fictitious Play", DDCLS 2024, arXiv:2409.02706).
  :func:`best_response` is the faster pass for values alone.

  Returns:
    (value, best_action, q): the player's value at the root, the chosen
    action per infoset (-1 at other players'), and Q[I, a] = sum_{h in I}
    infoset_weight[h] U(h.a).
  """
  tree = view.tree
  check_player(tree, player)
  weights = edge_weights(view, policy)
  if infoset_weight is None:
    infoset_weight = kernels.counterfactual_weights(
        tree.parent, tree.node_player, weights, player)
  else:
    infoset_weight = float_array(tree, "infoset_weight", infoset_weight,
                                 (tree.num_histories,))
  return kernels.weighted_best_response(
      tree.node_player, tree.infoset, tree.action, weights, view.utility,
      player, *tree.level_schedules[player], *tree.children_lists(),
      infoset_weight, *tree.infoset_histories, tree.infoset_legal,
      tree.infoset_num_actions, float(min_action_prob))


def best_response_actions(view: ViewLike, policy: np.ndarray, player: int, *,
                          min_action_prob: float = 0.0,
                          tie_tolerance: float = 1e-9) -> np.ndarray:
  """The best-response choice at each infoset, as OpenSpiel makes it.

  Uses the fast pass (:func:`best_response`) when every infoset of the
  player has a clear winner; when two actions are within ``tie_tolerance``
  it redoes the choice with :func:`weighted_best_response`, which sums in
  OpenSpiel's order, so that round-off breaks exact ties the way OpenSpiel's
  best response does.
  """
  _, best, q = best_response(view, policy, player,
                             min_action_prob=min_action_prob)
  tree = view.tree
  rows = tree.player_rows[player]
  if kernels.has_near_tie(q, tree.infoset_legal, rows.start, rows.stop,
                          tie_tolerance):
    _, best, _ = weighted_best_response(view, policy, player,
                                        min_action_prob=min_action_prob)
  return best
