"""Fictitious play's rules as objects (spiel_ext.algorithms.fp_rules): a
FictitiousPlaySolver built from rule objects is the one its old string
names build and the named solvers (XFP, GXFP, BUFP) iterate for iterate; a
rule written here runs, keeps its own array and resumes exactly; the
counting step's array is part of the state under its old name; bad rules
are refused in one line naming the parameter."""

import dataclasses
import json
import pickle

import numpy as np
import pytest

from spiel_ext.algorithms import (BUFPSolver, FictitiousPlaySolver,
                                  GXFPSolver, XFPSolver)
from spiel_ext.algorithms.base import Solver
from spiel_ext.algorithms.fictitious_play import (BUFPConfig,
                                                  FictitiousPlayConfig,
                                                  GXFPConfig, XFPConfig)
from spiel_ext.algorithms.fp_rules import (BeliefDecision, BestDecision,
                                           CountingStep, EmpiricalStep,
                                           FPContext, FullBestResponse,
                                           RealizationStep, count_unit)
from spiel_ext.algorithms.protocol import (from_plain, plain_data,
                                           to_plain)
from spiel_ext.engine import compile_game
from spiel_ext.policy import mix_in

KUHN = "kuhn_poker"

# Each named variant: (named solver, its options), the old string names
# with their options, and the rule objects they stand for.
VARIANTS = {
    "xfp": (
        (XFPSolver, {}),
        dict(decision="best_response", step="realization"),
        dict(decision=FullBestResponse(), step=RealizationStep())),
    "xfp-renormalized-even": (
        (XFPSolver, dict(renormalize=True, tie_break="even")),
        dict(decision="best_response", step="realization", renormalize=True,
             tie_break="even"),
        dict(decision=FullBestResponse(even_split=True),
             step=RealizationStep(renormalize=True))),
    "gxfp": (
        (GXFPSolver, dict(alternating_updates=True)),
        dict(decision="best_decision", step="empirical",
             alternating_updates=True),
        dict(decision=BestDecision(), step=EmpiricalStep(),
             alternating_updates=True)),
    "gxfp-integer-counting": (
        (GXFPSolver, dict(integer_counting=True, tie_break="even")),
        dict(decision="best_decision", step="counting", tie_break="even"),
        dict(decision=BestDecision(even_split=True), step=CountingStep())),
    "bufp-ef": (
        (BUFPSolver, dict(stepsize="ef", first_step_one=True)),
        dict(decision="belief", step="empirical", first_step_one=True),
        dict(decision=BeliefDecision(), step=EmpiricalStep(),
             first_step_one=True)),
    "bufp-x": (
        (BUFPSolver, dict(stepsize="x", first_step_one=True,
                          tie_break="even")),
        dict(decision="belief", step="realization",
             continuation="best_response", first_step_one=True,
             tie_break="even"),
        dict(decision=BeliefDecision("best_response", even_split=True),
             step=RealizationStep(), first_step_one=True)),
    "perturbed-xfp": (
        (XFPSolver, dict(min_action_prob=0.05, initial_policy="random")),
        dict(decision="best_response", step="realization",
             min_action_prob=0.05, initial_policy="random"),
        dict(decision=FullBestResponse(), step=RealizationStep(),
             min_action_prob=0.05, initial_policy="random")),
    "perturbed-gxfp-counting": (
        (GXFPSolver, dict(integer_counting=True, min_action_prob=0.02)),
        dict(decision="best_decision", step="counting",
             min_action_prob=0.02),
        dict(decision=BestDecision(), step=CountingStep(),
             min_action_prob=0.02)),
}


def _arrays(solver):
  return {name: value for name, value in solver.state_dict().items()
          if isinstance(value, np.ndarray)}


