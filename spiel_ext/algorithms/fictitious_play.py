"""The fictitious-play family: XFP, GXFP, BUFP(EF), BUFP(X).

- :class:`XFPSolver`: full-width extensive-form fictitious play, Johannes
  Heinrich, Marc Lanctot, David Silver, "Fictitious Self-Play in
  Extensive-Form Games", ICML 2015, Algorithm 1; matches OpenSpiel's
  ``fictitious_play.XFPSolver`` iterate for iterate. Options from Tim P.
  Schulze, "A Generalized Extensive-Form Fictitious Play Algorithm", 2023,
  arXiv:2310.09658: renormalisation (eq. 18) and perturbed play (eq. 24).
- :class:`GXFPSolver`: Schulze's generalized XFP (eqs. 3-4).
- :class:`BUFPSolver`: Qi Ju, Zhemei Fang, Yunfeng Luo, "Beyond Nash
  Equilibrium: Achieving Bayesian Perfect Equilibrium with Belief Update
  Fictitious Play", DDCLS 2024, arXiv:2409.02706, section 4: BUFP(EF)
  (eq. 13) and BUFP(X).

One core, two small parts: what is mixed in each iteration (a decision
rule) and how it is mixed (a step rule), each a small value object of
:mod:`spiel_ext.algorithms.fp_rules` (``BestDecision(even_split=False)``,
``RealizationStep(renormalize=True)``, or one of your own).
:class:`FictitiousPlayConfig` takes the pair (any decision rule with any
step rule); the named variants' configs (:class:`XFPConfig`,
:class:`GXFPConfig`, :class:`BUFPConfig`) hold their papers' options and
say which pair they run, in one place each (their ``rules()``). The
average strategy sigma_t is the solver's policy: ``current_policy()``
returns it as the same TabularPolicy on every call (updated in place),
``average_policy()`` as a fresh one. Swap the import and nothing else::

    from spiel_ext.algorithms import fictitious_play   # was OpenSpiel's
    xfp_solver = fictitious_play.XFPSolver(game)
    for i in range(100):
      xfp_solver.iteration()
    policy = xfp_solver.average_policy()
"""

from __future__ import annotations

import types
from collections.abc import Mapping
from typing import Any, ClassVar, NoReturn

import numpy as np
import pyspiel

from spiel_ext.algorithms.base import Solver, SolverConfig
# The configs and the names they accept, and the rules, importable from
# here as before the configs had their own module.
from spiel_ext.algorithms.fp_configs import (  # pylint: disable=unused-import
    DECISIONS, INITIAL_POLICIES, STEPS, STEPSIZES, TIE_RULES, BUFPConfig,
    FictitiousPlayConfig, GXFPConfig, XFPConfig)
from spiel_ext.algorithms.fp_rules import (  # pylint: disable=unused-import
    CONTINUATIONS, BeliefDecision, BestDecision, CountingStep, DecisionRule,
    EmpiricalStep, FPContext, FullBestResponse, RealizationStep, StepRule)
from spiel_ext.algorithms.protocol import config_from_plain, config_to_plain
from spiel_ext.engine import GameTree
from spiel_ext.policy import (PolicyLike, as_strategy, mix_in,
                              check_min_action_prob)

_ARGS = """
    config: the solver's ``Config`` (default: its defaults), which
      documents every hyperparameter.
    shortcuts: the config's fields as keywords (``initial_policy="random"``,
      ``seed=3``)."""

_RAISES = """
  Raises:
    TypeError: a bool option that is not a bool, ``seed`` not an int, a
      rule object without its method, or a keyword that is no field of the
      config.
    ValueError: a bad option (the message names it and the accepted values),
      an option its rule does not take, an ``initial_policy`` that is not a
      strategy, or a game without perfect-recall infostate strings.
"""


