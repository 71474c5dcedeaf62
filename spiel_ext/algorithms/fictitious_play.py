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

import dataclasses
import types
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel

from spiel_ext.algorithms.base import Solver, SolverConfig, set_field
from spiel_ext.algorithms.checks import (check_bool, check_choice,
                                         check_methods, check_seed,
                                         short_repr)
from spiel_ext.algorithms.fp_rules import (CONTINUATIONS, BeliefDecision,
                                           BestDecision, CountingStep,
                                           DecisionRule, EmpiricalStep,
                                           FPContext, FullBestResponse,
                                           RealizationStep, StepRule)
from spiel_ext.algorithms.protocol import config_from_plain, config_to_plain
from spiel_ext.engine import GameTree
from spiel_ext.policy import (PolicyLike, as_strategy, mix_in,
                              check_min_action_prob)

TIE_RULES = ("lowest", "even")
INITIAL_POLICIES = ("uniform", "random")
STEPSIZES = ("ef", "x")
# The decision rules and step rules a FictitiousPlayConfig accepts by name.
DECISIONS = {"best_response": FullBestResponse,
             "best_decision": BestDecision,
             "belief": BeliefDecision}
STEPS = {"realization": RealizationStep,
         "empirical": EmpiricalStep,
         "counting": CountingStep}
# FictitiousPlayConfig's rule options: {field: (rule, the rules' parameter,
# the parameter's value for a field value, the field value a rule without
# the parameter is taken to have)}.
_RULE_OPTIONS = {
    "tie_break": ("decision", "even_split", lambda value: value == "even",
                  "lowest"),
    "continuation": ("decision", "continuation", lambda value: value,
                     "average"),
    "renormalize": ("step", "renormalize", lambda value: value, False),
}

_COMMON_ARGS = """
    min_action_prob: eps >= 0 of the perturbed game, below 1/|A| for the
      largest |A| (default 0; checked against the game when the solver is
      built): every mixed-in decision plays each legal action with
      probability at least eps, and best responses are taken in that
      restricted space (Schulze 2023, eq. 24).
    initial_policy: sigma_1: "uniform" (default), "random" (Dirichlet(1) at
      every infoset, drawn with ``seed``) or any policy
      :func:`spiel_ext.policy.policy_to_array` accepts (checked to be a
      strategy when the solver is built).
    seed: an int in 0..2**63 - 1 (default 0) or None, seeding
      ``initial_policy="random"``."""

_FIRST_STEP_ARG = """
    first_step_one: False (default: step 1/(t+1), so sigma_1 keeps weight
      1/(T+1) in sigma_{T+1}) or True: step 1/t, so the first step has size
      1 and replaces sigma_1 by the first decision, as the BUFP authors'
      code does (learning rate 1, then 1/2, 1/3, ...). The start is then
      discarded wherever the first decision reaches, and the pure first
      decisions leave infosets the players never reach, which a
      full-support start never does."""

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


def _check_fp_options(config: Any) -> None:
  """Checks the options every fictitious-play config has (min_action_prob
  is checked against the game, by the solver)."""
  set_field(config, "alternating_updates",
            check_bool("alternating_updates", config.alternating_updates))
  if config.tie_break is not None or not isinstance(config,
                                                    FictitiousPlayConfig):
    check_choice("tie_break", config.tie_break, TIE_RULES)
  if isinstance(config.initial_policy, str):
    check_choice("initial_policy", config.initial_policy, INITIAL_POLICIES)
  set_field(config, "seed", check_seed(config.seed))


# ----------------------------------------------------------------- configs
def _rule(name: str, value: Any, names: dict[str, type], method: str,
          kind: str) -> Any:
  """``value``, a rule object with ``method``, or the rule a name in
  ``names`` stands for (with its default options)."""
  if isinstance(value, str):
    return names[check_choice(name, value, tuple(names))]()
  if isinstance(value, type):
    raise TypeError(f"{name} must be a {kind} object; got the class "
                    f"{value.__name__} (write {value.__name__}()).")
  return check_methods(name, value, (method,), kind)


