"""The regret-minimisation core the CFR family shares.

One iteration, for each player i in turn (alternating updates, the default,
as in OpenSpiel) or for all players on the same profile (simultaneous):

  v_i(I, a)  = sum_{h in I} x_{-i}(h) u_i(h.a)            (engine pass)
  r(I, a)    = v_i(I, a) - sum_b sigma(I, b) v_i(I, b)     instantaneous regret
  R          <- regret_rule.finish(R + r, t)               CFR: R + r
  S(I, a)    += averaging.weight(t) * x_i(I) * sigma(I, a) average numerator
  sigma(I)   <- strategy_rule(R(I), t)                    CFR: regret matching

A variant is a choice of the three rules of
:mod:`spiel_ext.algorithms.regret_rules`; CFR, CFR+, DCFR and Pref-CFR
differ only there. The traversal is the engine's
(:meth:`GameTree.player_counterfactual_values`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from spiel_ext.algorithms.base import Solver
from spiel_ext.algorithms.checks import (check_bool, check_hyperparameters,
                                         check_methods, check_real)
from spiel_ext.algorithms.regret_rules import (AveragingRule, RegretRule,
                                               StrategyRule, absorb_iteration)
from spiel_ext.engine import PlayerPass


# The largest init_scale: a start worth more than a million iterations of
# regret is a typo, not an experiment.
MAX_INIT_SCALE = 1e6


class RegretMinimizationSolver(Solver):
  """Counterfactual regret minimisation with pluggable rules.

  Use the named solvers (CFRSolver, CFRPlusSolver, DCFRSolver,
  PrefCFRSolver); this class is their shared engine-facing loop.

  Args:
    game: a pyspiel game, game string or compiled GameTree.
    regret_rule: how R + r is finished (:class:`RegretRule`).
    averaging: the average's weights (:class:`AveragingRule`).
    strategy_rule: the next strategy from R (:class:`StrategyRule`).
    alternating_updates: update players in turn (True) or at once.
    random_init: start from U(0, init_scale) cumulative regrets and
      cumulative policies drawn with ``seed`` (the Pref-CFR paper's random
      starts) instead of zeros.
    init_scale: the upper end of the random start, in (0, 1e6] (default 1,
      the Pref-CFR authors' U(0, 1)). A start of scale s is worth about
      s / (max utility - min utility) iterations of regret; scale 1 on a
      game whose payoffs are ~1/N outweighs ~N iterations.
    seed: int in 0..2**63 - 1 or None.
    hyperparameters: the public constructor's other arguments, in order (a
      dict, or None).

  Raises:
    TypeError: a rule without its method, a bool option that is not a bool,
      ``seed`` not an int or ``hyperparameters`` not a dict.
    ValueError: ``seed`` outside 0..2**63 - 1 or a game the engine cannot
      compile.

  Attributes:
    cumulative_regret: R, [infosets, actions].
    cumulative_policy: the average's numerator S, [infosets, actions]; for
      weights beyond 2^500 kept in units of an exact power of 2.
  """

  _STATE_ARRAYS = ("cumulative_regret", "cumulative_policy", "_current")
  _CURRENT_ARRAY = "_current"

  def __init__(self, game, *, regret_rule: RegretRule,
               averaging: AveragingRule, strategy_rule: StrategyRule,
               alternating_updates: bool = True, random_init: bool = False,
               init_scale: float = 1.0, seed: int | None = 0,
               hyperparameters: dict[str, Any] | None = None):
    random_init = check_bool("random_init", random_init)
    init_scale = check_real("init_scale", init_scale, 0.0, MAX_INIT_SCALE,
                            low_inclusive=False)
    check_methods("regret_rule", regret_rule, ("finish",), "RegretRule")
    check_methods("averaging", averaging, ("weight", "scale_exponent"),
                  "AveragingRule")
    check_methods("strategy_rule", strategy_rule, ("strategy",),
                  "StrategyRule")
    hyperparameters = check_hyperparameters(hyperparameters)
    if "random_init" in hyperparameters:
      hyperparameters["random_init"] = random_init
    if "init_scale" in hyperparameters:
      hyperparameters["init_scale"] = init_scale
    super().__init__(game, alternating_updates=alternating_updates,
                     seed=seed, hyperparameters=hyperparameters)
    self._regret_rule = regret_rule
    self._averaging = averaging
    self._strategy_rule = strategy_rule
    tree = self._tree
    shape = (tree.num_infosets, tree.num_distinct_actions)
    self._legal = tree.infoset_legal
    self.cumulative_regret = np.zeros(shape)
    self.cumulative_policy = np.zeros(shape)
    self._current = tree.uniform_policy()
    self._model: tuple[np.ndarray | None, np.ndarray | None] = (None, None)
    if random_init:
      self.cumulative_regret[...] = (init_scale * self._rng.random(shape) *
                                     self._legal)
      self.cumulative_policy[...] = (init_scale * self._rng.random(shape) *
                                     self._legal)
      for rows in tree.player_rows:
        self._update_strategy(rows, 1)

  # ------------------------------------------------------- player updates
  def set_model(self, chance_prob: np.ndarray | None = None,
                utility: np.ndarray | None = None) -> None:
    """The game the next iterations run on, on the same compiled tree: its
    own (None, the default) or modelled chance probabilities [histories]
    and utilities [histories, players] (not necessarily zero-sum), as the
    unknown-environment learners swap a posterior draw or mean in each
    iteration. Both are checked here, once, and made read-only
    (:meth:`GameTree.check_model`).

    Raises:
      ValueError: ``chance_prob`` is not a distribution at some chance
        node, or ``utility`` is not finite or not 0 away from terminals.
    """
    self._model = self._tree.check_model(chance_prob, utility)

  def _compute_update(self, player: int) -> PlayerPass:
    chance_prob, utility = self._model
    return self._tree.player_counterfactual_values(
        self._current, player, chance_prob, utility)

  def _apply_update(self, player: int, update: PlayerPass, t: int) -> None:
    rows = self._tree.player_rows[player]
    cumulative_policy = self.cumulative_policy[rows]
    shift = (self._averaging.scale_exponent(t - 1) -
             self._averaging.scale_exponent(t))
    if shift:
      np.ldexp(cumulative_policy, shift, out=cumulative_policy)
    absorb_iteration(update.cfv, self._current[rows], self._legal[rows],
                     update.own_reach, self._averaging.weight(t),
                     self.cumulative_regret[rows], cumulative_policy)
    self._regret_rule.finish(self.cumulative_regret[rows], t)
    self._update_strategy(rows, t)

  def _update_strategy(self, rows: slice, t: int) -> None:
    out = np.empty_like(self._current[rows])
    self._strategy_rule.strategy(self.cumulative_regret[rows],
                                 self._legal[rows], t, rows, out)
    self._current[rows] = out

  # -------------------------------------------------------------- outputs
  def average_strategy(self) -> np.ndarray:
    """Normalised cumulative policy; uniform where nothing was accumulated.

    Raises:
      RuntimeError: the cumulative policy holds NaN or infinite entries
        (never the case for the solvers' own updates).
    """
    totals = self.cumulative_policy.sum(axis=1, keepdims=True)
    if not np.isfinite(totals).all():
      row = int(np.flatnonzero(~np.isfinite(totals[:, 0]))[0])
      raise RuntimeError(
          f"{type(self).__name__}.cumulative_policy holds non-finite values "
          f"at infoset {self._tree.infoset_keys[row]!r} after iteration "
          f"{self._iteration}: {self.cumulative_policy[row].tolist()}.")
    empty = totals == 0.0
    with np.errstate(invalid="ignore", divide="ignore"):
      average = self.cumulative_policy / totals
    if empty.any():
      return np.where(empty, self._tree.uniform_policy(), average)
    return average