# ----------------------------------------------------------------- solvers
class FictitiousPlaySolver(Solver):
  __doc__ = f"""Full-width fictitious play with pluggable decision and step
  rules.

  Use XFPSolver, GXFPSolver or BUFPSolver, or give any pair of rules to a
  :class:`FictitiousPlayConfig`
  (``FictitiousPlaySolver(game, decision=BeliefDecision("best_response"),
  step=RealizationStep())``); this is their shared loop. Works for any
  number of players and any utility, as OpenSpiel's XFP (the algorithms are
  defined there; the convergence guarantees are for two-player zero-sum
  games).

  Args:
    game: a pyspiel game, game string or compiled GameTree with
      perfect-recall infostate strings.{_ARGS}
{_RAISES}
  Attributes:
    sigma: the average strategy sigma_t, [infosets, actions].
    initial_sigma: sigma_1 (eps-mixed).
    decision_counts: integer counts of best decisions (``CountingStep``'s
      array), or None for other steps.
  """

  Config: ClassVar[type[SolverConfig]] = FictitiousPlayConfig
  _STATE_ARRAYS = ("sigma", "initial_sigma")
  _CURRENT_ARRAY = "sigma"

  def _build(self) -> None:
    run = self._config.composition()
    tree = self._tree
    eps = check_min_action_prob(tree, run.min_action_prob)
    rules = run.rules()
    self._decision, self._step = rules
    self._adopt_rule_state(rules)
    self._first_step_one = run.first_step_one
    self.min_action_prob = eps
    self.legal = tree.infoset_legal
    self._initial_array: np.ndarray | None = None
    self.initial_sigma = mix_in(self._initial_strategy(run.initial_policy),
                                self.legal, eps)
    self.sigma = self.initial_sigma.copy()
    # Each player's rows, legal mask and rule arrays, as views (the arrays
    # are only ever updated in place, so the views stay current).
    self._player_views = [
        (rows, self.legal[rows], types.MappingProxyType(
            {name: array[rows] for name, array in self._rule_state.items()}))
        for rows in tree.player_rows]

  @property
  def decision_counts(self) -> np.ndarray | None:
    """``CountingStep``'s integer counts of best decisions, [infosets,
    actions] in units of 1/lcm(1..max |A|); None for other steps."""
    return self._rule_state.get("decision_counts")

  def _check_game(self) -> None:
    if not self._tree.perfect_recall:
      raise ValueError(
          f"{self._tree.game_string}'s infostate strings do not have perfect "
          "recall; fictitious play's realization weights need it.")

  def _initial_strategy(self, initial_policy: PolicyLike) -> np.ndarray:
    tree = self._tree
    if isinstance(initial_policy, str):
      if initial_policy == "uniform":
        return tree.uniform_policy()
      raw = np.where(self.legal, self._rng.gamma(1.0, size=self.legal.shape),
                     0.0)
      return raw / raw.sum(axis=1, keepdims=True)
    strategy = as_strategy(tree, initial_policy, "initial_policy")
    self._initial_array = strategy * self.legal
    return self._initial_array

  def _plain_config(self) -> dict[str, Any]:
    if self._initial_array is not None:
      # A policy object is written as the strategy it gives on this game.
      return config_to_plain(self._config,
                             initial_policy=self._initial_array)
    return config_to_plain(self._config)

  def load_state_dict(self, state: dict[str, Any]) -> None:
    """As :meth:`Solver.load_state_dict`; a state written when
    FictitiousPlayConfig kept its rules as names ("belief") is read with
    the rule objects those names stand for.

    Args:
      state: a :meth:`state_dict`.

    Raises:
      ValueError: as :meth:`Solver.load_state_dict`.
    """
    config = state.get("config") if isinstance(state, Mapping) else None
    if (isinstance(self._config, FictitiousPlayConfig) and
        isinstance(config, Mapping) and
        any(isinstance(config.get(name), str) for name in ("decision",
                                                           "step"))):
      try:
        config = config_to_plain(config_from_plain(
            FictitiousPlayConfig, config, type(self).__name__))
      except (TypeError, ValueError):
        pass  # The base class says what is wrong with it.
      else:
        state = dict(state, config=config)
    super().load_state_dict(state)

  def _context(self, player: int, strategy: np.ndarray,
               t: int) -> FPContext:
    """The rules' view of ``player``'s update at iteration t against
    ``strategy``."""
    rows, legal, state = self._player_views[player]
    # The steps mix with weight 1/(t+1); t - 1 gives the authors' 1/t.
    step_t = t - 1 if self._first_step_one else t
    return FPContext(self._tree, player, rows, legal, strategy, step_t,
                     self.min_action_prob, self.initial_sigma, state)

  def best_decisions(self, player: int,
                     strategy: np.ndarray | None = None) -> np.ndarray:
    """What this solver would mix in for ``player`` now ([player rows, A],
    before the eps perturbation), against ``strategy`` (default sigma_t).

    Args:
      player: a player of the game.
      strategy: the profile to decide against (any policy
        :func:`spiel_ext.policy.as_strategy` accepts), or None for sigma_t.

    Returns:
      The decision rule's profile b, [player rows, actions].

    Raises:
      ValueError: ``player`` is not a player of the game, or ``strategy``
        is not a strategy of it.
    """
    self._tree.check_player(player)
    strategy = (self.sigma if strategy is None else
                as_strategy(self._tree, strategy, "strategy"))
    return self._decision.decide(
        self._context(player, strategy, self._iteration + 1))

  # ------------------------------------------------------- player updates
  def _compute_update(self, player: int) -> tuple[np.ndarray, FPContext]:
    context = self._context(player, self.sigma, self._iteration)
    return self._decision.decide(context), context

  def _apply_update(self, player: int, update: tuple[np.ndarray, FPContext],
                    t: int) -> None:
    del t  # The context has the step's t.
    profile, context = update
    self.sigma[context.rows] = self._step.step(profile, context)

  # -------------------------------------------------------------- outputs
  def average_strategy(self) -> np.ndarray:
    """sigma_t, the average strategy fictitious play iterates.

    Returns:
      A copy of ``sigma``, [num_infosets, num_distinct_actions].
    """
    return self.sigma.copy()

  def average_policy_tables(self) -> list[dict[str, dict[int, float]]]:
    """sigma_t per player as ``{infostate key: {action: prob}}`` over the
    legal actions, as OpenSpiel's ``XFPSolver.average_policy_tables()``
    (which returns an empty list before the first iteration; this returns
    sigma_1 then).

    Returns:
      One dict per player, {infostate key: {action: probability}}.
    """
    tree = self._tree
    tables = []
    for player in range(tree.num_players):
      table = {}
      for row in tree.infosets_of_player(player):
        actions = np.flatnonzero(self.legal[row])
        table[tree.infoset_keys[row]] = dict(
            zip(actions.tolist(), self.sigma[row, actions].tolist()))
      tables.append(table)
    return tables

  def sample_episodes(self, *_args: Any, **_kwargs: Any) -> NoReturn:
    """Not provided: the exact evaluators replace OpenSpiel's sampling.

    Args:
      *_args: OpenSpiel's arguments, ignored.
      **_kwargs: OpenSpiel's keyword arguments, ignored.

    Raises:
      NotImplementedError: always.
    """
    raise NotImplementedError(
        "spiel_ext's fictitious-play solvers do not sample episodes; "
        "spiel_ext.eval.expected_values(game, policy) and "
        "spiel_ext.eval.head_to_head(game, policy_a, policy_b) give the exact "
        "expected returns instead.")

  def get_empirical_metagame(self, *_args: Any, **_kwargs: Any) -> NoReturn:
    """Not provided: spiel_ext keeps no best-response oracles. Exact payoffs
    between policies: ``spiel_ext.eval.head_to_head_matrix``.

    Args:
      *_args: OpenSpiel's arguments, ignored.
      **_kwargs: OpenSpiel's keyword arguments, ignored.

    Raises:
      NotImplementedError: always.
    """
    raise NotImplementedError(
        "spiel_ext's fictitious-play solvers keep no best-response oracles "
        "(save_oracles is accepted and ignored); "
        "spiel_ext.eval.head_to_head_matrix(game, {name: policy}) gives the "
        "exact payoff table between any policies.")


