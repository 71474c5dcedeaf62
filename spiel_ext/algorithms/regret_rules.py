"""The rules that tell the CFR variants apart, the context they see, and
their kernels.

A regret minimiser's iteration (see :mod:`spiel_ext.algorithms.regret`) is
fixed except for three rules, each a small object:

  RegretRule     update(R, context):       R <- f(R, r_t) in place
  AveragingRule  weight(t):                iteration t's weight in the average
  StrategyRule   strategy(R, context, out): the next current strategy

Each update receives an :class:`UpdateContext`: the iteration t, the
player, the player's infoset rows, the instantaneous counterfactual regret
r_t(I, a) = v_i(I, a) - sum_b sigma_t(I, b) v_i(I, b), the counterfactual
values, the reaches and the strategy sigma_t the pass evaluated. A rule
that needs memory across iterations (a prediction, a previous strategy, a
magnet, a running sum) declares its arrays with ``initial_state(tree)``;
the solver creates them once, hands them to every update (``context.state``,
sliced to the player's rows) and saves them in ``state_dict()`` and
checkpoints, so a run with such a rule resumes exactly.

CFR (Martin Zinkevich, Michael Johanson, Michael Bowling, Carmelo Piccione,
"Regret Minimization in Games with Incomplete Information", NeurIPS 2007,
section 3): plain regrets, uniform average, regret matching.
CFR+ (Oskari Tammelin, "Solving Large Imperfect Information Games Using
CFR+", 2014, arXiv:1407.5042): regrets floored at 0 (regret matching+),
average weighted by t.
DCFR (Noam Brown, Tuomas Sandholm, "Solving Imperfect-Information Games via
Discounted Regret Minimization", AAAI 2019, arXiv:1809.04040): positive
regrets times t^alpha / (t^alpha + 1), negative ones times
t^beta / (t^beta + 1), average weighted by t^gamma.
The rules are small frozen value objects (registered as plain data, so a
config holding them checkpoints as plain data); each solver's config says
which it uses, in one place (``CFRConfig.rules()`` and its siblings in
:mod:`spiel_ext.algorithms.cfr`). A new variant is one module holding its
rule and its solver class (:mod:`spiel_ext.algorithms.pcfr_plus`).
"""

from __future__ import annotations

import dataclasses
import math
import types
from collections.abc import Mapping
from typing import Any, NamedTuple, Protocol

import numba
import numpy as np

from spiel_ext.algorithms.checks import check_real
from spiel_ext.algorithms.protocol import plain_data

_jit = numba.njit(cache=True, nogil=True)


# ----------------------------------------------------------------- kernels
# Each kernel works row by row; a table of at least PARALLEL_MIN_ROWS rows
# has its rows shared among numba's threads (each row's arithmetic is the
# same, so the results are the same bits).
_row_step = numba.njit(cache=True, nogil=True, inline="always")
_parallel_jit = numba.njit(cache=True, nogil=True, parallel=True)
PARALLEL_MIN_ROWS = 20_000


@_row_step
def absorb_entry(row, a, cfv, policy, legal, scale, infoset_value,
                 cumulative_policy):
  """One entry of :func:`absorb_iteration` (a numba kernel, inlined).

  Args:
    row, a: the entry.
    cfv: v(I, a), [rows, actions].
    policy: sigma, [rows, actions].
    legal: the legal actions, [rows, actions] bool.
    scale: the averaging weight times x_i(I) of the row.
    infoset_value: sum_b sigma(I, b) v(I, b) of the row.
    cumulative_policy: the average's numerator; scale * sigma(I, a) is
      added at a legal entry.

  Returns:
    The instantaneous regret r(I, a): v(I, a) - infoset_value if legal,
    else 0.
  """
  if not legal[row, a]:
    return 0.0
  cumulative_policy[row, a] += scale * policy[row, a]
  return cfv[row, a] - infoset_value


@_row_step
def row_value(row, cfv, policy):
  """sum_b sigma(I, b) v(I, b) of one row (a numba kernel, inlined).

  Args:
    row: the row.
    cfv: v(I, a), [rows, actions].
    policy: sigma, [rows, actions].

  Returns:
    The row's expected counterfactual value under sigma.
  """
  infoset_value = 0.0
  for a in range(cfv.shape[1]):
    infoset_value += policy[row, a] * cfv[row, a]
  return infoset_value


@_row_step
def _absorb_row(row, cfv, policy, legal, own_reach, average_weight,
                instant_regret, cumulative_policy):
  infoset_value = row_value(row, cfv, policy)
  scale = average_weight * own_reach[row]
  for a in range(cfv.shape[1]):
    instant_regret[row, a] = absorb_entry(row, a, cfv, policy, legal, scale,
                                          infoset_value, cumulative_policy)


