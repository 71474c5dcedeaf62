"""The step rules of the fictitious-play family: how the decision rule's
profile b_t is mixed into sigma_t (see :mod:`spiel_ext.algorithms.fp_rules`,
which holds the decision rules and the interfaces, and re-exports these).

With alpha = 1/(t+1):
  EmpiricalStep     sigma_{t+1}(I) = (t sigma_t(I) + b_t(I)) / (t+1) at every
                    infoset (Tim P. Schulze, "A Generalized Extensive-Form
                    Fictitious Play Algorithm", 2023, arXiv:2310.09658,
                    eq. 3; BUFP(EF): Qi Ju, Zhemei Fang, Yunfeng Luo,
                    "Beyond Nash Equilibrium: Achieving Bayesian Perfect
                    Equilibrium with Belief Update Fictitious Play", DDCLS
                    2024, arXiv:2409.02706, eq. 13; Hendon, Jacobsen,
                    Sloth's stepsize).
  CountingStep      the same, with exact integer counts of best decisions
                    (its own array ``decision_counts``).
  RealizationStep   sigma_{t+1}(I,a) = sigma_t + alpha x_b(I) (b - sigma_t) /
                    ((1-alpha) x_sigma(I) + alpha x_b(I))  (XFP: Johannes
                    Heinrich, Marc Lanctot, David Silver, "Fictitious
                    Self-Play in Extensive-Form Games", ICML 2015,
                    Algorithm 1; BUFP(X)), x = the player's own realization
                    weight; optionally renormalised each iteration (Schulze
                    2023, eq. 18).
A step returns the player's new rows of sigma; the solver writes them.
"""

from __future__ import annotations

import dataclasses
import math
import weakref
from typing import TYPE_CHECKING

import numba
import numpy as np

from spiel_ext.algorithms.checks import check_bool
from spiel_ext.algorithms.protocol import plain_data
from spiel_ext.engine import GameTree, passes
from spiel_ext.policy import mix_in

if TYPE_CHECKING:
  from spiel_ext.algorithms.fp_rules import FPContext

_jit = numba.njit(cache=True, nogil=True)


# ----------------------------------------------------------------- kernels

@_jit
def realization_step(current: np.ndarray, mixed: np.ndarray,
                     legal: np.ndarray, x_sigma: np.ndarray,
                     x_best: np.ndarray, alpha: float, renormalize: bool,
                     out: np.ndarray) -> None:
  """XFP's update of one player's rows, written to ``out``.

  sigma(I, a) + alpha x_b(I) (b(I, a) - sigma(I, a)) /
                ((1 - alpha) x_sigma(I) + alpha x_b(I)),
  sigma unchanged where the denominator is 0; with ``renormalize`` each row
  is clipped at 0 and rescaled to sum to 1 (Schulze 2023, eq. 18).

  Args:
    current: sigma on the player's rows, [rows, actions].
    mixed: b (eps-mixed), [rows, actions].
    legal: [rows, actions], True where an action is legal.
    x_sigma: [rows] the player's own reach of each infoset under sigma.
    x_best: [rows] the same with b in place of the player's sigma.
    alpha: the step, 1/(t+1).
    renormalize: True to clip and rescale each updated row.
    out: [rows, actions], written: the new rows.
  """
  for row in range(current.shape[0]):
    for a in range(current.shape[1]):
      out[row, a] = current[row, a]
    denominator = (1.0 - alpha) * x_sigma[row] + alpha * x_best[row]
    if denominator <= 0.0:
      continue
    scale = alpha * x_best[row] / denominator
    total = 0.0
    for a in range(current.shape[1]):
      if legal[row, a]:
        out[row, a] += scale * (mixed[row, a] - out[row, a])
        if renormalize and out[row, a] < 0.0:
          out[row, a] = 0.0
        total += out[row, a]
    if renormalize and total > 0.0:
      for a in range(current.shape[1]):
        out[row, a] /= total


# ---------------------------------------------------------------- steps
@plain_data
@dataclasses.dataclass(frozen=True)
class EmpiricalStep:
  """sigma_{t+1} = (t sigma_t + b_t) / (t + 1) at every infoset (b_t
  eps-mixed)."""

  def step(self, profile: np.ndarray, context: FPContext) -> np.ndarray:
    """(t sigma_t + b_t) / (t + 1) on the player's rows, b_t eps-mixed.

    Args:
      profile: b_t, as for
        :meth:`~spiel_ext.algorithms.fp_rules.StepRule.step`.
      context: the player's :class:`FPContext`.

    Returns:
      sigma_{t+1} on the player's rows, a new [player rows, actions] array.
    """
    mixed = mix_in(profile, context.legal, context.min_action_prob)
    t = context.t
    return (t * context.strategy[context.rows] + mixed) / (t + 1)


