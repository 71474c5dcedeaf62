"""DCFR's discounting: the regret discount, the t^gamma weights of the
average strategy, DCFR's parameter checks, and the regret sum the CFR
family's regret rules share.

DCFR (Noam Brown, Tuomas Sandholm, "Solving Imperfect-Information Games via
Discounted Regret Minimization", AAAI 2019, arXiv:1809.04040): positive
regrets times t^alpha / (t^alpha + 1), negative ones times
t^beta / (t^beta + 1), average weighted by t^gamma. CFR's uniform average
and CFR+'s linear one (Oskari Tammelin, "Solving Large Imperfect
Information Games Using CFR+", 2014, arXiv:1407.5042) are the weights with
gamma = 0 and 1; likewise CFR's regrets, CFR+'s floored ones and DCFR's
discounted ones are one sum R <- R + r with a different step after it
(:class:`SummedRegrets`). The rules are the regret and averaging rules of
:mod:`spiel_ext.algorithms.regret_rules` (which re-exports them).
"""

from __future__ import annotations

import dataclasses
import math
from typing import TYPE_CHECKING, ClassVar

import numba
import numpy as np

from spiel_ext.algorithms.checks import check_real
from spiel_ext.algorithms.protocol import plain_data

if TYPE_CHECKING:
  from spiel_ext.algorithms.regret_rules import UpdateContext

_jit = numba.njit(cache=True, nogil=True)


# ----------------------------------------------------------------- kernels
@_jit
def discount_regrets(cumulative_regret: np.ndarray, positive_factor: float,
                     negative_factor: float) -> None:
  """Multiplies, in place, entries >= 0 by ``positive_factor`` and negative
  ones by ``negative_factor`` (DCFR's discount).

  Args:
    cumulative_regret: R, [rows, actions], updated in place.
    positive_factor: the factor of entries >= 0.
    negative_factor: the factor of negative entries.
  """
  for row in range(cumulative_regret.shape[0]):
    for a in range(cumulative_regret.shape[1]):
      if cumulative_regret[row, a] >= 0.0:
        cumulative_regret[row, a] *= positive_factor
      else:
        cumulative_regret[row, a] *= negative_factor


# ------------------------------------------------------------ regret rules
def discount_factor(t: int, exponent: float, offset: float = 1.0) -> float:
  """t^e / (t^e + c) for c = ``offset`` > 0, any finite e and t >= 0,
  without overflow (t = 0 gives 0 for e > 0, 1 / (1 + c) for e = 0 and 1
  for e < 0).

  Computed as OpenSpiel's DCFR computes it (c = 1) while t^e is a moderate
  number, and as 1 / (1 + c t^-e) (rounding to 1, or to t^e / c near 0)
  beyond.

  Args:
    t: the iteration, >= 0.
    exponent: e, any finite number.
    offset: c, > 0.

  Returns:
    The factor, in [0, 1].
  """
  if t == 0:
    return 0.0 if exponent > 0 else (1.0 / (1.0 + offset)
                                     if exponent == 0 else 1.0)
  log_power = exponent * math.log(t)
  if log_power > 700.0:
    return 1.0 / (1.0 + offset * math.exp(-log_power))
  if log_power < -700.0:
    return math.exp(log_power) / offset
  power = float(t)**exponent
  return power / (power + offset)


class SummedRegrets:
  """The update CFR's, CFR+'s and DCFR's regret rules share: R <- R + r,
  then the rule's own step on the sum (none for CFR's
  :class:`~spiel_ext.algorithms.regret_rules.PlainRegrets`; the floor at 0
  of :class:`~spiel_ext.algorithms.regret_rules.PlusRegrets`; DCFR's
  discount of :class:`DiscountedRegrets`).
  """

  def update(self, cumulative_regret: np.ndarray,
             context: UpdateContext) -> None:
    """R <- R + r, then the rule's step (see the class), in place.

    Args:
      cumulative_regret: R on the player's rows.
      context: the player's
        :class:`~spiel_ext.algorithms.regret_rules.UpdateContext`.
    """
    cumulative_regret += context.instant_regret
    self._after_sum(cumulative_regret, context)

  def _after_sum(self, cumulative_regret: np.ndarray,
                 context: UpdateContext) -> None:
    """The rule's step on R + r, in place (none here)."""
    del cumulative_regret, context