@_jit
def _absorb_serial(cfv, policy, legal, own_reach, average_weight,
                   instant_regret, cumulative_policy):
  for row in range(cfv.shape[0]):
    _absorb_row(row, cfv, policy, legal, own_reach, average_weight,
                instant_regret, cumulative_policy)


@_parallel_jit
def _absorb_parallel(cfv, policy, legal, own_reach, average_weight,
                     instant_regret, cumulative_policy):
  for row in numba.prange(cfv.shape[0]):
    _absorb_row(row, cfv, policy, legal, own_reach, average_weight,
                instant_regret, cumulative_policy)


def absorb_iteration(cfv, policy, legal, own_reach, average_weight,
                     instant_regret, cumulative_policy) -> None:
  """r(I, a) = v(I, a) - sum_b sigma(I, b) v(I, b) on legal actions (0
  elsewhere), written to ``instant_regret``, and
  S(I, a) += average_weight * x_i(I) * sigma(I, a).

  Rows are one player's infosets; every array is [rows, actions] but
  ``own_reach`` [rows].

  Args:
    cfv: v(I, a), the counterfactual values.
    policy: sigma, the strategy the values were computed for.
    legal: True where an action is legal.
    own_reach: x_i(I), the player's own reach of each infoset.
    average_weight: iteration t's weight in the average (a float).
    instant_regret: written: r(I, a).
    cumulative_policy: S, updated in place.
  """
  kernel = (_absorb_parallel if cfv.shape[0] >= PARALLEL_MIN_ROWS else
            _absorb_serial)
  kernel(cfv, policy, legal, own_reach, average_weight, instant_regret,
         cumulative_policy)


@_row_step
def regret_matching_row(row, cumulative_regret, legal, out):
  """Regret matching of one row (a numba kernel, inlined by its callers).

  Args:
    row: the row of ``cumulative_regret``, ``legal`` and ``out``.
    cumulative_regret: R, [rows, actions].
    legal: the legal actions, [rows, actions] bool.
    out: where sigma(row) goes: R+ / sum R+ on legal actions, uniform
      over them when no R > 0, 0 on illegal ones.
  """
  total = 0.0
  count = 0
  for a in range(cumulative_regret.shape[1]):
    if legal[row, a]:
      count += 1
      if cumulative_regret[row, a] > 0.0:
        total += cumulative_regret[row, a]
  for a in range(cumulative_regret.shape[1]):
    if not legal[row, a]:
      out[row, a] = 0.0
    elif total > 0.0:
      out[row, a] = max(cumulative_regret[row, a], 0.0) / total
    else:
      out[row, a] = 1.0 / count


@_jit
def regret_matching_rows(cumulative_regret, legal, out):
  """:func:`regret_matching` on one thread (for a few rows at a time).

  Args:
    cumulative_regret: R, [rows, actions].
    legal: [rows, actions], True where an action is legal.
    out: [rows, actions], written: the strategy.
  """
  for row in range(cumulative_regret.shape[0]):
    regret_matching_row(row, cumulative_regret, legal, out)


@_parallel_jit
def _regret_matching_parallel(cumulative_regret, legal, out):
  for row in numba.prange(cumulative_regret.shape[0]):
    regret_matching_row(row, cumulative_regret, legal, out)


def regret_matching(cumulative_regret, legal, out) -> None:
  """sigma proportional to R+, uniform over legal actions when no R > 0.

  The rule of OpenSpiel's ``cfr._regret_matching``.

  Args:
    cumulative_regret: R, [rows, actions].
    legal: [rows, actions], True where an action is legal.
    out: [rows, actions], written: the strategy.
  """
  kernel = (_regret_matching_parallel
            if cumulative_regret.shape[0] >= PARALLEL_MIN_ROWS else
            regret_matching_rows)
  kernel(cumulative_regret, legal, out)


@_jit
def discount_regrets(cumulative_regret, positive_factor, negative_factor):
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


# -------------------------------------------------------------- interfaces
class UpdateContext(NamedTuple):
  """What one player's update at iteration t hands its rules.

  Arrays are on the player's infoset rows (``rows`` of the whole tables).

  Attributes:
    t: the iteration, from 1.
    player: the player being updated.
    rows: the player's rows of the [infosets, actions] tables.
    legal: [rows, actions], True where an action is legal.
    current: sigma_t, the strategy the pass evaluated (before this update).
    instant_regret: r_t(I, a) = v_i(I, a) - sum_b sigma_t(I, b) v_i(I, b),
      0 on illegal actions; None when the solver asks for a strategy before
      any update (a random start).
    cfv: v_i(I, a) = sum_{h in I} x_{-i}(h) u_i(h.a), or None (as above).
    own_reach: x_i(I), or None (as above).
    others_reach: sum_{h in I} x_{-i}(h), or None (as above).
    state: the rules' own arrays (see ``initial_state``), each sliced to
      ``rows``: writing into them updates the solver's state.
  """
  t: int
  player: int
  rows: slice
  legal: np.ndarray
  current: np.ndarray
  instant_regret: np.ndarray | None = None
  cfv: np.ndarray | None = None
  own_reach: np.ndarray | None = None
  others_reach: np.ndarray | None = None
  state: Mapping[str, np.ndarray] = types.MappingProxyType({})


