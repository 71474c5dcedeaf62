"""DCFR+ and PDCFR+: discounted CFR+ and its predictive form.

Hang Xu, Kai Li, Bingyun Liu, Haobo Fu, Qiang Fu, Junliang Xing, Jian Cheng,
"Minimizing Weighted Counterfactual Regret with Optimistic Online Mirror
Descent", IJCAI 2024, arXiv:2404.13891. With d_t = t^alpha / (t^alpha + 1):

  DCFR+:   R_t = [d_{t-1} R_{t-1} + r_t]^+,  sigma_{t+1} ∝ R_t
  PDCFR+:  R_t = [d_{t-1} R_{t-1} + r_t]^+,  sigma_{t+1} ∝ [d_t R_t + r_t]^+

alternating updates, and the average weighted by t^gamma. The defaults are
the paper's: alpha = 1.5, gamma = 4 for DCFR+ and alpha = 2.3, gamma = 5 for
PDCFR+. Facts taken from the authors' public code (rpSebastian/PDCFRPlus,
``pdcfrplus/cfr/``), which the text leaves open or states otherwise:

- the regrets are discounted before r_t is added (d_{t-1}, so d_0 = 0 at
  the first iteration) and PDCFR+'s prediction discounts with d_t;
- the average's numerator is multiplied by ((t-1)/t)^gamma before
  x_i(I) sigma_t is added, which is the weight t^gamma normalised;
- each player's strategy is updated right after its own traversal
  (alternating updates), the average accumulating sigma_t before it changes;
- their DCFR+ divides by (t-1)^alpha + 1.5, not + 1 (``dcfr_plus.py``),
  while their PDCFR+ uses + 1. ``discount_offset`` selects: 1 (default, the
  paper's formula) or 1.5 (their DCFR+ code).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from spiel_ext.algorithms.base import set_field
from spiel_ext.algorithms.cfr import RegretMatchingConfig, Rules
from spiel_ext.algorithms.checks import check_real
from spiel_ext.algorithms.discounting import (MAX_GAMMA, PowerAveraging,
                                              discount_and_add,
                                              discount_factor)
from spiel_ext.algorithms.pcfr_plus import PredictiveRegretMatching
from spiel_ext.algorithms.protocol import plain_data
from spiel_ext.algorithms.regret import RegretMinimizationSolver
from spiel_ext.algorithms.regret_rules import RegretMatching, UpdateContext
from spiel_ext.algorithms.solver_docs import solver_doc


@plain_data
@dataclasses.dataclass(frozen=True)
class DiscountedPlusRegrets:
  """R_t = [R_{t-1} (t-1)^alpha / ((t-1)^alpha + offset) + r_t]^+.

  Attributes:
    alpha: the discount's exponent.
    offset: the discount's offset, > 0 (1: the paper's formula).
  """

  alpha: float
  offset: float = 1.0

  def update(self, cumulative_regret: np.ndarray,
             context: UpdateContext) -> None:
    """R <- [d_{t-1} R + r_t]^+, in place.

    Args:
      cumulative_regret: R on the player's rows, [rows, actions].
      context: the player's
        :class:`~spiel_ext.algorithms.regret_rules.UpdateContext`.
    """
    assert context.instant_regret is not None  # Set for every update.
    factor = discount_factor(context.t - 1, self.alpha, self.offset)
    discount_and_add(cumulative_regret, factor, context.instant_regret, True)


@dataclasses.dataclass(frozen=True, eq=False)
class DCFRPlusConfig(RegretMatchingConfig):
  """DCFR+'s hyperparameters: ``alpha`` in [0, 1000] (default 1.5),
  ``gamma`` in [0, 1000] (default 4), ``discount_offset`` > 0 (default 1,
  the paper's; 1.5 is the authors' DCFR+ code), and the options every
  regret-matching variant has (alternating_updates, random_init,
  init_scale, seed).

  Attributes:
    alpha: the regrets' discount exponent, in [0, 1000] (default 1.5).
    gamma: the average's weight exponent, in [0, 1000] (default 4).
    discount_offset: the discount's offset, in (0, 1e6] (default 1).
    alternating_updates, random_init, init_scale, seed: the options every
      regret-matching variant has (see
      :class:`~spiel_ext.algorithms.cfr.RegretMatchingConfig`).
  """

  alpha: float = 1.5
  gamma: float = 4.0
  discount_offset: float = 1.0

  def __post_init__(self) -> None:
    set_field(self, "alpha", check_real("alpha", self.alpha, 0.0, MAX_GAMMA))
    set_field(self, "gamma", check_real("gamma", self.gamma, 0.0, MAX_GAMMA))
    set_field(self, "discount_offset", check_real(
        "discount_offset", self.discount_offset, 0.0, 1e6,
        low_inclusive=False))
    super().__post_init__()

  def rules(self) -> Rules:
    """The variant's three rules.

    Returns:
      (regret rule, averaging rule, strategy rule):
      ``DiscountedPlusRegrets(alpha, discount_offset)``,
      ``PowerAveraging(gamma)``, ``RegretMatching()``.
    """
    return (DiscountedPlusRegrets(self.alpha, self.discount_offset),
            PowerAveraging(self.gamma), RegretMatching())


@dataclasses.dataclass(frozen=True, eq=False)
class PDCFRPlusConfig(RegretMatchingConfig):
  """PDCFR+'s hyperparameters: ``alpha`` in [0, 1000] (default 2.3),
  ``gamma`` in [0, 1000] (default 5), and the options every regret-matching
  variant has.

  Attributes:
    alpha: the regrets' and the prediction's discount exponent, in
      [0, 1000] (default 2.3).
    gamma: the average's weight exponent, in [0, 1000] (default 5).
    alternating_updates, random_init, init_scale, seed: the options every
      regret-matching variant has (see
      :class:`~spiel_ext.algorithms.cfr.RegretMatchingConfig`).
  """

  alpha: float = 2.3
  gamma: float = 5.0

  def __post_init__(self) -> None:
    set_field(self, "alpha", check_real("alpha", self.alpha, 0.0, MAX_GAMMA))
    set_field(self, "gamma", check_real("gamma", self.gamma, 0.0, MAX_GAMMA))
    super().__post_init__()

  def rules(self) -> Rules:
    """The variant's three rules.

    Returns:
      (regret rule, averaging rule, strategy rule):
      ``DiscountedPlusRegrets(alpha)``, ``PowerAveraging(gamma)``,
      ``PredictiveRegretMatching(alpha)``.
    """
    return (DiscountedPlusRegrets(self.alpha), PowerAveraging(self.gamma),
            PredictiveRegretMatching(self.alpha))


class DCFRPlusSolver(RegretMinimizationSolver):
  __doc__ = solver_doc("DCFR+ (Xu et al. 2024)", DCFRPlusConfig,
                       'DCFRPlusSolver("leduc_poker")', 500,
                       "alpha=1.5, gamma=4")

  Config = DCFRPlusConfig


class PDCFRPlusSolver(RegretMinimizationSolver):
  __doc__ = solver_doc("PDCFR+ (Xu et al. 2024)", PDCFRPlusConfig,
                       'PDCFRPlusSolver("kuhn_poker", alpha=2.3, gamma=5)',
                       1000, "alpha=2.3, gamma=5")

  Config = PDCFRPlusConfig