# lcm(1..max |A|) of each tree a CountingStep has run on (computed once).
_COUNT_UNITS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def count_unit(tree: GameTree) -> int:
  """L = lcm(1..max |A|): :class:`CountingStep` keeps its counts in units of
  1/L, so that an even split over any k <= max |A| actions is exact.

  Args:
    tree: the compiled game.

  Returns:
    L, an int (computed once per tree).
  """
  unit = _COUNT_UNITS.get(tree)
  if unit is None:
    unit = math.lcm(*range(1, int(tree.infoset_num_actions.max()) + 1))
    _COUNT_UNITS[tree] = unit
  return unit


@plain_data
@dataclasses.dataclass(frozen=True)
class CountingStep:
  """The empirical step with exact integer counts of best decisions.

  sigma_{T+1} = (sigma_1 + sum_t b_t) / (T + 1) with sum_t b_t held in
  int64 units of 1/L, L = lcm(1..max |A|) (an even split over k maximisers
  adds L/k), so the average carries no round-off between iterations. The
  counts are this rule's own array, ``decision_counts`` (saved with the
  solver's state).
  """

  def initial_state(self, tree: GameTree) -> dict[str, np.ndarray]:
    """{"decision_counts": zeros}: the counts, [infosets, actions] int64.

    Args:
      tree: the solver's compiled game.

    Returns:
      {"decision_counts": a new int64 array of zeros}.
    """
    return {"decision_counts": np.zeros(tree.infoset_legal.shape,
                                        dtype=np.int64)}

  def step(self, profile: np.ndarray, context: FPContext) -> np.ndarray:
    """Adds b_t to the counts; (sigma_1 + counts) / (t + 1) on the player's
    rows (the counts eps-mixed).

    Args:
      profile: b_t, as for
        :meth:`~spiel_ext.algorithms.fp_rules.StepRule.step` (a multiple of
        1/L at every entry: a one-hot row or an even split).
      context: the player's :class:`FPContext`; its ``state`` holds the
        counts, updated in place.

    Returns:
      sigma_{t+1} on the player's rows, a new [player rows, actions] array.

    Raises:
      OverflowError: t L would overflow the int64 counts.
    """
    tree, t = context.tree, context.t
    unit = count_unit(tree)
    # A row's counts sum to t L after iteration t: refuse before int64 wraps
    # (L = 2520 for |A| <= 10 allows 3.6e15 iterations, but L grows fast:
    # |A| = 40 allows only about 1,700).
    if t * unit > np.iinfo(np.int64).max:
      raise OverflowError(
          f"integer_counting: iteration {t} would overflow the int64 counts "
          f"of best decisions (kept in units of 1/{unit}, lcm(1..max "
          "|A|)); use integer_counting=False for runs this long on "
          f"{tree.game_string}.")
    counts = context.state["decision_counts"]
    counts += np.rint(profile * unit).astype(np.int64)
    legal = context.legal
    eps = context.min_action_prob
    mixed_counts = counts / unit
    if eps:
      num_actions = legal.sum(axis=1, keepdims=True)
      mixed_counts = t * eps * legal + (1.0 - num_actions * eps) * mixed_counts
    return (context.initial_sigma[context.rows] + mixed_counts) / (t + 1)


@plain_data
@dataclasses.dataclass(frozen=True)
class RealizationStep:
  """XFP's realization-weighted step (Heinrich et al. 2015, Algorithm 1);
  with ``renormalize`` each updated row is clipped at 0 and rescaled to sum
  to 1 (Schulze 2023, eq. 18).

  Attributes:
    renormalize: False (default) or True.
  """

  renormalize: bool = False

  def __post_init__(self) -> None:
    object.__setattr__(self, "renormalize",
                       check_bool("renormalize", self.renormalize))

  def step(self, profile: np.ndarray, context: FPContext) -> np.ndarray:
    """XFP's realization-weighted step on the player's rows (see the class
    docstring), b_t eps-mixed.

    Args:
      profile: b_t, as for
        :meth:`~spiel_ext.algorithms.fp_rules.StepRule.step`.
      context: the player's :class:`FPContext` (sigma_t is its
        ``strategy``).

    Returns:
      sigma_{t+1} on the player's rows, a new [player rows, actions] array
      (clipped and rescaled with ``renormalize``).
    """
    rows, legal, sigma = context.rows, context.legal, context.strategy
    own_sequence = context.tree.own_sequence
    mixed = mix_in(profile, legal, context.min_action_prob)
    x_sigma = passes.own_reach_of_infosets(own_sequence, sigma, rows.start,
                                           rows.stop)
    best_profile = sigma.copy()
    best_profile[rows] = mixed
    x_best = passes.own_reach_of_infosets(own_sequence, best_profile,
                                          rows.start, rows.stop)
    updated = np.empty_like(mixed)
    realization_step(sigma[rows], mixed, legal, x_sigma, x_best,
                     1.0 / (context.t + 1), self.renormalize, updated)
    return updated
