"""The fictitious-play family's configs: XFP, GXFP, BUFP(EF), BUFP(X), and
the composition of any decision rule with any step rule.

- :class:`XFPConfig`: Johannes Heinrich, Marc Lanctot, David Silver,
  "Fictitious Self-Play in Extensive-Form Games", ICML 2015, Algorithm 1,
  with options from Tim P. Schulze, "A Generalized Extensive-Form
  Fictitious Play Algorithm", 2023, arXiv:2310.09658: renormalisation
  (eq. 18) and perturbed play (eq. 24).
- :class:`GXFPConfig`: Schulze's generalized XFP (eqs. 3-4).
- :class:`BUFPConfig`: Qi Ju, Zhemei Fang, Yunfeng Luo, "Beyond Nash
  Equilibrium: Achieving Bayesian Perfect Equilibrium with Belief Update
  Fictitious Play", DDCLS 2024, arXiv:2409.02706, section 4: BUFP(EF)
  (eq. 13) and BUFP(X).
- :class:`FictitiousPlayConfig`: any decision rule with any step rule
  (:mod:`spiel_ext.algorithms.fp_rules`); each named variant's
  ``composition()`` is the FictitiousPlayConfig it runs.

The solvers that run them are in :mod:`spiel_ext.algorithms.fictitious_play`
(which re-exports these configs).
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, ClassVar, cast

from spiel_ext.algorithms.base import SolverConfig, set_field
from spiel_ext.algorithms.checks import (check_bool, check_choice,
                                         check_methods, check_seed,
                                         short_repr)
from spiel_ext.algorithms.fp_rules import (CONTINUATIONS, BeliefDecision,
                                           BestDecision, CountingStep,
                                           DecisionRule, EmpiricalStep,
                                           FullBestResponse, RealizationStep,
                                           StepRule)


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


def _check_flags(config: Any, *names: str) -> None:
  """Checks that ``config``'s fields ``names`` are bools (numpy bools
  become bools), in order, in place."""
  for name in names:
    set_field(config, name, check_bool(name, getattr(config, name)))


def _check_fp_options(config: Any, *flags: str) -> None:
  """Checks the config's own bool fields ``flags``, then the options every
  fictitious-play config has (min_action_prob is checked against the game,
  by the solver)."""
  _check_flags(config, *flags, "alternating_updates")
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
    _check_flags(self, "first_step_one")
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
    # __post_init__ has replaced rule names by rule objects.
    return cast(DecisionRule, self.decision), cast(StepRule, self.step)

  def composition(self) -> "FictitiousPlayConfig":
    """The decision and step rules and options this config runs: itself.

    Returns:
      This config.
    """
    return self


class _NamedVariantConfig(SolverConfig):
  """A named variant's config (XFP, GXFP, BUFP): its ``rules()`` with its
  common options make the FictitiousPlayConfig it runs."""

  # The variant's own bool fields, checked before the common options.
  _FLAGS: ClassVar[tuple[str, ...]] = ()

  if TYPE_CHECKING:
    # Fields and the method every named variant declares.
    alternating_updates: bool
    min_action_prob: float
    initial_policy: Any
    seed: int | None

    def rules(self) -> tuple[DecisionRule, StepRule]: ...

  def __post_init__(self) -> None:
    _check_fp_options(self, *self._FLAGS)
    super().__post_init__()

  def composition(self) -> FictitiousPlayConfig:
    """The FictitiousPlayConfig this config runs (its ``rules()``).

    Returns:
      A FictitiousPlayConfig with this config's rules and common options.
    """
    decision, step = self.rules()
    return FictitiousPlayConfig(
        decision, step, alternating_updates=self.alternating_updates,
        first_step_one=getattr(self, "first_step_one", False),
        min_action_prob=self.min_action_prob,
        initial_policy=self.initial_policy, seed=self.seed)


@dataclasses.dataclass(frozen=True, eq=False)
class XFPConfig(_NamedVariantConfig):
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
  _FLAGS = ("save_oracles", "renormalize", "first_step_one")

  def rules(self) -> tuple[DecisionRule, StepRule]:
    """A full best response mixed in by the realization-weighted step.

    Returns:
      (decision rule, step rule): ``FullBestResponse(even_split)``,
      ``RealizationStep(renormalize)``.
    """
    return (FullBestResponse(even_split=self.tie_break == "even"),
            RealizationStep(renormalize=self.renormalize))


@dataclasses.dataclass(frozen=True, eq=False)
class GXFPConfig(_NamedVariantConfig):
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
  _FLAGS = ("integer_counting",)

  def rules(self) -> tuple[DecisionRule, StepRule]:
    """The best decision mixed in by the empirical (or counting) step.

    Returns:
      (decision rule, step rule): ``BestDecision(even_split)``, and
      ``CountingStep()`` with ``integer_counting``, else
      ``EmpiricalStep()``.
    """
    return (BestDecision(even_split=self.tie_break == "even"),
            CountingStep() if self.integer_counting else EmpiricalStep())


@dataclasses.dataclass(frozen=True, eq=False)
class BUFPConfig(_NamedVariantConfig):
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
  _FLAGS = ("first_step_one",)

  def __post_init__(self) -> None:
    check_choice("stepsize", self.stepsize, STEPSIZES)
    if self.continuation is not None:
      check_choice("continuation", self.continuation, CONTINUATIONS)
    super().__post_init__()

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