# ------------------------------------------------- objects = names = named
@pytest.mark.parametrize("game", [KUHN, "leduc_poker"])
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_rule_objects_run_the_named_variants_iterate_for_iterate(variant,
                                                                 game):
  (named_class, named_options), names, objects = VARIANTS[variant]
  assert FictitiousPlayConfig(**names) == FictitiousPlayConfig(**objects)
  assert named_class.Config(**named_options).composition() == (
      FictitiousPlayConfig(**objects))
  named = named_class(game, **named_options)
  by_names = FictitiousPlaySolver(game, **names)
  by_objects = FictitiousPlaySolver(game, **objects)
  for _ in range(12):
    for solver in (named, by_names, by_objects):
      solver.iteration()
    np.testing.assert_array_equal(by_objects.sigma, named.sigma)
    np.testing.assert_array_equal(by_names.sigma, named.sigma)
  assert _arrays(by_objects).keys() == _arrays(named).keys()
  for name, value in _arrays(named).items():
    np.testing.assert_array_equal(_arrays(by_objects)[name], value, name)


def test_each_named_config_says_which_rules_it_runs():
  assert XFPConfig().rules() == (FullBestResponse(), RealizationStep())
  assert XFPConfig(renormalize=True, tie_break="even").rules() == (
      FullBestResponse(True), RealizationStep(True))
  assert GXFPConfig().rules() == (BestDecision(), EmpiricalStep())
  assert GXFPConfig(integer_counting=True).rules() == (BestDecision(),
                                                       CountingStep())
  assert BUFPConfig().rules() == (BeliefDecision("average"), EmpiricalStep())
  assert BUFPConfig(stepsize="x").rules() == (
      BeliefDecision("best_response"), RealizationStep())
  assert BUFPConfig(stepsize="x", continuation="average",
                    tie_break="even").rules() == (
                        BeliefDecision("average", True), RealizationStep())


def test_names_and_options_become_the_rule_objects():
  config = FictitiousPlayConfig(decision="belief", step="realization",
                                continuation="best_response",
                                renormalize=True, tie_break="even")
  assert config.rules() == (BeliefDecision("best_response", True),
                            RealizationStep(True))
  assert (config.renormalize, config.continuation, config.tie_break) == (
      None, None, None)
  assert FictitiousPlayConfig().rules() == (BestDecision(), EmpiricalStep())
  # An option that agrees with a rule object, or the old default on a rule
  # without that option, is accepted.
  assert FictitiousPlayConfig(
      decision=BeliefDecision("best_response"), continuation="best_response",
      step=EmpiricalStep(), renormalize=False, tie_break="lowest").rules() == (
          BeliefDecision("best_response"), EmpiricalStep())
  # A config rebuilt from its fields (dataclasses.replace, a keyword on top
  # of a config) is the same config.
  assert dataclasses.replace(config, seed=4).rules() == config.rules()
  solver = FictitiousPlaySolver(KUHN, config=config, alternating_updates=True)
  assert solver.config.rules() == config.rules()


def test_rule_objects_are_plain_data():
  config = FictitiousPlayConfig(decision=BeliefDecision("best_response"),
                                step=CountingStep())
  plain = to_plain(config.decision)
  assert plain == {"__type__": "BeliefDecision",
                   "continuation": "best_response", "even_split": False}
  for rule in (FullBestResponse(True), BestDecision(), BeliefDecision(),
               EmpiricalStep(), CountingStep(), RealizationStep(True)):
    assert from_plain(json.loads(json.dumps(to_plain(rule)))) == rule
  state = FictitiousPlaySolver(KUHN, config=config).state_dict()
  assert state["config"]["step"] == {"__type__": "CountingStep"}
  assert Solver.from_state_dict(state).config == config


# ------------------------------------------------------- a rule of our own
@plain_data
@dataclasses.dataclass(frozen=True)
class LinearStep:
  """sigma_{t+1} = (sigma_1 + sum_{s <= t} s b_s) / (1 + t(t+1)/2): later
  decisions weigh more (weight s), kept as a running sum in the rule's own
  array."""

  def initial_state(self, tree):
    return {"weighted_sum": np.zeros(tree.infoset_legal.shape)}

  def step(self, profile, context):
    total = context.state["weighted_sum"]
    total += context.t * mix_in(profile, context.legal,
                                context.min_action_prob)
    weight = 1.0 + context.t * (context.t + 1) / 2
    return (context.initial_sigma[context.rows] + total) / weight


