"""The regret-minimisation core the CFR family shares (SPEC 3.1).

One iteration, for each player i in turn (alternating updates, the default,
as in OpenSpiel) or for all players on the same profile (simultaneous):

  v_i(I, a)  = sum_{h in I} x_{-i}(h) u_i(h.a)            (engine pass)
  r(I, a)    = v_i(I, a) - sum_b sigma(I, b) v_i(I, b)     instantaneous regret
  R          <- regret_rule.finish(R + r, t)               CFR: R + r
  S(I, a)    += average_weight(t) * x_i(I) * sigma(I, a)   average numerator
  sigma(I)   <- strategy_rule(R(I), t)                    CFR: regret matching

A variant is a choice of three small rule objects; CFR, CFR+, DCFR and
Pref-CFR differ only there. The traversal is the engine's
(:meth:`GameTree.player_counterfactual_values`).
"""

from __future__ import annotations

import numba
import numpy as np

from spiel_ext.algorithms.base import Solver, check_real

_jit = numba.njit(cache=True, nogil=True)


# ------------------------------------------------------------------ kernels
@_jit
def absorb_iteration(cfv, policy, legal, own_reach, average_weight,
                     cumulative_regret, cumulative_policy):
  """R(I, a) += v(I, a) - sum_b sigma(I, b) v(I, b) on legal actions and
  S(I, a) += average_weight * x_i(I) * sigma(I, a)."""
  for row in range(cfv.shape[0]):
    infoset_value = 0.0
    for a in range(cfv.shape[1]):
      infoset_value += policy[row, a] * cfv[row, a]
    scale = average_weight * own_reach[row]
    for a in range(cfv.shape[1]):
      if legal[row, a]:
        cumulative_regret[row, a] += cfv[row, a] - infoset_value
        cumulative_policy[row, a] += scale * policy[row, a]


@_jit
def regret_matching(cumulative_regret, legal, out):
  """sigma proportional to R+, uniform over legal actions when no R > 0.

  The rule of OpenSpiel's ``cfr._regret_matching``.
  """
  for row in range(cumulative_regret.shape[0]):
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
def discount_regrets(cumulative_regret, positive_factor, negative_factor):
  for row in range(cumulative_regret.shape[0]):
    for a in range(cumulative_regret.shape[1]):
      if cumulative_regret[row, a] >= 0.0:
        cumulative_regret[row, a] *= positive_factor
      else:
        cumulative_regret[row, a] *= negative_factor


# ------------------------------------------------------------ regret rules
# Each rule finishes R <- R + r (done by absorb_iteration) in place.
class PlainRegrets:
  """CFR: R <- R + r."""

  def finish(self, cumulative_regret, t):
    del cumulative_regret, t


class PlusRegrets:
  """CFR+ (regret matching+): R <- max(R + r, 0)."""

  def finish(self, cumulative_regret, t):
    del t
    np.maximum(cumulative_regret, 0.0, out=cumulative_regret)


class DiscountedRegrets:
  """DCFR (Brown & Sandholm 2019): R <- R + r, then positive entries times
  t^alpha / (t^alpha + 1) and negative ones times t^beta / (t^beta + 1)."""

  def __init__(self, alpha: float, beta: float):
    self.alpha = alpha
    self.beta = beta

  def finish(self, cumulative_regret, t):
    positive = t**self.alpha / (t**self.alpha + 1)
    negative = t**self.beta / (t**self.beta + 1)
    discount_regrets(cumulative_regret, positive, negative)


# --------------------------------------------------------- averaging rules
class PowerAveraging:
  """Average weight t^gamma: 0 is CFR's plain average, 1 linear (CFR+),
  2 DCFR's default."""

  def __init__(self, gamma: float):
    self.gamma = gamma

  def weight(self, t: int) -> float:
    return 1.0 if self.gamma == 0 else float(t)**self.gamma


# ---------------------------------------------------------- strategy rules
class RegretMatching:
  """sigma(I, a) = R+(I, a) / sum_b R+(I, b); uniform when no R > 0."""

  def strategy(self, cumulative_regret, legal, t, rows, out):
    del t, rows
    regret_matching(cumulative_regret, legal, out)


# --------------------------------------------------------------- the core
class RegretMinimizationSolver(Solver):
  """Counterfactual regret minimisation with pluggable rules.

  Use the named solvers (CFRSolver, CFRPlusSolver, DCFRSolver,
  PrefCFRSolver); this class is their shared engine-facing loop.
  """

  _STATE_ARRAYS = ("cumulative_regret", "cumulative_policy", "_current")

  def __init__(self, game, *, regret_rule, averaging, strategy_rule,
               alternating_updates: bool = True, random_init: bool = False,
               seed: int | None = 0, **hyperparameters):
    super().__init__(game, seed=seed, alternating_updates=alternating_updates,
                     random_init=random_init, **hyperparameters)
    if not isinstance(alternating_updates, bool):
      raise ValueError("alternating_updates must be True or False; got "
                       f"{alternating_updates!r}.")
    self._regret_rule = regret_rule
    self._averaging = averaging
    self._strategy_rule = strategy_rule
    self._alternating = alternating_updates
    tree = self._tree
    shape = (tree.num_infosets, tree.num_distinct_actions)
    self._legal = tree.infoset_legal
    self.cumulative_regret = np.zeros(shape)
    self.cumulative_policy = np.zeros(shape)
    self._current = tree.uniform_policy()
    if random_init:
      # Seed 003's Kuhn runs start from U(0, 1) cumulative regrets and
      # cumulative policies.
      self.cumulative_regret = self._rng.random(shape) * self._legal
      self.cumulative_policy = self._rng.random(shape) * self._legal
      for rows in tree.player_rows:
        self._update_strategy(rows, 1)

  # ------------------------------------------------------------ iteration
  def _run_iteration(self) -> None:
    t = self._iteration
    tree = self._tree
    if self._alternating:
      for player in range(tree.num_players):
        self._update_player(
            player, tree.player_counterfactual_values(self._current, player), t)
    else:
      passes = [tree.player_counterfactual_values(self._current, player)
                for player in range(tree.num_players)]
      for player, player_pass in enumerate(passes):
        self._update_player(player, player_pass, t)

  def _update_player(self, player, player_pass, t) -> None:
    rows = self._tree.player_rows[player]
    absorb_iteration(player_pass.cfv, self._current[rows], self._legal[rows],
                     player_pass.own_reach,
                     self._averaging.weight(t), self.cumulative_regret[rows],
                     self.cumulative_policy[rows])
    self._regret_rule.finish(self.cumulative_regret[rows], t)
    self._update_strategy(rows, t)

  def _update_strategy(self, rows: slice, t: int) -> None:
    out = np.empty_like(self._current[rows])
    self._strategy_rule.strategy(self.cumulative_regret[rows],
                                 self._legal[rows], t, rows, out)
    self._current[rows] = out

  # -------------------------------------------------------------- outputs
  def current_strategy(self) -> np.ndarray:
    return self._current.copy()

  def average_strategy(self) -> np.ndarray:
    """Normalised cumulative policy; uniform where nothing was accumulated."""
    totals = self.cumulative_policy.sum(axis=1, keepdims=True)
    uniform = self._tree.uniform_policy()
    with np.errstate(invalid="ignore", divide="ignore"):
      average = self.cumulative_policy / totals
    return np.where(totals > 0, average, uniform)


def check_dcfr_parameters(alpha, beta, gamma) -> tuple[float, float, float]:
  return (check_real("alpha", alpha), check_real("beta", beta),
          check_real("gamma", gamma))
