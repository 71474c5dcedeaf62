"""CFR's and CFR+'s per-player update in one sweep over the infoset rows.

With regret rule :class:`~spiel_ext.algorithms.regret_rules.PlainRegrets`
(CFR: R <- R + r; Zinkevich, Johanson, Bowling, Piccione, "Regret
Minimization in Games with Incomplete Information", NeurIPS 2007) or
:class:`~spiel_ext.algorithms.regret_rules.PlusRegrets` (CFR+:
R <- max(R + r, 0); Tammelin, "Solving Large Imperfect Information Games
Using CFR+", 2014) and strategy rule
:class:`~spiel_ext.algorithms.regret_rules.RegretMatching`, a player's
update is row by row: r(I, a) = v(I, a) - sum_b sigma(I, b) v(I, b), the
average's numerator, the regret rule, and regret matching of the new
regrets into sigma(I). The rules' separate steps walk the [infosets,
actions] arrays five times, which on a game with ~10^5 infosets took as
long as the tree pass; this kernel walks them once, with the same
operations in the same order, so its results are the rules' to the bit.
"""

from __future__ import annotations

import numba
import numpy as np

from spiel_ext.algorithms.regret_rules import (PARALLEL_MIN_ROWS,
                                               PlainRegrets, PlusRegrets,
                                               RegretMatching, RegretRule,
                                               StrategyRule, absorb_entry,
                                               regret_matching_row, row_value)
from spiel_ext.engine.threads import serial_copy

__all__ = ["fused_update", "fuses"]

_row_step = numba.njit(cache=True, nogil=True, inline="always")


def fuses(regret_rule: RegretRule, strategy_rule: StrategyRule) -> bool:
  """Whether :func:`fused_update` computes this pair of rules.

  Args:
    regret_rule: the solver's regret rule.
    strategy_rule: the solver's strategy rule.

  Returns:
    True for (PlainRegrets or PlusRegrets, RegretMatching), exactly those
    classes (a subclass may change the rule).
  """
  return (type(regret_rule) in (PlainRegrets, PlusRegrets) and
          type(strategy_rule) is RegretMatching)


@_row_step
def _update_row(row: int, cfv: np.ndarray, policy: np.ndarray,
                legal: np.ndarray, own_reach: np.ndarray,
                average_weight: float, plus: bool,
                cumulative_regret: np.ndarray,
                cumulative_policy: np.ndarray) -> None:
  # absorb_iteration's operations, then the regret rule's, in their order.
  infoset_value = row_value(row, cfv, policy)
  scale = average_weight * own_reach[row]
  for a in range(cfv.shape[1]):
    instant_regret = absorb_entry(row, a, cfv, policy, legal, scale,
                                  infoset_value, cumulative_policy)
    total = cumulative_regret[row, a] + instant_regret
    # np.maximum(R, 0) of PlusRegrets: +0 for -0, NaN kept.
    floored = total if total > 0.0 or total != total else 0.0
    cumulative_regret[row, a] = floored if plus else total
  regret_matching_row(row, cumulative_regret, legal, policy)


def _fused_rows(cfv: np.ndarray, policy: np.ndarray, legal: np.ndarray,
                own_reach: np.ndarray, average_weight: float, plus: bool,
                cumulative_regret: np.ndarray,
                cumulative_policy: np.ndarray) -> None:
  for row in numba.prange(cfv.shape[0]):
    _update_row(row, cfv, policy, legal, own_reach, average_weight, plus,
                cumulative_regret, cumulative_policy)


# Compiled twice: on numba's threads for many rows, else on the caller's.
_fused_parallel = numba.njit(cache=True, nogil=True, parallel=True)(
    _fused_rows)
_fused_serial = numba.njit(cache=True, nogil=True)(serial_copy(_fused_rows))


def fused_update(regret_rule: RegretRule, cfv: np.ndarray,
                 policy: np.ndarray, legal: np.ndarray,
                 own_reach: np.ndarray, average_weight: float,
                 cumulative_regret: np.ndarray,
                 cumulative_policy: np.ndarray) -> None:
  """One player's CFR or CFR+ update on its rows, in place.

  Args:
    regret_rule: PlainRegrets or PlusRegrets (see :func:`fuses`).
    cfv: v(I, a) of the player's rows.
    policy: sigma of the rows; overwritten with the regret-matching
      strategy of the new regrets.
    legal: the rows' legal actions.
    own_reach: x_i(I) of the rows.
    average_weight: the averaging rule's weight this iteration.
    cumulative_regret: R of the rows, updated.
    cumulative_policy: the average's numerator of the rows, updated.
  """
  plus = type(regret_rule) is PlusRegrets
  kernel = (_fused_parallel if cfv.shape[0] >= PARALLEL_MIN_ROWS else
            _fused_serial)
  kernel(cfv, policy, legal, own_reach, average_weight, plus,
         cumulative_regret, cumulative_policy)
