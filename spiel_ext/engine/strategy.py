"""The check that an array is a behaviour strategy of a compiled game.

A strategy is a [num_infosets, num_distinct_actions] array in the row layout
of OpenSpiel's ``TabularPolicy.action_probability_array`` whose every row
holds finite, non-negative probabilities, 0 on the infoset's illegal
actions, summing to 1 within a tolerance over its legal actions. This is the
one checker in spiel_ext: the policy module, the unknown-environment game
and the solvers all use it.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from spiel_ext.engine.constants import STRATEGY_TOLERANCE
from spiel_ext.engine.layout import TreeLayout

__all__ = ["StrategyTypeError", "check_strategy"]


class StrategyTypeError(TypeError, ValueError):
  """A strategy whose entries are not real numbers (an object or string
  array). Both a TypeError and, for callers that catch the ValueErrors of
  :func:`check_strategy`, a ValueError."""


def check_strategy(tree: TreeLayout, strategy: Any, name: str = "policy",
                   tolerance: float = STRATEGY_TOLERANCE) -> np.ndarray:
  """``strategy`` as a float64 array, if it is a strategy of ``tree``'s game.

  A strategy is a [num_infosets, num_distinct_actions] array whose every row
  holds finite, non-negative probabilities, 0 on the infoset's illegal
  actions, summing to 1 within ``tolerance`` over its legal actions. The
  shape is checked by ``tree.check_policy``.

  Args:
    tree: the compiled game.
    strategy: the array to check.
    name: what to call it in error messages.
    tolerance: how far a row's sum may be from 1.

  Returns:
    ``strategy``, as it is (not copied) if it is a float64 array, else
    converted to one.

  Raises:
    ValueError: naming ``name``: the array has the wrong shape, or the first
      infoset (key and row) that breaks a rule, with its values and legal
      actions.
    StrategyTypeError: (a TypeError and a ValueError) its entries are not
      real numbers.
  """
  tree.check_policy(strategy, name)
  if strategy.dtype != np.float64:
    if strategy.dtype.kind not in "biuf":
      raise StrategyTypeError(f"{name} must be an array of real numbers; "
                              f"got dtype {strategy.dtype}.")
    strategy = strategy.astype(np.float64)
  row = _first_bad_row(strategy, tree.infoset_legal, tolerance)
  if row >= 0:
    legal = tree.infoset_legal[row]
    raise ValueError(
        f"{name} is not a strategy: at infoset {tree.infoset_keys[row]!r} "
        f"(row {row}) it has {_problem(strategy[row], legal)}: "
        f"{strategy[row].tolist()[:12]}. Each row must hold finite, "
        "non-negative probabilities of the legal actions "
        f"({np.flatnonzero(legal).tolist()} there), 0 on the others, summing "
        f"to 1 (within {tolerance:g}).")
  return strategy


@numba.njit(cache=True, nogil=True)
def _first_bad_row(strategy, legal, tolerance):
  """The first row that is not a distribution over the legal actions (finite,
  non-negative, 0 on illegal actions, summing to 1 within ``tolerance``),
  or -1."""
  for row in range(strategy.shape[0]):
    total = 0.0
    for a in range(strategy.shape[1]):
      p = strategy[row, a]
      if not 0.0 <= p < np.inf or (p != 0.0 and not legal[row, a]):
        return row
      total += p
    if not abs(total - 1.0) <= tolerance:
      return row
  return -1


def _problem(values: np.ndarray, legal: np.ndarray) -> str:
  """What is wrong with a row :func:`_first_bad_row` picked."""
  if not np.isfinite(values).all():
    return "a value that is not finite"
  if (values < 0).any():
    return "a negative value"
  if (values[~legal] != 0).any():
    return "probability on an illegal action"
  return "legal-action probabilities that do not sum to 1"
