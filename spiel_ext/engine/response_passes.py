"""Best responses: the fast pass for NashConv, the pass that sums in
OpenSpiel's order, the choice between them, and a best response history by
history (what OpenSpiel's ``exploitability.best_response`` reports).

Functions of a :class:`~spiel_ext.engine.inputs.ViewLike` and a policy (see
:mod:`spiel_ext.engine.regret_passes`); the numba kernels are in
:mod:`spiel_ext.engine.best_response`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from spiel_ext.engine import best_response as kernels
from spiel_ext.engine import passes
from spiel_ext.engine.inputs import (ViewLike, check_player, float_array,
                                     policy_array)
from spiel_ext.engine.model_passes import forward_both_others
from spiel_ext.engine.regret_passes import (edge_weights, forward_others,
                                            values_of_weights)

__all__ = ["BestResponseDetails", "best_response", "best_response_actions",
           "best_response_details", "both_best_responses",
           "weighted_best_response"]


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
    others = forward_others(view, policy_array(tree, policy),
                            player)[1][tree.terminals]
  else:
    others = passes.others_from_reach(
        float_array(tree, "reach", reach, tree.reach_shape), player,
        tree.terminals)
  return kernels.best_response(
      tree.terminals, tree.infoset, view.utility, others, player,
      *tree.best_response_schedules[player], tree.infoset_legal,
      tree.infoset_num_actions, float(min_action_prob))


def both_best_responses(view: ViewLike, policy: np.ndarray
                        ) -> list[tuple[float, np.ndarray, np.ndarray]]:
  """Each player's best response to the other's part of ``policy`` in a
  two-player game, both from one forward pass.

  The others' reaches of both players come from one sweep
  (:func:`~spiel_ext.engine.model_passes.forward_both_others`), each
  multiplied as :func:`best_response`'s own pass multiplies it, so each
  result has the bits of ``best_response(view, policy, player)``.

  Args:
    view: the game (two players).
    policy: the profile.

  Returns:
    [player 0's, player 1's] (value, best_action, action_values), as
    :func:`best_response` returns them.

  Raises:
    ValueError: the game does not have two players, or ``policy`` is not
      a policy of its tree.
  """
  tree = view.tree
  if tree.num_players != 2:
    raise ValueError(f"both_best_responses needs a two-player game; "
                     f"{tree.game_string} has {tree.num_players} players.")
  # np.take: numpy's fancy indexing of rows took 10x longer.
  others = np.take(forward_both_others(
      tree.parent, tree.parent_slot, tree.edge_policy_index,
      view.chance_prob, policy_array(tree, policy)), tree.terminals, axis=0)
  return [kernels.best_response(
      tree.terminals, tree.infoset, view.utility,
      np.ascontiguousarray(others[:, player]), player,
      *tree.best_response_schedules[player], tree.infoset_legal,
      tree.infoset_num_actions, 0.0) for player in (0, 1)]


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

  Args:
    view: the game.
    policy: the profile; ``player`` responds to the others' part.
    player: who responds.
    infoset_weight: [histories] the weight of each history in its
      infoset's action values; None for x_{-i}.
    min_action_prob: eps of :func:`best_response`.

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

  Args:
    view: the game.
    policy: the profile; ``player`` responds to the others' part.
    player: who responds.
    min_action_prob: eps of :func:`best_response`.
    tie_tolerance: how close two action values are to count as a tie.

  Returns:
    [infosets] the chosen action at each of ``player``'s infosets, -1 at
    the others'.
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


class BestResponseDetails(NamedTuple):
  """What :func:`best_response_details` returns (arrays over the tree).

  Attributes:
    value: the best-response value at the root.
    best_action: [infosets] the chosen action (-1 at other players').
    history_values: [histories] the responder's value below each history.
    counterfactual_reach: [histories] x_{-i}(h) at the responder's
      histories (0 elsewhere).
    evaluated: [histories] bool, the histories OpenSpiel evaluates.
  """
  value: float
  best_action: np.ndarray
  history_values: np.ndarray
  counterfactual_reach: np.ndarray
  evaluated: np.ndarray


def best_response_details(view: ViewLike, policy: np.ndarray, player: int, *,
                          tie_tolerance: float = 1e-9) -> BestResponseDetails:
  """A best response history by history, as OpenSpiel's
  ``BestResponsePolicy`` computes and caches it.

  The choices are :func:`best_response_actions`'s (OpenSpiel's, ties
  included); the values are those of the profile in which ``player``
  plays them and the others ``policy`` (the ``values`` pass).

  Args:
    view: the game.
    policy: the profile; ``player`` responds to the others' part.
    player: who responds.
    tie_tolerance: as :func:`best_response_actions`.

  Returns:
    BestResponseDetails(value, best_action, history_values,
    counterfactual_reach, evaluated): ``player``'s best-response value at
    the root; the chosen action per infoset (-1 at other players'); [H]
    ``player``'s value below each history under that profile
    (``BestResponsePolicy.value``); [H] x_{-i}(h) at ``player``'s
    histories, multiplied in OpenSpiel's order (0 elsewhere); and [H] bool,
    the histories ``BestResponsePolicy`` evaluates: all but those below an
    edge of probability 0 out of a chance or other player's history with
    no decision of ``player`` in between.
  """
  tree = view.tree
  check_player(tree, player)
  policy = policy_array(tree, policy)
  best = best_response_actions(view, policy, player,
                               tie_tolerance=tie_tolerance)
  rows = tree.player_rows[player]
  profile = policy.copy()
  profile[rows] = 0.0
  profile[np.arange(rows.start, rows.stop), best[rows]] = 1.0
  weights = edge_weights(view, profile)
  history_values = np.ascontiguousarray(
      values_of_weights(view, weights)[:, player])
  reach = kernels.counterfactual_weights(tree.parent, tree.node_player,
                                         weights, player)
  # A zero edge out of another player's or chance history hides the
  # histories below it at its own-decision level (none of the player's
  # decisions in between); each level's hidden ranges are subtrees.
  level = kernels.own_levels(tree.parent, tree.node_player, player)
  cut = np.flatnonzero((weights == 0.0) & (tree.parent_slot != player))
  evaluated = np.ones(tree.num_histories, dtype=bool)
  for cut_level in np.unique(level[cut]):
    starts = cut[level[cut] == cut_level]
    covers = np.zeros(tree.num_histories + 1, dtype=np.int64)
    np.add.at(covers, starts, 1)
    np.add.at(covers, tree.subtree_end[starts], -1)
    evaluated &= ~((np.cumsum(covers[:-1]) > 0) & (level == cut_level))
  return BestResponseDetails(float(history_values[0]), best, history_values,
                             reach, evaluated)