def _with_option(rules: dict[str, Any], field: str, value: Any) -> None:
  """Applies a FictitiousPlayConfig option field to the rule it belongs to
  (in ``rules``, by field name), in place; ``named`` rules take it, rule
  objects must already agree."""
  which, parameter, to_parameter, absent = _RULE_OPTIONS[field]
  rule, named = rules[which]
  wanted = to_parameter(value)
  has_parameter = dataclasses.is_dataclass(rule) and parameter in {
      item.name for item in dataclasses.fields(rule) if item.init}
  if not has_parameter:
    if value == absent:
      return
    raise ValueError(
        f"{field}={value!r} sets a {which} rule's {parameter} option; "
        f"{which}={short_repr(rule)} has none (leave {field} unset).")
  if named:
    rules[which] = (dataclasses.replace(rule, **{parameter: wanted}), True)
  elif getattr(rule, parameter) != wanted:
    raise ValueError(
        f"{field}={value!r} disagrees with {which}={short_repr(rule)}; set "
        f"{parameter}={wanted!r} on the rule object, or leave {field} unset.")


@dataclasses.dataclass(frozen=True, eq=False)
class FictitiousPlayConfig(SolverConfig):
  __doc__ = f"""Full-width fictitious play with any decision and step rule
  (:mod:`spiel_ext.algorithms.fp_rules`).

  Attributes:
    decision: what is mixed in: a decision rule object (any object with a
      ``decide(context)`` method): ``FullBestResponse()`` (XFP's full best
      response), ``BestDecision()`` (GXFP's argmax of the counterfactual
      action values under sigma_t, default) or ``BeliefDecision()`` (BUFP's
      belief-weighted argmax); or one of their names, "best_response",
      "best_decision", "belief", which is replaced by the object.
    step: how it is mixed in: a step rule object (any object with a
      ``step(profile, context)`` method): ``RealizationStep()`` (XFP's
      realization-weighted step), ``EmpiricalStep()`` (sigma_{{t+1}} =
      (t sigma_t + b_t) / (t + 1) at every infoset, default) or
      ``CountingStep()`` (the same with exact integer counts of best
      decisions); or their names "realization", "empirical", "counting".
    renormalize: None (default: the step's own option) or a bool, set on
      the step rule's ``renormalize`` (``RealizationStep``: clip each
      updated row at 0 and rescale it to sum to 1, Schulze 2023, eq. 18).
    continuation: None (default) or "average" / "best_response", set on the
      decision rule's ``continuation`` (``BeliefDecision``: how the
      player's own play below I is valued).
    alternating_updates: False (default: every player responds to sigma_t)
      or True (each responds to the previous update).
    tie_break: None (default) or "lowest" / "even", set on the decision
      rule's ``even_split`` ("lowest": exact ties broken as OpenSpiel's best
      response breaks them, or to the lowest action id; "even": an even
      split among the exact maximisers).{_FIRST_STEP_ARG}
      Not with ``CountingStep``, whose counts keep sigma_1's
      weight.{_COMMON_ARGS}

  ``renormalize``, ``continuation`` and ``tie_break`` are shortcuts for the
  rules' options: a rule given by name takes them; a rule object must
  already agree (else ValueError naming the field); a rule without that
  option accepts only its old default (False, "average", "lowest").
  Either way they are consumed: the config keeps them as None and the
  rule objects hold the options, so ``FictitiousPlayConfig(decision=
  "belief", continuation="best_response")`` equals
  ``FictitiousPlayConfig(decision=BeliefDecision("best_response"))``.
  The rule objects of :mod:`~spiel_ext.algorithms.fp_rules` checkpoint as
  plain data; a rule of another class works, but ``state_dict()`` needs
  it registered with :func:`spiel_ext.algorithms.protocol.plain_data`.
  """

  decision: DecisionRule | str = BestDecision()
  step: StepRule | str = EmpiricalStep()
  renormalize: bool | None = None
  continuation: str | None = None
  alternating_updates: bool = False
  tie_break: str | None = None
  first_step_one: bool = False
  min_action_prob: float = 0.0
  initial_policy: Any = "uniform"
  seed: int | None = 0

  def __post_init__(self) -> None:
    rules = {
        "decision": (_rule("decision", self.decision, DECISIONS, "decide",
                           "DecisionRule"), isinstance(self.decision, str)),
        "step": (_rule("step", self.step, STEPS, "step", "StepRule"),
                 isinstance(self.step, str)),
    }
    if self.renormalize is not None:
      _with_option(rules, "renormalize",
                   check_bool("renormalize", self.renormalize))
    if self.continuation is not None:
      _with_option(rules, "continuation", check_choice(
          "continuation", self.continuation, CONTINUATIONS))
    if self.tie_break is not None:
      _with_option(rules, "tie_break",
                   check_choice("tie_break", self.tie_break, TIE_RULES))
    for name in ("renormalize", "continuation", "tie_break"):
      set_field(self, name, None)
    set_field(self, "decision", rules["decision"][0])
    set_field(self, "step", rules["step"][0])
    set_field(self, "first_step_one", check_bool("first_step_one",
                                                 self.first_step_one))
    if self.first_step_one and isinstance(self.step, CountingStep):
      raise ValueError(
          "first_step_one=True does not go with step=CountingStep(), whose "
          "counts keep sigma_1's weight 1/(t+1); use EmpiricalStep().")
    _check_fp_options(self)

  def rules(self) -> tuple[DecisionRule, StepRule]:
    """(decision rule, step rule).

    Returns:
      The config's ``decision`` and ``step`` rule objects.
    """
    return self.decision, self.step

  def composition(self) -> "FictitiousPlayConfig":
    """The decision and step rules and options this config runs: itself.

    Returns:
      This config.
    """
    return self


