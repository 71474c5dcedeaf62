"""The regret-minimisation core the CFR family shares.

Counterfactual regret minimisation (Martin Zinkevich, Michael Johanson,
Michael Bowling, Carmelo Piccione, "Regret Minimization in Games with
Incomplete Information", NeurIPS 2007, section 3: counterfactual regrets
and regret matching). One iteration, for each player i in turn
(alternating updates, the default, as in OpenSpiel) or for all players on
the same profile (simultaneous):

  v_i(I, a)  = sum_{h in I} x_{-i}(h) u_i(h.a)            (engine pass)
  r(I, a)    = v_i(I, a) - sum_b sigma(I, b) v_i(I, b)     instantaneous regret
  S(I, a)    += averaging.weight(t) * x_i(I) * sigma(I, a) average numerator
  R          <- regret_rule.update(R, context)             CFR: R + r
  sigma(I)   <- strategy_rule.strategy(R, context)         CFR: regret matching

A variant is a choice of the three rules of
:mod:`spiel_ext.algorithms.regret_rules`; CFR, CFR+, DCFR, DCFR+, PCFR+,
PDCFR+ and Pref-CFR differ only there, and each variant's config says which
rules it uses (its ``rules()`` method; :class:`RegretMinimizationConfig`
takes them as fields). The rules see an
:class:`~spiel_ext.algorithms.regret_rules.UpdateContext` and may keep
arrays of their own (``initial_state``), which the solver checkpoints. The
traversal is the engine's (:meth:`GameTree.player_counterfactual_values`).
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

import numpy as np

from spiel_ext.algorithms.base import Solver, SolverConfig, set_field
from spiel_ext.algorithms.checks import (check_bool, check_methods,
                                         check_real, check_seed)
from spiel_ext.algorithms.regret_kernels import fused_update, fuses
from spiel_ext.algorithms.regret_rules import (AveragingRule, PlainRegrets,
                                               PowerAveraging, RegretMatching,
                                               RegretRule, StrategyRule,
                                               UpdateContext,
                                               absorb_iteration)
from spiel_ext.engine import GameView, PlayerPass


# The largest init_scale: a start worth more than a million iterations of
# regret is a typo, not an experiment.
MAX_INIT_SCALE = 1e6


# The fields every regret minimiser's config has, documented once (each
# config's docstring includes this text).
REGRET_OPTIONS_DOC = """
    alternating_updates: True (OpenSpiel's CFR) to update players in turn,
      each against the strategies the previous update left; False to
      update all players from the same profile.
    random_init: False (OpenSpiel's start: zero regrets, uniform strategy)
      or True to start from cumulative regrets and cumulative policies
      drawn from U(0, init_scale) with ``seed`` (the Pref-CFR paper's
      random starts).
    init_scale: the random start's upper end, in (0, 1e6] (default 1, the
      Pref-CFR authors' U(0, 1)). A start of scale s is worth about
      s / (max utility - min utility) iterations of regret; scale 1 on a
      game whose payoffs are ~1/N outweighs ~N iterations.
    seed: an int in 0..2**63 - 1 (default 0) or None (fresh entropy),
      seeding the solver's generator (``random_init``, sampling)."""


def check_regret_options(config: Any) -> None:
  """Checks and normalises, in place, the fields every regret minimiser's
  config has (``alternating_updates``, ``random_init``, ``init_scale``,
  ``seed``).

  Args:
    config: a frozen config with those four fields (set with
      :func:`~spiel_ext.algorithms.base.set_field`).

  Raises:
    TypeError: a bool option that is not a bool, or ``seed`` not an int.
    ValueError: ``init_scale`` outside (0, 1e6] or ``seed`` outside
      0..2**63 - 1.
  """
  set_field(config, "alternating_updates",
            check_bool("alternating_updates", config.alternating_updates))
  set_field(config, "random_init",
            check_bool("random_init", config.random_init))
  set_field(config, "init_scale",
            check_real("init_scale", config.init_scale, 0.0, MAX_INIT_SCALE,
                       low_inclusive=False))
  set_field(config, "seed", check_seed(config.seed))


@dataclasses.dataclass(frozen=True, eq=False)
class RegretMinimizationConfig(SolverConfig):
  __doc__ = f"""Regret minimisation with any three rules (default: CFR's).

  Attributes:
    regret_rule: how R is updated with r (a :class:`RegretRule`, e.g.
      ``PlainRegrets()``, ``PlusRegrets()``, ``DiscountedRegrets(1.5, 0)``).
    averaging: the average's weights (an :class:`AveragingRule`, e.g.
      ``PowerAveraging(0.0)``).
    strategy_rule: the next strategy from R (a :class:`StrategyRule`, e.g.
      ``RegretMatching()``).{REGRET_OPTIONS_DOC}

  A rule of :mod:`~spiel_ext.algorithms.regret_rules` checkpoints as plain
  data; a rule of another class works, but ``state_dict()`` needs it
  registered with :func:`spiel_ext.algorithms.protocol.plain_data`.
  """

  regret_rule: RegretRule = PlainRegrets()
  averaging: AveragingRule = PowerAveraging(0.0)
  strategy_rule: StrategyRule = RegretMatching()
  alternating_updates: bool = True
  random_init: bool = False
  init_scale: float = 1.0
  seed: int | None = 0

  def __post_init__(self) -> None:
    check_methods("regret_rule", self.regret_rule, ("update",), "RegretRule")
    check_methods("averaging", self.averaging, ("weight", "scale_exponent"),
                  "AveragingRule")
    check_methods("strategy_rule", self.strategy_rule, ("strategy",),
                  "StrategyRule")
    check_regret_options(self)

  def rules(self) -> tuple[RegretRule, AveragingRule, StrategyRule]:
    """(regret rule, averaging rule, strategy rule).

    Returns:
      The config's ``regret_rule``, ``averaging`` and ``strategy_rule``.
    """
    return self.regret_rule, self.averaging, self.strategy_rule


class RegretMinimizationSolver(Solver):
  """Counterfactual regret minimisation with pluggable rules.

  Use the named solvers (CFRSolver, CFRPlusSolver, DCFRSolver,
  PrefCFRSolver); this class is their shared engine-facing loop, and runs
  any rules its config (:class:`RegretMinimizationConfig`) names. A
  subclass's config says which rules it uses (its ``rules()``), or the
  subclass overrides :meth:`_make_rules`.

  Args:
    game: a pyspiel game, game string or compiled GameTree.
    config: a ``type(self).Config`` (default: its defaults).
    shortcuts: the config's fields as keywords.

  Raises:
    TypeError: a rule without its method, a bool option that is not a bool,
      or ``seed`` not an int.
    ValueError: ``init_scale`` outside (0, 1e6], ``seed`` outside
      0..2**63 - 1 or a game the engine cannot compile.

  Attributes:
    cumulative_regret: R, [infosets, actions].
    cumulative_policy: the average's numerator S, [infosets, actions]; for
      weights beyond 2^500 kept in units of an exact power of 2.
  """

  Config: ClassVar[type[SolverConfig]] = RegretMinimizationConfig
  _STATE_ARRAYS = ("cumulative_regret", "cumulative_policy", "_current")
  _CURRENT_ARRAY = "_current"

  def _build(self) -> None:
    config = self._config
    rules = self._make_rules()
    self._regret_rule, self._averaging, self._strategy_rule = rules
    self._adopt_rule_state(rules)
    tree = self._tree
    shape = (tree.num_infosets, tree.num_distinct_actions)
    self._legal = tree.infoset_legal
    self.cumulative_regret = np.zeros(shape)
    self.cumulative_policy = np.zeros(shape)
    self._current = tree.uniform_policy()
    self._view = tree.view()  # The game the iterations run on.
    if config.random_init:
      self.cumulative_regret[...] = (config.init_scale *
                                     self._rng.random(shape) * self._legal)
      self.cumulative_policy[...] = (config.init_scale *
                                     self._rng.random(shape) * self._legal)
      for player in range(tree.num_players):
        self._update_strategy(self._context(player, 1))

  def _make_rules(self) -> tuple[RegretRule, AveragingRule, StrategyRule]:
    """The (regret, averaging, strategy) rules this solver runs."""
    return self._config.rules()

  # ------------------------------------------------------- player updates
  def set_view(self, view: GameView) -> None:
    """The game the next iterations run on: a view of the solver's tree,
    ``tree.view()`` (the default) or ``tree.with_model(chance_prob,
    utility)`` with modelled chance probabilities and utilities (not
    necessarily zero-sum), as the unknown-environment learners swap a
    posterior draw or mean in each iteration.

    Args:
      view: a GameView of this solver's tree.

    Raises:
      ValueError: ``view`` is not a view of this solver's tree.
    """
    if not isinstance(view, GameView) or view.tree is not self._tree:
      raise ValueError(f"view must be a GameView of this solver's tree "
                       f"({self._tree.game_string}); got {view!r}.")
    self._view = view

  def set_model(self, chance_prob: np.ndarray | None = None,
                utility: np.ndarray | None = None) -> None:
    """``set_view(tree.with_model(chance_prob, utility))``: None keeps the
    compiled game's array; the arrays are checked once, here.

    Args:
      chance_prob: [num_histories] chance edge probabilities, or None for
        the compiled game's.
      utility: [num_histories, num_players] payoffs (0 away from
        terminals), or None for the compiled game's.

    Raises:
      ValueError: an array of the wrong shape, ``chance_prob`` is not a
        distribution at some chance node, or ``utility`` is not finite or
        not 0 away from terminals.
    """
    self.set_view(self._tree.with_model(chance_prob, utility))

  def _compute_update(self, player: int) -> PlayerPass:
    return self._view.player_counterfactual_values(self._current, player)

  def _context(self, player: int, t: int,
               update: PlayerPass | None = None,
               instant_regret: np.ndarray | None = None) -> UpdateContext:
    """The rules' view of ``player``'s update at iteration t (without an
    update: the context of a strategy asked for before any)."""
    rows = self._tree.player_rows[player]
    state = {name: array[rows] for name, array in self._rule_state.items()}
    if update is None:
      return UpdateContext(t, player, rows, self._legal[rows],
                           self._current[rows], state=state)
    return UpdateContext(t, player, rows, self._legal[rows],
                         self._current[rows], instant_regret, update.cfv,
                         update.own_reach, update.others_reach, state)

  def _apply_update(self, player: int, update: PlayerPass, t: int) -> None:
    rows = self._tree.player_rows[player]
    cumulative_policy = self.cumulative_policy[rows]
    shift = (self._averaging.scale_exponent(t - 1) -
             self._averaging.scale_exponent(t))
    if shift:
      np.ldexp(cumulative_policy, shift, out=cumulative_policy)
    if fuses(self._regret_rule, self._strategy_rule):
      fused_update(self._regret_rule, update.cfv, self._current[rows],
                   self._legal[rows], update.own_reach,
                   self._averaging.weight(t), self.cumulative_regret[rows],
                   cumulative_policy)
      return
    instant_regret = np.empty_like(update.cfv)
    absorb_iteration(update.cfv, self._current[rows], self._legal[rows],
                     update.own_reach, self._averaging.weight(t),
                     instant_regret, cumulative_policy)
    context = self._context(player, t, update, instant_regret)
    self._regret_rule.update(self.cumulative_regret[rows], context)
    self._update_strategy(context)

  def _update_strategy(self, context: UpdateContext) -> None:
    out = np.empty_like(context.current)
    self._strategy_rule.strategy(self.cumulative_regret[context.rows],
                                 context, out)
    self._current[context.rows] = out

  # -------------------------------------------------------------- outputs
  def average_strategy(self) -> np.ndarray:
    """Normalised cumulative policy; uniform where nothing was accumulated.

    Returns:
      A new [num_infosets, num_distinct_actions] array.

    Raises:
      RuntimeError: the cumulative policy holds NaN or infinite entries
        (never the case for the solvers' own updates).
    """
    return self._normalised_average(self.cumulative_policy)