class XFPSolver(FictitiousPlaySolver):
  __doc__ = f"""XFP; matches OpenSpiel's ``fictitious_play.XFPSolver`` iterate
  for iterate (both players respond to sigma_t, then both step).

  ``current_policy()`` returns sigma_t as the same TabularPolicy on every
  call, updated in place; ``average_policy()`` returns it as a fresh one.
  (OpenSpiel's ``average_policy()`` returns a callable ``JointPolicy`` that
  follows the solver as it iterates; here ``current_policy()`` is the
  object that follows it.) ``average_policy_tables()`` is as OpenSpiel's.

  Args:
    game: a pyspiel game, game string or compiled GameTree: any sequential
      game with perfect-recall infostate strings, any number of players.
    args: OpenSpiel's positional form, ``XFPSolver(game, save_oracles)``
      (``save_oracles`` is accepted and ignored: no best-response oracles
      are kept, so ``get_empirical_metagame`` is not provided; use
      ``spiel_ext.eval.head_to_head_matrix`` for exact payoff tables), or
      a lone config.{_ARGS}

  The hyperparameters (:class:`XFPConfig`): save_oracles,
  alternating_updates, renormalize, tie_break, first_step_one,
  min_action_prob, initial_policy, seed.
  {_RAISES}
  Example::

    solver = XFPSolver(pyspiel.load_game("leduc_poker"))
    for _ in range(100):
      solver.iteration()
    spiel_ext.eval.nash_conv(solver.game, solver.average_policy())
  """

  Config = XFPConfig
  _POSITIONAL = ("save_oracles",)

  def __init__(self, game: pyspiel.Game | str | GameTree, *args: Any,
               config: XFPConfig | None = None, **shortcuts: Any):
    config = self._positional(args, config, shortcuts)
    super().__init__(game, config, **shortcuts)