def test_a_step_rule_written_here_runs_as_its_formula_says():
  """Its iterates equal the formula worked in numpy from the decisions the
  solver reports before each (simultaneous) iteration."""
  solver = FictitiousPlaySolver(KUHN, step=LinearStep(),
                                initial_policy="random", seed=7)
  tree = solver.tree
  total = np.zeros(tree.infoset_legal.shape)
  for t in range(1, 15):
    for player in range(2):
      total[tree.player_rows[player]] += t * solver.best_decisions(player)
    solver.iteration()
    expected = (solver.initial_sigma + total) / (1 + t * (t + 1) / 2)
    np.testing.assert_allclose(solver.sigma, expected, rtol=0, atol=1e-14)
    np.testing.assert_allclose(solver.sigma.sum(axis=1), 1.0, atol=1e-14)
  np.testing.assert_allclose(solver.state_dict()["weighted_sum"], total,
                             rtol=0, atol=1e-12)


@pytest.mark.parametrize("alternating", [False, True])
def test_a_rule_written_here_checkpoints_and_resumes_exactly(alternating):
  straight = FictitiousPlaySolver(
      "leduc_poker", decision=BeliefDecision("best_response"),
      step=LinearStep(), alternating_updates=alternating,
      initial_policy="random", seed=3)
  for _ in range(6):
    straight.iteration()
  state = straight.state_dict()
  assert state["config"]["step"] == {"__type__": "LinearStep"}
  assert state["weighted_sum"].shape == straight.sigma.shape
  json.dumps(state["config"], default=lambda array: array.tolist())
  resumed = Solver.from_state_dict(state)
  in_place = FictitiousPlaySolver("leduc_poker", config=straight.config)
  in_place.load_state_dict(state)
  unpickled = pickle.loads(pickle.dumps(straight))
  for _ in range(6):
    for solver in (straight, resumed, in_place, unpickled):
      solver.iteration()
  for solver in (resumed, in_place, unpickled):
    for name, value in _arrays(straight).items():
      np.testing.assert_array_equal(_arrays(solver)[name], value, name)
    assert solver.iteration_count == 12


def test_an_unregistered_rule_runs_but_has_no_plain_form():
  class Uniform:
    """Mixes in the uniform strategy."""

    def decide(self, context: FPContext) -> np.ndarray:
      return context.legal / context.legal.sum(axis=1, keepdims=True)

  solver = FictitiousPlaySolver(KUHN, decision=Uniform())
  for _ in range(3):
    solver.iteration()
  np.testing.assert_allclose(solver.sigma, compile_game(KUHN).uniform_policy())
  with pytest.raises(TypeError, match=r"^decision = .* has no plain-data "
                     "form"):
    solver.state_dict()


# ------------------------------------------------ the counting step's array
def test_counting_keeps_its_counts_as_its_own_state():
  solver = GXFPSolver("leduc_poker", integer_counting=True, tie_break="even",
                      alternating_updates=True)
  assert "decision_counts" not in GXFPSolver("leduc_poker").state_dict()
  assert GXFPSolver("leduc_poker").decision_counts is None
  for _ in range(9):
    solver.iteration()
  state = solver.state_dict()
  counts = state["decision_counts"]
  assert counts.dtype == np.int64
  np.testing.assert_array_equal(counts, solver.decision_counts)
  # Each row counts one decision per iteration, in units of 1/lcm(1..3).
  unit = count_unit(solver.tree)
  assert unit == 6
  np.testing.assert_array_equal(counts.sum(axis=1), 9 * unit)
  resumed = GXFPSolver.from_state_dict(state)
  np.testing.assert_array_equal(resumed.decision_counts, counts)
  for _ in range(4):
    solver.iteration()
    resumed.iteration()
  np.testing.assert_array_equal(resumed.sigma, solver.sigma)
  np.testing.assert_array_equal(resumed.decision_counts,
                                solver.decision_counts)
  with pytest.raises(ValueError, match="checkpoint array decision_counts is "
                     "corrupt"):
    GXFPSolver("leduc_poker", integer_counting=True, tie_break="even",
               alternating_updates=True).load_state_dict(
                   dict(state, decision_counts=counts[:3]))