class RegretRule(Protocol):
  """Updates the player's cumulative regrets R (its rows, in place) with
  ``context.instant_regret``: CFR's is R <- R + r."""

  def update(self, cumulative_regret: np.ndarray, context: UpdateContext,
             /) -> None:
    """Updates R in place.

    Args:
      cumulative_regret: R on the player's rows, [rows, actions].
      context: the player's :class:`UpdateContext`.
    """


class AveragingRule(Protocol):
  """The weight of iteration t in the average strategy.

  The solver keeps the average's numerator divided by 2^k(t) (k from
  ``scale_exponent``), so that large weights never overflow; ``weight``
  returns the weight in those units.
  """

  def weight(self, t: int, /) -> float:
    """Iteration t's weight.

    Args:
      t: the iteration, from 1.

    Returns:
      The weight divided by 2^scale_exponent(t).
    """

  def scale_exponent(self, t: int, /) -> int:
    """k(t): the average's numerator after iteration t is kept divided by
    2^k(t).

    Args:
      t: the iteration (0 before the first).

    Returns:
      k(t), an int.
    """


class StrategyRule(Protocol):
  """Writes the player's next current strategy (its rows) into ``out`` from
  their cumulative regrets R, after the regret rule's update."""

  def strategy(self, cumulative_regret: np.ndarray, context: UpdateContext,
               out: np.ndarray, /) -> None:
    """Writes the next strategy into ``out``.

    Args:
      cumulative_regret: R on the player's rows, [rows, actions].
      context: the player's :class:`UpdateContext`.
      out: [rows, actions], written: the strategy (0 on illegal actions).
    """


class RuleWithState(Protocol):
  """Optional on any rule: the arrays it keeps across iterations.

  ``initial_state(tree)`` returns {name: array} with one row per infoset
  (first axis ``tree.num_infosets``); names are unique among a solver's
  rules and become keys of its ``state_dict()``.
  """

  def initial_state(self, tree: Any, /) -> dict[str, np.ndarray]:
    """The rule's arrays before the first iteration.

    Args:
      tree: the solver's compiled GameTree.

    Returns:
      {name: array}, each with first axis ``tree.num_infosets``.
    """


# ------------------------------------------------------------ regret rules
@plain_data
@dataclasses.dataclass(frozen=True)
class PlainRegrets:
  """CFR: R <- R + r."""

  def update(self, cumulative_regret: np.ndarray,
             context: UpdateContext) -> None:
    """R <- R + r, in place.

    Args:
      cumulative_regret: R on the player's rows.
      context: the player's :class:`UpdateContext`.
    """
    cumulative_regret += context.instant_regret


@plain_data
@dataclasses.dataclass(frozen=True)
class PlusRegrets:
  """CFR+ (regret matching+): R <- max(R + r, 0)."""

  def update(self, cumulative_regret: np.ndarray,
             context: UpdateContext) -> None:
    """R <- max(R + r, 0), in place.

    Args:
      cumulative_regret: R on the player's rows.
      context: the player's :class:`UpdateContext`.
    """
    cumulative_regret += context.instant_regret
    np.maximum(cumulative_regret, 0.0, out=cumulative_regret)


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


@plain_data
@dataclasses.dataclass(frozen=True)
class DiscountedRegrets:
  """DCFR: R <- R + r, then positive entries times t^alpha / (t^alpha + 1)
  and negative ones times t^beta / (t^beta + 1).

  Attributes:
    alpha: the positive regrets' exponent, any finite number.
    beta: the negative regrets' exponent, any finite number.
  """

  alpha: float
  beta: float

  def update(self, cumulative_regret: np.ndarray,
             context: UpdateContext) -> None:
    """R <- R + r, then discounted, in place.

    Args:
      cumulative_regret: R on the player's rows.
      context: the player's :class:`UpdateContext`.
    """
    cumulative_regret += context.instant_regret
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

  def __post_init__(self):
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
def discount_and_add(cumulative_regret, factor, instant_regret, floor):
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


# ---------------------------------------------------------- strategy rules
@plain_data
@dataclasses.dataclass(frozen=True)
class RegretMatching:
  """sigma(I, a) = R+(I, a) / sum_b R+(I, b); uniform when no R > 0."""

  def strategy(self, cumulative_regret: np.ndarray, context: UpdateContext,
               out: np.ndarray) -> None:
    """Regret matching on the player's rows.

    Args:
      cumulative_regret: R on the player's rows.
      context: the player's :class:`UpdateContext`.
      out: written: the strategy.
    """
    regret_matching(cumulative_regret, context.legal, out)


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