@plain_data
@dataclasses.dataclass(frozen=True)
class DiscountedRegrets(SummedRegrets):
  """DCFR: R <- R + r, then positive entries times t^alpha / (t^alpha + 1)
  and negative ones times t^beta / (t^beta + 1).

  Attributes:
    alpha: the positive regrets' exponent, any finite number.
    beta: the negative regrets' exponent, any finite number.
  """

  alpha: float
  beta: float

  def _after_sum(self, cumulative_regret: np.ndarray,
                 context: UpdateContext) -> None:
    discount_regrets(cumulative_regret, discount_factor(context.t, self.alpha),
                     discount_factor(context.t, self.beta))


# --------------------------------------------------------- averaging rules
# Weights up to 2^_UNSCALED_BITS are used as they are; beyond, the average's
# numerator is kept in units of 2^k(t) so that it stays finite for any gamma
# and any number of iterations. Rescaling by a power of 2 is exact.
_UNSCALED_BITS = 500


@plain_data
@dataclasses.dataclass(frozen=True)
class PowerAveraging:
  """Average weight t^gamma: 0 is CFR's plain average, 1 linear (CFR+),
  2 DCFR's default.

  For gamma log2(t) <= 500 (every run with gamma = 2 below 2^250
  iterations) the weight is t^gamma exactly as OpenSpiel computes it; past
  that the solver's numerator is rescaled by exact powers of 2.

  Attributes:
    gamma: the exponent, >= 0 (0: every iteration weighs 1).
  """

  gamma: float
  # Set on each instance by __post_init__ (not a field).
  _unscaled_below: ClassVar[float]

  def __post_init__(self) -> None:
    # Below this t, gamma log2(t) < 500 and no scaling is needed.
    object.__setattr__(self, "_unscaled_below", (
        math.inf if self.gamma == 0.0 else
        2.0**min(_UNSCALED_BITS / self.gamma, 1023.0)))

  def scale_exponent(self, t: int) -> int:
    """k(t) (see :class:`AveragingRule`): 0 while gamma log2(t) <= 500.

    Args:
      t: the iteration (0 before the first).

    Returns:
      max(0, floor(gamma log2(t)) - 500), an int.
    """
    if t < self._unscaled_below:
      return 0
    return max(0, math.floor(self.gamma * math.log2(t)) - _UNSCALED_BITS)

  def weight(self, t: int) -> float:
    """t^gamma in units of 2^scale_exponent(t).

    Args:
      t: the iteration, from 1.

    Returns:
      The weight.
    """
    if self.gamma == 0.0:
      return 1.0
    exponent = self.scale_exponent(t)
    if exponent == 0:
      return float(t)**self.gamma
    return 2.0**(self.gamma * math.log2(t) - exponent)


@_jit
def discount_and_add(cumulative_regret: np.ndarray, factor: float,
                     instant_regret: np.ndarray, floor: bool) -> None:
  """R <- R * factor + r, then, with ``floor``, max(., 0).

  Args:
    cumulative_regret: R, [rows, actions], updated in place.
    factor: R's discount.
    instant_regret: r, [rows, actions].
    floor: True to floor the result at 0.
  """
  for row in range(cumulative_regret.shape[0]):
    for a in range(cumulative_regret.shape[1]):
      value = cumulative_regret[row, a] * factor + instant_regret[row, a]
      cumulative_regret[row, a] = max(value, 0.0) if floor else value




# The largest DCFR gamma accepted. For t < 2^63, gamma log2(t) then stays
# below 63,000: the average's scaling exponents are small ints (np.ldexp
# takes an int32) and the weight 2^(gamma log2(t) - k) keeps ~1e-11 relative
# precision. A larger gamma (1e308 overflowed on the second iteration) only
# loses precision; DCFR's paper uses gamma <= 5.
MAX_GAMMA = 1000.0


def check_dcfr_parameters(alpha: object, beta: object, gamma: object,
                          prefix: str = "") -> tuple[float, float, float]:
  """DCFR's (alpha, beta, gamma) as floats, if they keep DCFR well defined.

  alpha and beta may be any finite numbers: :func:`discount_factor` computes
  t^e / (t^e + 1) from e log(t), which is finite (or +-inf, giving exactly 1
  or 0) for every finite e and t >= 1, never NaN. gamma must be in
  [0, MAX_GAMMA] (a negative one would weight early iterations most, which
  DCFR does not mean; see MAX_GAMMA for the upper bound).

  Args:
    alpha, beta, gamma: the values to check.
    prefix: put before the names in messages (``"dcfr_"`` for Pref-CFR's
      ``dcfr_alpha``).

  Returns:
    (alpha, beta, gamma) as floats.

  Raises:
    ValueError: naming the parameter and the accepted values.
  """
  return (check_real(f"{prefix}alpha", alpha),
          check_real(f"{prefix}beta", beta),
          check_real(f"{prefix}gamma", gamma, 0.0, MAX_GAMMA))