class GXFPSolver(FictitiousPlaySolver):
  __doc__ = f"""GXFP: Schulze's generalized XFP (Schulze 2023, eqs. 3-4).

  At every infoset, reached or not, sigma_{{t+1}}(I) = (t sigma_t(I) +
  b_t(I)) / (t + 1) with b_t(I) the argmax of the counterfactual action
  values under sigma_t (the player's own sigma_t below I). Policies as
  :class:`XFPSolver`.

  Args:
    game: as for :class:`XFPSolver`.{_ARGS}

  The hyperparameters (:class:`GXFPConfig`): alternating_updates,
  integer_counting, tie_break, min_action_prob, initial_policy, seed.
  {_RAISES}
  Example::

    solver = GXFPSolver("kuhn_poker", integer_counting=True)
    for _ in range(1000):
      solver.iteration()
  """

  Config = GXFPConfig


class BUFPSolver(FictitiousPlaySolver):
  __doc__ = f"""Belief-update fictitious play (Ju, Fang, Luo 2024, section 4).

  The best decision at each infoset is weighted by the belief over its
  histories: the others' reach under sigma_t, or where they never reach it,
  chance reach times uniformly random opponents (see
  :meth:`spiel_ext.engine.GameTree.beliefs`). That off-path belief is what
  makes BUFP play sensibly on paths the average never takes. Policies as
  :class:`XFPSolver`.

  Args:
    game: as for :class:`XFPSolver`.{_ARGS}

  The hyperparameters (:class:`BUFPConfig`): stepsize ("ef" or "x"),
  continuation, alternating_updates, tie_break, first_step_one,
  min_action_prob, initial_policy, seed.
  {_RAISES}
  From a full-support start (uniform, "random") every infoset is reached,
  the beliefs are the others' reach everywhere, and BUFP(X) is XFP
  iterate for iterate (with the same tie rule). They differ once some
  infoset is off path, e.g. with ``first_step_one=True``.

  Example::

    solver = BUFPSolver("leduc_poker", stepsize="ef")
    for _ in range(1000):
      solver.iteration()
    spiel_ext.eval.sequential_gap(solver.game, solver.average_policy()).mean
  """

  Config = BUFPConfig

  @property
  def hyperparameters(self) -> dict[str, Any]:
    """The config as a dict, with ``continuation`` resolved."""
    return dict(super().hyperparameters,
                continuation=self._config.resolved_continuation)

