"""Perfect-Bayesian (sequential) exploitability: the measure of BUFP's Figure 2.

Qi Ju, Zhemei Fang, Yunfeng Luo, "Beyond Nash Equilibrium: Achieving
Bayesian Perfect Equilibrium with Belief Update Fictitious Play", DDCLS
2024, arXiv:2409.02706. For every infoset I of every player i, with the
belief of :meth:`spiel_ext.engine.GameTree.beliefs` (the others' reach, or
where they never reach I the uniform-opponent fallback):

  gap(I) = max over continuations of i's expected value from I on
           - the expected value of sigma from I on,

both conditional on reaching I with that belief. The maximising continuation
chooses one action per infoset below I (consistently across the histories of
each infoset). gap(I) = 0 at every I iff sigma is sequentially rational with
these beliefs. The paper calls the mean its "total exploitability"; we
report the mean over all decision infosets of all players and the max.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

import numpy as np

from spiel_ext.engine import compile_game
from spiel_ext.policy import PolicyLike, as_strategy

if TYPE_CHECKING:
  from spiel_ext.exploitability import GameLike


@dataclasses.dataclass
class SequentialGap:
  """Per-infoset gaps (row order of the policy) and their summaries.

  Attributes:
    gaps: [num_infosets] gap(I) of every decision infoset, >= 0 up to
      rounding.
    on_path: [num_infosets] bools, True where the other players (and
      chance) reach I under the policy, False where the belief is the
      uniform-opponent fallback.
    mean: the mean of ``gaps`` (the paper's "total exploitability").
    max: the largest gap.
    infoset_keys: the infosets' information state strings, in row order.
  """
  gaps: np.ndarray
  on_path: np.ndarray
  mean: float
  max: float
  infoset_keys: list[str]

  def gap_of(self, key: str) -> float:
    """The gap at one infoset.

    Args:
      key: the infoset's information state string.

    Returns:
      gap(I) of that infoset.

    Raises:
      ValueError: ``key`` is not one of ``infoset_keys``.
    """
    return float(self.gaps[self.infoset_keys.index(key)])


def sequential_gap(game: GameLike, policy: PolicyLike) -> SequentialGap:
  """The perfect-Bayesian gap of ``policy`` at every decision infoset.

  Args:
    game: a pyspiel game, game string or compiled GameTree.
    policy: any policy :func:`spiel_ext.policy.as_strategy` accepts (it
      must be a strategy).

  Returns:
    The :class:`SequentialGap`: every infoset's gap, which are on path, and
    their mean and max.

  Raises:
    ValueError: ``policy`` is not a strategy of the game, or the game's
      infostate strings lack perfect recall.
  """
  tree = compile_game(game)
  if not tree.perfect_recall:
    raise ValueError(f"{tree.game_string}'s infostate strings lack perfect "
                     "recall; the perfect-Bayesian gap needs it.")
  strategy = as_strategy(tree, policy)
  values = tree.values(strategy)
  gaps = np.zeros(tree.num_infosets)
  on_path = np.zeros(tree.num_infosets, dtype=bool)
  for player in range(tree.num_players):
    rows = tree.player_rows[player]
    belief, player_on_path = tree.beliefs(strategy, player)
    mine = np.flatnonzero(tree.node_player == player)
    sigma_value = np.bincount(tree.infoset[mine] - rows.start,
                              weights=belief[mine] * values[mine, player],
                              minlength=rows.stop - rows.start)
    best = tree.sequential_best_values(strategy, player, belief)
    gaps[rows] = best - sigma_value
    on_path[rows] = player_on_path
  return SequentialGap(gaps, on_path, float(gaps.mean()), float(gaps.max()),
                       tree.infoset_keys)
