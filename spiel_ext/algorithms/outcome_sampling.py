"""Outcome-sampling MCCFR on the episodes of an unknown environment (the
MCCFR-OS baseline of Qiu, Wang, Ma, Wen, Zhang, "Combining Counterfactual
Regret Minimization with Information Gain to Solve Extensive Games with
Unknown Environments", 2021): no model, regrets from the episodes alone.
Importable from :mod:`spiel_ext.algorithms.learners` too.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from spiel_ext.algorithms.checks import check_real
from spiel_ext.algorithms.contract import config_property, set_field
from spiel_ext.algorithms.learner_base import (LEARNER_ARGS,
                                               MIN_OUTCOME_SAMPLING_EPSILON,
                                               ModelFreeLearner)


class OutcomeSamplingLearner(ModelFreeLearner):
  __doc__ = f"""Outcome-sampling MCCFR on real episodes (Lanctot, Waugh,
  Zinkevich, Bowling, "Monte Carlo Sampling for Regret Minimization in Extensive
  Games", NeurIPS 2009), the MCCFR-OS baseline of Qiu et al.

  Each iteration plays one episode per player i: i samples from
  eps-uniform-mixed sigma, the opponent plays sigma, chance is the
  environment's own (so its unknown probabilities cancel in the
  importance weights). Along the path, with W = i's sampled reward,
  q_i the probability of i's sampled actions under the mixed sigma and
  pi_i(h a -> z) the tail of i's reach under sigma: regret(I, a) += W
  pi_i(h a -> z) / q_i(z) (1 - sigma(I, a)) and regret(I, b) -= W
  pi_i(h a -> z) / q_i(z) sigma(I, a) for the other actions b; the average
  adds pi_i(h) / q_i(h) sigma(I) (stochastically weighted averaging).

  Its current strategy is sigma, regret matching on its cumulative
  regrets (the episodes mix it with the uniform strategy at the
  updating player's infosets).

  Args:{LEARNER_ARGS}"""

  @dataclasses.dataclass(frozen=True, eq=False)
  class Config(ModelFreeLearner.Config):
    """OutcomeSamplingLearner's hyperparameters.

    Attributes:
      epsilon: exploration in [1e-6, 1] (default 0.1; see
        MIN_OUTCOME_SAMPLING_EPSILON for the bound).
      seed: an int in 0..2**63 - 1 (default 0).
    """
    epsilon: float = 0.1

    def __post_init__(self) -> None:
      set_field(self, "epsilon", check_real("epsilon", self.epsilon,
                                       MIN_OUTCOME_SAMPLING_EPSILON, 1.0))
      super().__post_init__()

  epsilon = config_property("epsilon", "The exploration of the updating player")
  _SAVED_ARRAYS = ("cumulative_regret", "cumulative_policy", "_sigma")

  def _build(self) -> None:
    super()._build()
    self.cumulative_regret = np.zeros(self._legal.shape)
    self._sigma = self._uniform.copy()

  def current_strategy(self) -> np.ndarray:
    """[rules infosets, actions]: sigma (a copy).

    Returns:
      A new [rules infosets, actions] array.
    """
    return self._sigma.copy()

  def _regret_matching(self, row: int) -> None:
    positive = np.maximum(self.cumulative_regret[row], 0.0) * self._legal[row]
    total = positive.sum()
    self._sigma[row] = positive / total if total > 0 else self._uniform[row]

  def evaluate_and_update_policy(self) -> None:
    """One iteration: one episode per player, and that player's regret and
    average updates along its path (see the class docstring)."""
    rules = self.rules
    for player in (0, 1):
      rows = rules.player_rows[player]
      behaviour = self._sigma.copy()
      behaviour[rows] = (self.epsilon * self._uniform[rows] +
                         (1.0 - self.epsilon) * self._sigma[rows])
      _, reward, steps = self._own_episode(player, behaviour)
      own = [self._sigma[row, action] for row, action in steps]
      sampled = [behaviour[row, action] for row, action in steps]
      tail = 1.0  # pi_i(h a -> z) under sigma, from the end backwards.
      head_sigma = np.cumprod([1.0] + own[:-1])
      head_sampled = np.cumprod([1.0] + sampled[:-1])
      sample_probability = float(np.prod(sampled)) if steps else 1.0
      for index in range(len(steps) - 1, -1, -1):
        row, action = steps[index]
        weight = reward * tail / sample_probability
        sigma_row = self._sigma[row].copy()
        regret = -weight * sigma_row[action] * self._legal[row]
        regret[action] = weight * (1.0 - sigma_row[action])
        self.cumulative_regret[row] += regret
        self.cumulative_policy[row] += (head_sigma[index] /
                                        head_sampled[index]) * sigma_row
        tail *= own[index]
        self._regret_matching(row)
    self._iteration += 1