def _composition(config: Any) -> FictitiousPlayConfig:
  """The FictitiousPlayConfig running a named variant's ``rules()`` with its
  common options."""
  decision, step = config.rules()
  return FictitiousPlayConfig(
      decision, step, alternating_updates=config.alternating_updates,
      first_step_one=getattr(config, "first_step_one", False),
      min_action_prob=config.min_action_prob,
      initial_policy=config.initial_policy, seed=config.seed)


@dataclasses.dataclass(frozen=True, eq=False)
class XFPConfig(SolverConfig):
  __doc__ = f"""XFP's hyperparameters (Heinrich, Lanctot, Silver 2015,
  Algorithm 1; options from Schulze 2023).

  Attributes:
    save_oracles: accepted for OpenSpiel compatibility (default False) and
      ignored: no best-response oracles are kept.
    alternating_updates: False (default, OpenSpiel's XFP: both players
      respond to sigma_t) or True (each responds to the previous update).
    renormalize: False (default) or True: clip each updated row at 0 and
      rescale it to sum to 1 (Schulze 2023, eq. 18).
    tie_break: "lowest" (default: exact ties broken as OpenSpiel's best
      response breaks them) or "even" (an even split among the exact
      maximisers at every infoset; where the others never reach an infoset
      every action ties).{_FIRST_STEP_ARG}{_COMMON_ARGS}
  """

  save_oracles: bool = False
  alternating_updates: bool = False
  renormalize: bool = False
  tie_break: str = "lowest"
  first_step_one: bool = False
  min_action_prob: float = 0.0
  initial_policy: Any = "uniform"
  seed: int | None = 0

  def __post_init__(self) -> None:
    set_field(self, "save_oracles", check_bool("save_oracles",
                                               self.save_oracles))
    set_field(self, "renormalize", check_bool("renormalize",
                                              self.renormalize))
    set_field(self, "first_step_one", check_bool("first_step_one",
                                                 self.first_step_one))
    _check_fp_options(self)

  def rules(self) -> tuple[DecisionRule, StepRule]:
    """A full best response mixed in by the realization-weighted step.

    Returns:
      (decision rule, step rule): ``FullBestResponse(even_split)``,
      ``RealizationStep(renormalize)``.
    """
    return (FullBestResponse(even_split=self.tie_break == "even"),
            RealizationStep(renormalize=self.renormalize))

  def composition(self) -> FictitiousPlayConfig:
    """The FictitiousPlayConfig this config runs (its ``rules()``).

    Returns:
      A FictitiousPlayConfig with this config's rules and common options.
    """
    return _composition(self)


