"""PCFR+: predictive CFR+.

Gabriele Farina, Christian Kroer, Tuomas Sandholm, "Faster Game Solving via
Predictive Blackwell Approachability: Connecting Regret Matching and Mirror
Descent", AAAI 2021, arXiv:2007.14358 (predictive regret matching+,
Algorithm 2, with the prediction m_{t+1} = r_t of section 5):

  R_t         = [R_{t-1} + r_t]^+                     regret matching+
  sigma_{t+1} ∝ [R_t + m_{t+1}]^+,  m_{t+1} = r_t     uniform if all 0

with alternating updates and the average weighted by t^2 (quadratic), the
weighting Farina et al. run PCFR+ with and the default of Xu et al.'s public
PDCFR+ code (``gamma=2``); ``averaging="linear"`` (t, LiteEFG's
``baselines.PCFR``) and ``"uniform"`` are options. The whole variant is this
module: a strategy rule and a config naming the rules; the regret core
(:mod:`spiel_ext.algorithms.regret`) does the rest.
"""

from __future__ import annotations

import dataclasses

import numba
import numpy as np

from spiel_ext.algorithms.cfr import RegretMatchingConfig, Rules
from spiel_ext.algorithms.checks import check_choice
from spiel_ext.algorithms.discounting import PowerAveraging, discount_factor
from spiel_ext.algorithms.protocol import plain_data
from spiel_ext.algorithms.regret import RegretMinimizationSolver
from spiel_ext.algorithms.regret_rules import (PlusRegrets, UpdateContext,
                                               regret_matching)
from spiel_ext.algorithms.solver_docs import solver_doc

# The averaging options and their exponents gamma (weight t^gamma).
AVERAGING = {"uniform": 0.0, "linear": 1.0, "quadratic": 2.0}


@numba.njit(cache=True, nogil=True)
def predictive_regret_matching(cumulative_regret: np.ndarray, scale: float,
                               prediction: np.ndarray, legal: np.ndarray,
                               out: np.ndarray) -> None:
  """sigma ∝ [scale R + m]^+ over legal actions; uniform where all <= 0.

  Args:
    cumulative_regret: R, [rows, actions].
    scale: R's factor (1, or PDCFR+'s discount d_t).
    prediction: m, [rows, actions].
    legal: [rows, actions], True where an action is legal.
    out: [rows, actions], written: the strategy.
  """
  for row in range(cumulative_regret.shape[0]):
    total = 0.0
    count = 0
    for a in range(cumulative_regret.shape[1]):
      out[row, a] = 0.0
      if legal[row, a]:
        count += 1
        out[row, a] = max(
            cumulative_regret[row, a] * scale + prediction[row, a], 0.0)
        total += out[row, a]
    for a in range(cumulative_regret.shape[1]):
      if legal[row, a]:
        out[row, a] = out[row, a] / total if total > 0.0 else 1.0 / count


@plain_data
@dataclasses.dataclass(frozen=True)
class PredictiveRegretMatching:
  """sigma_{t+1} ∝ [d_t R_t + r_t]^+: the last instantaneous regret as the
  prediction; d_t = 1, or t^alpha / (t^alpha + 1) with ``alpha`` (PDCFR+).
  Before any update (a random start) it is regret matching on R.

  Attributes:
    alpha: None for d_t = 1 (PCFR+), else the discount's exponent (PDCFR+).
  """

  alpha: float | None = None

  def strategy(self, cumulative_regret: np.ndarray, context: UpdateContext,
               out: np.ndarray) -> None:
    """Writes sigma_{t+1} for the player's rows into ``out``.

    Args:
      cumulative_regret: R_t on the player's rows, [rows, actions].
      context: the player's
        :class:`~spiel_ext.algorithms.regret_rules.UpdateContext`.
      out: [rows, actions], written: the strategy.
    """
    if context.instant_regret is None:
      regret_matching(cumulative_regret, context.legal, out)
      return
    scale = 1.0 if self.alpha is None else discount_factor(context.t,
                                                           self.alpha)
    predictive_regret_matching(cumulative_regret, scale,
                               context.instant_regret, context.legal, out)


@dataclasses.dataclass(frozen=True, eq=False)
class PCFRPlusConfig(RegretMatchingConfig):
  """PCFR+'s hyperparameters: ``averaging`` ("quadratic", the default,
  "linear" or "uniform": the average's weight t^2, t or 1), and the options
  every regret-matching variant has (alternating_updates, default True;
  random_init; init_scale; seed).

  Attributes:
    averaging: "quadratic" (default), "linear" or "uniform".
    alternating_updates, random_init, init_scale, seed: the options every
      regret-matching variant has (see
      :class:`~spiel_ext.algorithms.cfr.RegretMatchingConfig`).
  """

  averaging: str = "quadratic"

  def __post_init__(self) -> None:
    check_choice("averaging", self.averaging, tuple(AVERAGING))
    super().__post_init__()

  def rules(self) -> Rules:
    """The variant's three rules.

    Returns:
      (regret rule, averaging rule, strategy rule): ``PlusRegrets()``,
      ``PowerAveraging(gamma)`` with gamma 2, 1 or 0 for ``averaging``,
      ``PredictiveRegretMatching()``.
    """
    return (PlusRegrets(), PowerAveraging(AVERAGING[self.averaging]),
            PredictiveRegretMatching())


class PCFRPlusSolver(RegretMinimizationSolver):
  __doc__ = solver_doc("PCFR+ (Farina, Kroer, Sandholm 2021)", PCFRPlusConfig,
                       'PCFRPlusSolver("kuhn_poker")', 1000,
                       'averaging="linear"')

  Config = PCFRPlusConfig