def test_a_state_written_with_rule_names_still_loads():
  """States written when the config kept the rules' names (and every
  solver kept a decision_counts array) resume exactly."""
  options = dict(decision="best_decision", step="counting",
                 initial_policy="random", seed=2)
  straight = FictitiousPlaySolver(KUHN, **options)
  for _ in range(5):
    straight.iteration()
  old = straight.state_dict()
  old["config"] = dict(old["config"], decision="best_decision",
                       step="counting", renormalize=False,
                       continuation="average", tie_break="lowest")
  in_place = FictitiousPlaySolver(KUHN, **options)
  in_place.load_state_dict(old)
  resumed = FictitiousPlaySolver.from_state_dict(old)
  for _ in range(3):
    for solver in (straight, in_place, resumed):
      solver.iteration()
  for solver in (in_place, resumed):
    np.testing.assert_array_equal(solver.sigma, straight.sigma)
    np.testing.assert_array_equal(solver.decision_counts,
                                  straight.decision_counts)
  empirical = FictitiousPlaySolver(KUHN, decision="belief")
  empirical.iteration()
  old = empirical.state_dict()
  old["config"] = dict(old["config"], decision="belief", step="empirical",
                       renormalize=False, continuation="average",
                       tie_break="lowest")
  old["decision_counts"] = np.zeros(empirical.sigma.shape, dtype=np.int64)
  again = FictitiousPlaySolver(KUHN, decision="belief")
  again.load_state_dict(old)
  np.testing.assert_array_equal(again.sigma, empirical.sigma)
  assert again.iteration_count == 1


# --------------------------------------------------------------- refusals
@plain_data
@dataclasses.dataclass(frozen=True)
class ClashingStep:
  """A step whose array would overwrite the solver's sigma."""

  def initial_state(self, tree):
    return {"sigma": np.zeros(tree.infoset_legal.shape)}

  def step(self, profile, context):
    return profile


@pytest.mark.parametrize("options,error,name", [
    (dict(decision=object()), TypeError, "decision"),
    (dict(decision=EmpiricalStep()), TypeError, "decision"),
    (dict(decision="best_decisions"), ValueError, "decision"),
    (dict(step=BestDecision()), TypeError, "step"),
    (dict(step=None), TypeError, "step"),
    (dict(step="counted"), ValueError, "step"),
    (dict(step=EmpiricalStep, decision=BestDecision()), TypeError, "step"),
    (dict(step="empirical", renormalize=True), ValueError, "renormalize"),
    (dict(step=RealizationStep(), renormalize=True), ValueError,
     "renormalize"),
    (dict(renormalize="yes"), TypeError, "renormalize"),
    (dict(decision=BestDecision(), continuation="best_response"), ValueError,
     "continuation"),
    (dict(decision=BeliefDecision("best_response"), continuation="average"),
     ValueError, "continuation"),
    (dict(decision="belief", continuation="below"), ValueError,
     "continuation"),
    (dict(decision=BestDecision(even_split=True), tie_break="lowest"),
     ValueError, "tie_break"),
    (dict(decision=LinearStep(), step=LinearStep()), TypeError, "decision"),
    (dict(step="counting", first_step_one=True), ValueError,
     "first_step_one"),
])
def test_bad_rules_are_refused_in_one_line_naming_the_parameter(options,
                                                                error, name):
  with pytest.raises(error) as raised:
    FictitiousPlaySolver(KUHN, **options)
  message = str(raised.value)
  assert message.startswith(name) and "\n" not in message, message


@pytest.mark.parametrize("make,name", [
    (lambda: BeliefDecision("sequential"), "continuation"),
    (lambda: BeliefDecision(even_split=1), "even_split"),
    (lambda: BestDecision("even"), "even_split"),
    (lambda: FullBestResponse(None), "even_split"),
    (lambda: RealizationStep(renormalize="no"), "renormalize"),
])
def test_rule_options_are_checked_where_the_rule_is_built(make, name):
  with pytest.raises((TypeError, ValueError), match=f"^{name} must be"):
    make()


def test_a_rule_array_named_like_a_solver_array_is_refused():
  with pytest.raises(ValueError, match=r"ClashingStep.initial_state: the "
                     r"array name 'sigma' is already used"):
    FictitiousPlaySolver(KUHN, step=ClashingStep())
