"""Forward passes over a model game's chance part and both players' reach,
for the learners that solve posterior model games (Zhou, Li, Zhu,
"Posterior Sampling for Multi-Agent Reinforcement Learning: Solving
Extensive Games with Imperfect Information", ICLR 2020; Qiu, Wang, Ma,
Wen, Zhang, "Combining Counterfactual Regret Minimization with Information
Gain to Solve Extensive Games with Unknown Environments", 2021).

Each kernel multiplies as the general passes of :mod:`spiel_ext.engine.
passes` multiply (the same products in the same order), so its results
have their bits; it computes only what the learners read.
"""

from __future__ import annotations

import numpy as np

from spiel_ext.engine.inputs import ViewLike, float_array
from spiel_ext.engine.passes import jit

__all__ = ["chance_reach", "chance_reach_of", "forward_both_others"]


@jit
def chance_reach(parent, parent_slot, chance_prob, chance_slot):
  """c(h), the product of the chance probabilities above h: the chance
  column of ``passes.reach_probabilities`` (``chance_slot`` is the number
  of players, chance's parent slot)."""
  reach = np.empty(parent.shape[0])
  reach[0] = 1.0
  for h in range(1, parent.shape[0]):
    p = parent[h]
    if parent_slot[h] == chance_slot:
      reach[h] = reach[p] * chance_prob[h]
    else:
      reach[h] = reach[p]
  return reach


@jit
def forward_both_others(parent, parent_slot, policy_index, chance_prob,
                        policy):
  """x_{-0}(h) and x_{-1}(h) of a two-player game in one forward sweep:
  others[h, i] is the product of the edge probabilities above h that are
  not player i's, each column multiplied as ``passes.forward_others``
  multiplies it for that player."""
  flat = policy.reshape(-1)
  others = np.empty((parent.shape[0], 2))
  others[0, 0] = 1.0
  others[0, 1] = 1.0
  for h in range(1, parent.shape[0]):
    k = policy_index[h]
    w = chance_prob[h] if k < 0 else flat[k]
    p = parent[h]
    slot = parent_slot[h]
    others[h, 0] = others[p, 0] if slot == 0 else others[p, 0] * w
    others[h, 1] = others[p, 1] if slot == 1 else others[p, 1] * w
  return others


def chance_reach_of(view: ViewLike,
                    chance_prob: np.ndarray | None = None) -> np.ndarray:
  """[histories] the product of the chance probabilities above each
  history (the last column of ``reach(view, policy)`` for any policy).

  Args:
    view: the game (its tree and, without ``chance_prob``, its chance
      probabilities).
    chance_prob: [histories] chance probabilities to use instead of the
      view's: checked for shape and type only (not for being
      distributions).

  Returns:
    A new [histories] array.

  Raises:
    ValueError: ``chance_prob`` is not a [histories] numeric array.
  """
  tree = view.tree
  if chance_prob is None:
    chance_prob = view.chance_prob
  else:
    chance_prob = np.ascontiguousarray(float_array(
        tree, "chance_prob", chance_prob, (tree.num_histories,)))
  return chance_reach(tree.parent, tree.parent_slot, chance_prob,
                      tree.num_players)