@dataclasses.dataclass(frozen=True, eq=False)
class GXFPConfig(SolverConfig):
  __doc__ = f"""GXFP's hyperparameters (Schulze 2023, eqs. 3-4).

  Attributes:
    alternating_updates: False (default) or True, as for XFP.
    integer_counting: False (default) or True: keep exact integer counts of
      best decisions, so the average carries no round-off. The int64 counts
      are in units of 1/lcm(1..max |A|): an iteration that would overflow
      them raises OverflowError (past 3.6e15 iterations for |A| <= 10, but
      about 1,700 for |A| = 40).
    tie_break: "lowest" (default: the lowest action id among exact
      maximisers) or "even" (an even split among them).{_COMMON_ARGS}
  """

  alternating_updates: bool = False
  integer_counting: bool = False
  tie_break: str = "lowest"
  min_action_prob: float = 0.0
  initial_policy: Any = "uniform"
  seed: int | None = 0

  def __post_init__(self) -> None:
    set_field(self, "integer_counting", check_bool("integer_counting",
                                                   self.integer_counting))
    _check_fp_options(self)

  def rules(self) -> tuple[DecisionRule, StepRule]:
    """The best decision mixed in by the empirical (or counting) step.

    Returns:
      (decision rule, step rule): ``BestDecision(even_split)``, and
      ``CountingStep()`` with ``integer_counting``, else
      ``EmpiricalStep()``.
    """
    return (BestDecision(even_split=self.tie_break == "even"),
            CountingStep() if self.integer_counting else EmpiricalStep())

  def composition(self) -> FictitiousPlayConfig:
    """The FictitiousPlayConfig this config runs (its ``rules()``).

    Returns:
      A FictitiousPlayConfig with this config's rules and common options.
    """
    return _composition(self)


@dataclasses.dataclass(frozen=True, eq=False)
class BUFPConfig(SolverConfig):
  __doc__ = f"""BUFP's hyperparameters (Ju, Fang, Luo 2024, section 4).

  Attributes:
    stepsize: "ef" (default; BUFP(EF): the empirical step at every infoset,
      reached or not, eq. 13) or "x" (BUFP(X): XFP's realization-weighted
      step with the belief best decisions in place of the best response).
    continuation: how the player's own play below I is valued when choosing
      at I: "average" (sigma_t, eq. 9) or "best_response" (the belief best
      decisions, by backward induction). Default None: "average" for "ef",
      "best_response" for "x" (see ``fp_rules.BeliefDecision`` for why).
    alternating_updates: False (default) or True, as for XFP.
    tie_break: "lowest" (default) or "even", as for GXFP; with the
      "best_response" continuation, "lowest" breaks ties as OpenSpiel's best
      response and "even" splits every infoset's exact maximisers evenly
      (the authors' code splits ties evenly).{_FIRST_STEP_ARG}{_COMMON_ARGS}
  """

  stepsize: str = "ef"
  continuation: str | None = None
  alternating_updates: bool = False
  tie_break: str = "lowest"
  first_step_one: bool = False
  min_action_prob: float = 0.0
  initial_policy: Any = "uniform"
  seed: int | None = 0

  def __post_init__(self) -> None:
    check_choice("stepsize", self.stepsize, STEPSIZES)
    if self.continuation is not None:
      check_choice("continuation", self.continuation, CONTINUATIONS)
    set_field(self, "first_step_one", check_bool("first_step_one",
                                                 self.first_step_one))
    _check_fp_options(self)

  @property
  def resolved_continuation(self) -> str:
    """``continuation``, or the stepsize's default where it is None."""
    if self.continuation is not None:
      return self.continuation
    return "average" if self.stepsize == "ef" else "best_response"

  def rules(self) -> tuple[DecisionRule, StepRule]:
    """The belief best decision mixed in by the empirical step ("ef") or
    the realization-weighted one ("x").

    Returns:
      (decision rule, step rule): ``BeliefDecision(continuation,
      even_split)``, and ``EmpiricalStep()`` or ``RealizationStep()``.
    """
    return (BeliefDecision(continuation=self.resolved_continuation,
                           even_split=self.tie_break == "even"),
            EmpiricalStep() if self.stepsize == "ef" else RealizationStep())

  def composition(self) -> FictitiousPlayConfig:
    """The FictitiousPlayConfig this config runs (its ``rules()``).

    Returns:
      A FictitiousPlayConfig with this config's rules and common options.
    """
    return _composition(self)


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

  Config = FictitiousPlayConfig
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

  def sample_episodes(self, *_args, **_kwargs):
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

  def get_empirical_metagame(self, *_args, **_kwargs):
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
