"""Chance-sampled CFR (Monte Carlo CFR with chance sampling).

Marc Lanctot, Kevin Waugh, Martin Zinkevich, Michael Bowling, "Monte Carlo
Sampling for Regret Minimization in Extensive Games", NeurIPS 2009,
section 3 (chance sampling): each player update draws one outcome at every
chance node and traverses every player action below them; the sampled
counterfactual value of eq. (6) is then the opponents' reach times the
utility, because the chance reach cancels against its sampling probability.
The engine does this with a ``chance_prob`` override
(:meth:`GameTree.sample_chance`); regrets, averaging and regret matching
are the regret-minimisation core's.

The defaults follow RLCard's CFR agent, which the BUFP paper's experiments
use: both players update from the same current strategy, each with its own
draw, and iteration t's average contribution is weighted by t.
"""

from __future__ import annotations

import pyspiel

from spiel_ext.algorithms.checks import check_bool
from spiel_ext.algorithms.regret import RegretMinimizationSolver
from spiel_ext.algorithms.regret_rules import (PlainRegrets, PowerAveraging,
                                               RegretMatching)
from spiel_ext.engine import GameTree, PlayerPass


class ChanceSampledCFRSolver(RegretMinimizationSolver):
  """CFR with chance sampling, as RLCard's CFR agent runs it.

  Args:
    game: a pyspiel game, a game string or a compiled GameTree (sequential,
      perfect-recall infostate strings, any number of players).
    alternating_updates: False (default, RLCard's order: every player's
      regrets from the same current strategy) or True.
    linear_averaging: True (default, RLCard's weight t on iteration t's
      average contribution) or False (uniform weights, as vanilla CFR).
    random_init: False (default: zero regrets) or True for U(0, 1)
      cumulative regrets and policies drawn with ``seed``.
    seed: an int in 0..2**63 - 1 (default 0) or None; seeds the chance
      draws.

  Raises:
    TypeError: a bool option that is not a bool, or ``seed`` not an int.
    ValueError: ``seed`` outside 0..2**63 - 1 or a game the engine cannot
      compile.

  Example::

    solver = ChanceSampledCFRSolver("kuhn_poker", seed=0)
    for _ in range(2000):
      solver.evaluate_and_update_policy()
    spiel_ext.eval.nash_conv("kuhn_poker", solver.average_policy())
  """

  def __init__(self, game: pyspiel.Game | str | GameTree, *,
               alternating_updates: bool = False,
               linear_averaging: bool = True, random_init: bool = False,
               seed: int | None = 0):
    linear_averaging = check_bool("linear_averaging", linear_averaging)
    super().__init__(game, regret_rule=PlainRegrets(),
                     averaging=PowerAveraging(1.0 if linear_averaging
                                              else 0.0),
                     strategy_rule=RegretMatching(),
                     alternating_updates=alternating_updates,
                     random_init=random_init, seed=seed,
                     hyperparameters=dict(
                         alternating_updates=alternating_updates,
                         linear_averaging=linear_averaging,
                         random_init=random_init))

  def _compute_update(self, player: int) -> PlayerPass:
    return self._tree.player_counterfactual_values(
        self._current, player, chance_prob=self._tree.sample_chance(self._rng))
