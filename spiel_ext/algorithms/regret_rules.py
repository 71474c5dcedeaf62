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
t^beta / (t^beta + 1), average weighted by t^gamma (these discounts and
weights live in :mod:`spiel_ext.algorithms.discounting` and are importable
from here too).
The rules are small frozen value objects (registered as plain data, so a
config holding them checkpoints as plain data); each solver's config says
which it uses, in one place (``CFRConfig.rules()`` and its siblings in
:mod:`spiel_ext.algorithms.cfr`). A new variant is one module holding its
rule and its solver class (:mod:`spiel_ext.algorithms.pcfr_plus`).
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Mapping
from typing import Any, NamedTuple, Protocol

import numba
import numpy as np

# DCFR's discounts and the average's weights, importable from here as
# before they had their own module.
from spiel_ext.algorithms.discounting import (  # pylint: disable=unused-import
    MAX_GAMMA, DiscountedRegrets, PowerAveraging, SummedRegrets,
    check_dcfr_parameters, discount_and_add, discount_factor,
    discount_regrets)
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
def absorb_entry(row: int, a: int, cfv: np.ndarray, policy: np.ndarray,
                 legal: np.ndarray, scale: float, infoset_value: float,
                 cumulative_policy: np.ndarray) -> float:
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
def row_value(row: int, cfv: np.ndarray, policy: np.ndarray) -> float:
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
def _absorb_row(row: int, cfv: np.ndarray, policy: np.ndarray,
                legal: np.ndarray, own_reach: np.ndarray,
                average_weight: float, instant_regret: np.ndarray,
                cumulative_policy: np.ndarray) -> None:
  infoset_value = row_value(row, cfv, policy)
  scale = average_weight * own_reach[row]
  for a in range(cfv.shape[1]):
    instant_regret[row, a] = absorb_entry(row, a, cfv, policy, legal, scale,
                                          infoset_value, cumulative_policy)


@_jit
def _absorb_serial(cfv: np.ndarray, policy: np.ndarray, legal: np.ndarray,
                   own_reach: np.ndarray, average_weight: float,
                   instant_regret: np.ndarray,
                   cumulative_policy: np.ndarray) -> None:
  for row in range(cfv.shape[0]):
    _absorb_row(row, cfv, policy, legal, own_reach, average_weight,
                instant_regret, cumulative_policy)


@_parallel_jit
def _absorb_parallel(cfv: np.ndarray, policy: np.ndarray,
                     legal: np.ndarray, own_reach: np.ndarray,
                     average_weight: float, instant_regret: np.ndarray,
                     cumulative_policy: np.ndarray) -> None:
  for row in numba.prange(cfv.shape[0]):
    _absorb_row(row, cfv, policy, legal, own_reach, average_weight,
                instant_regret, cumulative_policy)


def absorb_iteration(cfv: np.ndarray, policy: np.ndarray,
                     legal: np.ndarray, own_reach: np.ndarray,
                     average_weight: float, instant_regret: np.ndarray,
                     cumulative_policy: np.ndarray) -> None:
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
def regret_matching_row(row: int, cumulative_regret: np.ndarray,
                        legal: np.ndarray, out: np.ndarray) -> None:
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
def regret_matching_rows(cumulative_regret: np.ndarray, legal: np.ndarray,
                         out: np.ndarray) -> None:
  """:func:`regret_matching` on one thread (for a few rows at a time).

  Args:
    cumulative_regret: R, [rows, actions].
    legal: [rows, actions], True where an action is legal.
    out: [rows, actions], written: the strategy.
  """
  for row in range(cumulative_regret.shape[0]):
    regret_matching_row(row, cumulative_regret, legal, out)


@_parallel_jit
def _regret_matching_parallel(cumulative_regret: np.ndarray,
                              legal: np.ndarray, out: np.ndarray) -> None:
  for row in numba.prange(cumulative_regret.shape[0]):
    regret_matching_row(row, cumulative_regret, legal, out)


def regret_matching(cumulative_regret: np.ndarray, legal: np.ndarray,
                    out: np.ndarray) -> None:
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


# -------------------------------------------------------------- interfaces
# The attributes every rule context documents alike (UpdateContext here,
# FPContext of fp_rules): the player, their rows, the rules' own arrays.
CONTEXT_ROWS_DOC = """
    player: the player being updated.
    rows: the player's rows of the [infosets, actions] tables.
    legal: [rows, actions], True where an action is legal."""
CONTEXT_STATE_DOC = """
    state: the rules' own arrays (see ``initial_state``), each sliced to
      ``rows``: writing into them updates the solver's state."""


class UpdateContext(NamedTuple):
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

# The docstring shares attribute text with the other rule context.
UpdateContext.__doc__ = (
    f"""What one player's update at iteration t hands its rules.

  Arrays are on the player's infoset rows (``rows`` of the whole tables).

  Attributes:
    t: the iteration, from 1.{CONTEXT_ROWS_DOC}
    current: sigma_t, the strategy the pass evaluated (before this update).
    instant_regret: r_t(I, a) = v_i(I, a) - sum_b sigma_t(I, b) v_i(I, b),
      0 on illegal actions; None when the solver asks for a strategy before
      any update (a random start).
    cfv: v_i(I, a) = sum_{{h in I}} x_{{-i}}(h) u_i(h.a), or None (as above).
    own_reach: x_i(I), or None (as above).
    others_reach: sum_{{h in I}} x_{{-i}}(h), or None (as
      above).{CONTEXT_STATE_DOC}
  """)


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
# Each adds r to R, then takes its own step (SummedRegrets.update).
@plain_data
@dataclasses.dataclass(frozen=True)
class PlainRegrets(SummedRegrets):
  """CFR: R <- R + r."""


@plain_data
@dataclasses.dataclass(frozen=True)
class PlusRegrets(SummedRegrets):
  """CFR+ (regret matching+): R <- max(R + r, 0)."""

  def _after_sum(self, cumulative_regret: np.ndarray,
                 context: UpdateContext) -> None:
    del context
    np.maximum(cumulative_regret, 0.0, out=cumulative_regret)


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
