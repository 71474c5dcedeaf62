"""Bad inputs to solvers, evaluators and policy conversion: early, named errors.

Every case here was accepted once and then did something wrong (a string
read as True, a numpy traceback, NaN turned into a uniform policy, ...).
"""

import functools
import math
import re

import numpy as np
import pyspiel
import pytest
from open_spiel.python import policy as openspiel_policy
from open_spiel.python.algorithms import discounted_cfr
from open_spiel.python.algorithms import exploitability as openspiel_exploit

from spiel_ext import eval as se
from spiel_ext.algorithms import (BUFPSolver, CFRPlusSolver, CFRSolver,
                                  DCFRSolver, FirstDecisions, GXFPSolver,
                                  LCFRSolver, PrefCFRSolver, XFPSolver)
from spiel_ext.algorithms.regret_rules import discount_factor
from spiel_ext.engine import compile_game
from spiel_ext.policy import check_strategy, policy_to_array

SOLVERS = [CFRSolver, CFRPlusSolver, DCFRSolver, LCFRSolver, PrefCFRSolver,
           XFPSolver, GXFPSolver, BUFPSolver]
KUHN_SHAPE = (12, 2)


# ------------------------------------------------------------ bool options
BOOL_OPTIONS = [
    (CFRSolver, "random_init"), (CFRSolver, "alternating_updates"),
    (CFRPlusSolver, "random_init"), (DCFRSolver, "alternating_updates"),
    (LCFRSolver, "random_init"),
    (PrefCFRSolver, "random_init"), (PrefCFRSolver, "alternating_updates"),
    (XFPSolver, "renormalize"), (XFPSolver, "save_oracles"),
    (XFPSolver, "alternating_updates"), (GXFPSolver, "integer_counting"),
    (GXFPSolver, "alternating_updates"), (BUFPSolver, "alternating_updates"),
]


@pytest.mark.parametrize("value", ["no", "maybe", 1, 0, None, 1.0])
@pytest.mark.parametrize("solver_class,option", BOOL_OPTIONS,
                         ids=[f"{c.__name__}-{o}" for c, o in BOOL_OPTIONS])
def test_bool_options_take_bools_only(solver_class, option, value):
  with pytest.raises(TypeError, match=f"{option} must be True or False; got "
                     f"{value!r}"):
    solver_class("kuhn_poker", **{option: value})


def test_numpy_bools_are_bools():
  numpy_true = CFRSolver("kuhn_poker", random_init=np.bool_(True), seed=4)
  plain_true = CFRSolver("kuhn_poker", random_init=True, seed=4)
  np.testing.assert_array_equal(numpy_true.cumulative_regret,
                                plain_true.cumulative_regret)
  assert numpy_true.hyperparameters["random_init"] is True
  GXFPSolver("kuhn_poker", integer_counting=np.bool_(False))


def test_return_only_nash_conv_takes_bools_only():
  uniform = compile_game("kuhn_poker").uniform_policy()
  with pytest.raises(TypeError, match="return_only_nash_conv must be True"):
    se.nash_conv("kuhn_poker", uniform, return_only_nash_conv="no")


# ------------------------------------------------------------------ seeds
@pytest.mark.parametrize("seed,error", [(-1, ValueError), (1.5, TypeError),
                                        ("1", TypeError), (True, TypeError),
                                        (np.float64(2.0), TypeError)])
@pytest.mark.parametrize("solver_class", SOLVERS,
                         ids=[c.__name__ for c in SOLVERS])
def test_seed_must_be_a_non_negative_int(solver_class, seed, error):
  with pytest.raises(error, match=r"seed must be an int in 0\.\.2\*\*63 - 1 "
                     "or None; got "):
    solver_class("kuhn_poker", seed=seed)


def test_accepted_seeds():
  for seed in (None, 0, 7, np.int64(3), np.uint64(2**63 - 1), 2**63 - 1):
    GXFPSolver("kuhn_poker", initial_policy="random", seed=seed)


@pytest.mark.parametrize("seed", [2**63, 2**70, np.uint64(2**63)])
def test_seeds_beyond_int64_are_refused(seed):
  with pytest.raises(ValueError, match=r"seed must be an int in "
                     r"0\.\.2\*\*63 - 1 or None; got "):
    CFRSolver("kuhn_poker", seed=seed)


# --------------------------------------------------------- DCFR parameters
DCFR_BAD = [
    (dict(alpha=math.inf), "alpha must be a finite number; got inf"),
    (dict(alpha=math.nan), "alpha must be a finite number; got nan"),
    (dict(alpha="x"), "alpha must be a finite number; got 'x'"),
    (dict(beta=-math.inf), "beta must be a finite number; got -inf"),
    (dict(beta=True), "beta must be a finite number; got True"),
    (dict(gamma=-1), r"gamma must be a finite number in \[0, 1000\]; got -1"),
    (dict(gamma=math.inf), r"gamma must be a finite number in \[0, 1000\]; "
     "got inf"),
    (dict(gamma=None), r"gamma must be a finite number in \[0, 1000\]; got "
     "None"),
    (dict(gamma=1e308), r"gamma must be a finite number in \[0, 1000\]; got "
     r"1e\+308"),
    (dict(gamma=1000.5), r"gamma must be a finite number in \[0, 1000\]"),
    (dict(alpha=10**400), "alpha must be a finite number; got 1000000"),
]


@pytest.mark.parametrize("kwargs,message", DCFR_BAD)
@pytest.mark.parametrize("factory", [
    DCFRSolver, functools.partial(PrefCFRSolver, base="dcfr")],
                         ids=["DCFRSolver", "PrefCFRSolver"])
def test_dcfr_parameters_are_checked(factory, kwargs, message):
  with pytest.raises(ValueError, match=message):
    factory("kuhn_poker", **kwargs)


def test_discount_factor_closed_forms():
  assert discount_factor(1, 1.5) == 0.5
  assert discount_factor(3, 1.5) == 3**1.5 / (3**1.5 + 1)
  assert discount_factor(2, 0.0) == 0.5
  assert discount_factor(2, 2000.0) == 1.0
  assert discount_factor(2, -2000.0) == 0.0
  assert discount_factor(10**6, 60.0) == 1.0
  assert discount_factor(10**6, -60.0) == pytest.approx(1e-360, abs=1e-320)


def _run_pair(ours, reference, iterations):
  for _ in range(iterations):
    ours.evaluate_and_update_policy()
    reference.evaluate_and_update_policy()
    np.testing.assert_allclose(
        ours.average_policy().action_probability_array,
        reference.average_policy().action_probability_array, atol=1e-9)


def test_huge_alpha_and_beta_discount_as_openspiel_with_exact_powers():
  """OpenSpiel's DCFR computes t**alpha exactly when alpha is a Python int
  (big integers), and overflows when it is a float; ours takes the float
  and matches the exact computation."""
  game = pyspiel.load_game("kuhn_poker")
  ours = DCFRSolver(game, 2000.0, -2000.0, 2.0)
  reference = discounted_cfr.DCFRSolver(game, alpha=2000, beta=-2000, gamma=2)
  _run_pair(ours, reference, 30)
  overflowing = discounted_cfr.DCFRSolver(game, alpha=2000.0, beta=0, gamma=2)
  with pytest.raises(OverflowError):
    for _ in range(3):
      overflowing.evaluate_and_update_policy()


def test_huge_gamma_matches_openspiel_until_it_overflows():
  """With gamma = 500 the average is rescaled from t = 3 on (500 log2 3 >
  500 bits); OpenSpiel's t^500 stays finite up to t = 4."""
  game = pyspiel.load_game("kuhn_poker")
  ours = DCFRSolver(game, 1.5, 0, 500)
  reference = discounted_cfr.DCFRSolver(game, alpha=1.5, beta=0, gamma=500)
  _run_pair(ours, reference, 4)
  with pytest.raises(OverflowError):
    reference.evaluate_and_update_policy()


@pytest.mark.parametrize("gamma", [400.0, 500.0, 5.0])
def test_huge_gamma_average_is_the_weighted_sum_of_iterates(gamma):
  """The average equals sum_t t^gamma x_i(I) sigma_t(I) normalised, computed
  here from the iterates in units of T^gamma (no overflow)."""
  solver = DCFRSolver("kuhn_poker", 1.5, 0, gamma)
  tree = solver.tree
  iterations = 200
  numerator = np.zeros(KUHN_SHAPE)
  for t in range(1, iterations + 1):
    sigma = solver.current_strategy()
    weight = math.exp(gamma * (math.log(t) - math.log(iterations)))
    for player in range(2):
      rows = tree.player_rows[player]
      own = tree.player_counterfactual_values(sigma, player).own_reach
      numerator[rows] += weight * own[:, None] * sigma[rows]
    solver.evaluate_and_update_policy()
  expected = numerator / numerator.sum(axis=1, keepdims=True)
  average = solver.average_strategy()
  assert np.isfinite(solver.cumulative_policy).all()
  np.testing.assert_allclose(average, expected, atol=1e-9)


def test_non_finite_cumulative_policy_is_reported_not_made_uniform():
  solver = CFRSolver("kuhn_poker")
  solver.evaluate_and_update_policy()
  solver.cumulative_policy[3, 0] = np.nan
  key = solver.tree.infoset_keys[3]
  with pytest.raises(RuntimeError, match=f"cumulative_policy holds non-finite "
                     f"values at infoset '{key}' after iteration 1"):
    solver.average_strategy()
  solver.cumulative_policy[3, 0] = np.inf
  with pytest.raises(RuntimeError, match="non-finite"):
    solver.average_policy()


def test_uniform_only_where_nothing_was_accumulated():
  solver = CFRSolver("kuhn_poker")
  solver.cumulative_policy[:] = 0.0
  solver.cumulative_policy[0] = [3.0, 1.0]
  average = solver.average_strategy()
  np.testing.assert_array_equal(average[0], [0.75, 0.25])
  np.testing.assert_array_equal(average[1:], 0.5)


# ---------------------------------------------------------- Pref-CFR specs
@pytest.mark.parametrize("kwargs,message", [
    (dict(preference=np.full(KUHN_SHAPE, np.inf)),
     "preference degrees must be finite numbers >= 1"),
    (dict(preference=np.full(KUHN_SHAPE, np.nan)),
     "preference degrees must be finite numbers >= 1"),
    (dict(preference=np.full(KUHN_SHAPE, 0.5)),
     "preference degrees must be finite numbers >= 1"),
    (dict(preference=np.full((3, 2), 2.0)),
     r"preference array must have shape \(12, 2\)"),
    (dict(preference={"Bet": np.inf}),
     r"preference\['Bet'\] must be a finite number in \[1, 1e\+100\]; got inf"),
    (dict(preference={"Bet": "5"}),
     r"preference\['Bet'\] must be a finite number in \[1, 1e\+100\]; got '5'"),
    (dict(vulnerability=np.full(12, np.inf)),
     "vulnerability degrees must be finite numbers >= 0"),
    (dict(vulnerability=np.full(12, -1.0)),
     "vulnerability degrees must be finite numbers >= 0"),
    (dict(vulnerability=np.inf),
     r"vulnerability must be a finite number in \[0, 1e\+100\]; got inf"),
    (dict(vulnerability=1e101),
     r"vulnerability must be a finite number in \[0, 1e\+100\]; got 1e\+101"),
    (dict(preference={"Bet": 1e308}),
     r"preference\['Bet'\] must be a finite number in \[1, 1e\+100\]; got "
     r"1e\+308"),
    (dict(preference=np.full(KUHN_SHAPE, 1e101)),
     "preference degrees must be finite numbers >= 1 and <= 1e"),
    (dict(where=lambda tree: [99], preference={"Bet": 2}),
     r"where\(.*\) must return infoset rows: integers in 0..11; got row 99"),
    (dict(where=lambda tree: [-1], preference={"Bet": 2}),
     "must return infoset rows: integers in 0..11; got row -1"),
    (dict(where=lambda tree: [0.5], preference={"Bet": 2}),
     r"must return infoset rows: integers in 0..11; got \[0.5\]"),
    (dict(where=lambda tree: "abc", preference={"Bet": 2}),
     "must return infoset rows"),
    (dict(where=lambda tree: [[0, 1]], preference={"Bet": 2}),
     "must return infoset rows"),
    (dict(where=FirstDecisions(player=3), preference={"Bet": 2}),
     r"FirstDecisions: player must be None or in 0..1 for kuhn_poker\(\); "
     "got 3"),
    (dict(where=[], preference={"Bet": 2}),
     "preference: the scope holds no infoset"),
])
def test_bad_degrees_and_scopes(kwargs, message):
  with pytest.raises(ValueError, match=message):
    PrefCFRSolver("kuhn_poker", **kwargs)


@pytest.mark.parametrize("player", [-1, True, 1.0, "0"])
def test_first_decisions_player_is_checked_at_construction(player):
  with pytest.raises(ValueError, match="FirstDecisions: player must be None "
                     r"or a player id \(an int >= 0\)"):
    FirstDecisions(player=player)


def test_where_callable_may_return_any_integer_rows():
  tree = compile_game("kuhn_poker")
  solver = PrefCFRSolver(tree, preference={"Bet": 3},
                         where=lambda _: np.array([0, 2], dtype=np.int32))
  assert solver.preference[[0, 2], 1].tolist() == [3.0, 3.0]
  assert np.sum(solver.preference != 1) == 2


# --------------------------------------------------------- min_action_prob
@pytest.mark.parametrize("value", ["a", None, True, -0.1, 0.5, math.nan,
                                   math.inf])
def test_min_action_prob_is_checked(value):
  message = r"min_action_prob must be in \[0, 1/\|A\|\) = \[0, 0.5\)"
  with pytest.raises(ValueError, match=message):
    XFPSolver("kuhn_poker", min_action_prob=value)
  with pytest.raises(ValueError, match=message):
    BUFPSolver("kuhn_poker", min_action_prob=value)
  uniform = compile_game("kuhn_poker").uniform_policy()
  with pytest.raises(ValueError, match=message):
    se.nash_conv("kuhn_poker", uniform, min_action_prob=value)
  with pytest.raises(ValueError, match=message):
    se.best_response_values("kuhn_poker", uniform, min_action_prob=value)


# ------------------------------------------------ strategies, in every form
def _as_form(tree, array, form):
  """``array`` (any numbers) as a policy of the given form."""
  tabular = openspiel_policy.TabularPolicy(tree.game)
  tabular.action_probability_array = np.array(array, dtype=np.float64)
  if form == "array":
    return array
  if form == "tabular":
    return tabular
  if form == "dict":
    return tabular.to_dict()
  if form == "callable":
    return lambda state: {
        a: tabular.policy_for_key(state.information_state_string())[a]
        for a in state.legal_actions()}
  if form == "pyspiel":
    return pyspiel.TabularPolicy(tabular.to_dict())
  raise AssertionError(form)


NOT_STRATEGIES = {
    "fives": (np.full(KUHN_SHAPE, 5.0), "do not sum to 1"),
    "zeros": (np.zeros(KUHN_SHAPE), "do not sum to 1"),
    "nan": (np.full(KUHN_SHAPE, np.nan), "a value that is not finite"),
    "negative": (np.tile([1.5, -0.5], (12, 1)), "a negative value"),
    "infinite": (np.tile([np.inf, 0.0], (12, 1)), "a value that is not finite"),
}
EVALUATORS = {
    "nash_conv": lambda game, p: se.nash_conv(game, p),
    "exploitability": lambda game, p: se.exploitability(game, p),
    "expected_values": lambda game, p: se.expected_values(game, p),
    "best_response_values": lambda game, p: se.best_response_values(game, p),
    "head_to_head": lambda game, p: se.head_to_head(
        game, p, compile_game(game).uniform_policy()),
    "head_to_head_matrix": lambda game, p: se.head_to_head_matrix(
        game, {"a": p}),
    "sequential_gap": lambda game, p: se.sequential_gap(game, p),
}
NAMES = {"head_to_head": "policy_a", "head_to_head_matrix": r"policies\['a'\]"}


@pytest.mark.parametrize("form", ["array", "tabular", "dict", "callable",
                                  "pyspiel"])
@pytest.mark.parametrize("bad", sorted(NOT_STRATEGIES))
@pytest.mark.parametrize("evaluator", sorted(EVALUATORS))
def test_evaluators_score_strategies_only(evaluator, bad, form):
  tree = compile_game("kuhn_poker")
  array, problem = NOT_STRATEGIES[bad]
  name = NAMES.get(evaluator, "policy")
  with pytest.raises(ValueError, match=f"{name} is not a strategy: at "
                     f"infoset '0' \\(row 0\\) it has .*{problem}"):
    EVALUATORS[evaluator]("kuhn_poker", _as_form(tree, array, form))


def test_mass_on_an_illegal_action_is_refused():
  tree = compile_game("leduc_poker")
  strategy = tree.uniform_policy()
  row = int(np.flatnonzero(~tree.infoset_legal.all(axis=1))[0])
  illegal = int(np.flatnonzero(~tree.infoset_legal[row])[0])
  strategy[row] = 0.0
  strategy[row, illegal] = 1.0
  with pytest.raises(ValueError, match="probability on an illegal action"):
    se.nash_conv(tree, strategy)


def test_rows_within_the_tolerance_are_strategies():
  tree = compile_game("kuhn_poker")
  strategy = tree.uniform_policy() + 4e-7
  assert se.nash_conv(tree, strategy) == pytest.approx(
      se.nash_conv(tree, tree.uniform_policy()), abs=1e-5)
  check_strategy(tree, strategy)
  with pytest.raises(ValueError, match="do not sum to 1"):
    check_strategy(tree, tree.uniform_policy() + 1e-5)


@pytest.mark.parametrize("form", ["dict", "callable"])
def test_policies_naming_illegal_or_unknown_actions(form):
  leduc = compile_game("leduc_poker")
  row = int(np.flatnonzero(~leduc.infoset_legal.all(axis=1))[0])
  key = leduc.infoset_keys[row]
  illegal = int(np.flatnonzero(~leduc.infoset_legal[row])[0])
  legal = np.flatnonzero(leduc.infoset_legal[row]).tolist()
  table = {k: [(int(a), 1.0 / leduc.infoset_num_actions[r])
               for a in np.flatnonzero(leduc.infoset_legal[r])]
           for r, k in enumerate(leduc.infoset_keys)}
  table[key] = [(illegal, 1.0)]
  policy = (table if form == "dict" else
            lambda state: table[state.information_state_string()])
  with pytest.raises(ValueError, match=re.escape(
      f"policy at infoset '{key}' gives probability 1.0 to action {illegal}, "
      f"which is not legal there; the legal actions are {legal}.")):
    policy_to_array(leduc, policy)
  table[key] = [(7, 1.0)]
  with pytest.raises(ValueError, match=r"action 7, which is not an action id "
                     r"\(0..2\)"):
    policy_to_array(leduc, policy)
  table[key] = [("Call", 1.0)]
  with pytest.raises(ValueError, match="action 'Call', which is not an action"):
    se.nash_conv(leduc, policy)
  table[key] = [(legal[0], "half")]
  with pytest.raises(ValueError, match="probability 'half', which is not a "
                     "number"):
    policy_to_array(leduc, policy)
  table[key] = 0.5
  with pytest.raises(ValueError,
                     match=re.escape(f"policy at infoset '{key}' must give")):
    policy_to_array(leduc, policy)


def test_openspiel_tables_listing_illegal_actions_at_zero_are_accepted():
  leduc = compile_game("leduc_poker")
  table = openspiel_policy.TabularPolicy(leduc.game).to_dict()
  np.testing.assert_array_equal(policy_to_array(leduc, table),
                                leduc.uniform_policy())


@pytest.mark.parametrize("solver_class", [XFPSolver, GXFPSolver, BUFPSolver])
def test_initial_policy_must_be_a_strategy(solver_class):
  tree = compile_game("kuhn_poker")
  for array, problem in NOT_STRATEGIES.values():
    with pytest.raises(ValueError, match=f"initial_policy is not a strategy.*"
                       f"{problem}"):
      solver_class(tree, initial_policy=array)
  with pytest.raises(ValueError, match="initial_policy is not a strategy"):
    solver_class(tree, initial_policy=_as_form(tree, np.zeros(KUHN_SHAPE),
                                               "tabular"))


# ---------------------------------------------- zero-sum and general-sum
def test_exploitability_refuses_what_openspiel_refuses():
  game = pyspiel.load_game("tiny_hanabi")
  uniform = openspiel_policy.UniformRandomPolicy(game)
  with pytest.raises(ValueError, match="must be constant- or zero-sum"):
    openspiel_exploit.exploitability(game, uniform)
  with pytest.raises(pyspiel.SpielError, match="zero- or constant-sum"):
    pyspiel.exploitability(game, pyspiel.UniformRandomPolicy(game))
  with pytest.raises(ValueError, match=(
      r"exploitability is defined for zero-sum and constant-sum games only "
      r"\(as OpenSpiel's\); tiny_hanabi\(\) has IDENTICAL utility. Use "
      "nash_conv")):
    se.exploitability(game, uniform)


def test_nash_conv_stays_defined_for_general_sum_games_as_openspiels():
  game = pyspiel.load_game("tiny_hanabi")
  tree = compile_game(game)
  rng = np.random.default_rng(0)
  raw = np.where(tree.infoset_legal, rng.random(tree.infoset_legal.shape), 0)
  strategy = raw / raw.sum(axis=1, keepdims=True)
  tabular = openspiel_policy.TabularPolicy(game)
  tabular.action_probability_array = strategy
  assert se.nash_conv(game, strategy) == pytest.approx(
      openspiel_exploit.nash_conv(game, tabular), abs=1e-9)


def test_three_player_exploitability_is_nash_conv_over_three_as_cpp():
  game = pyspiel.load_game("kuhn_poker(players=3)")
  uniform = compile_game(game).uniform_policy()
  assert se.exploitability(game, uniform) == pytest.approx(
      pyspiel.exploitability(game, pyspiel.UniformRandomPolicy(game)),
      abs=1e-12)


# ------------------------------------------------------------- head to head
@pytest.mark.parametrize("seat", [2, -1, True, 0.0, "0"])
def test_head_to_head_seat_is_checked(seat):
  uniform = compile_game("kuhn_poker").uniform_policy()
  with pytest.raises(ValueError, match="seat must be in 0..1"):
    se.head_to_head("kuhn_poker", uniform, uniform, seat=seat)
  with pytest.raises(ValueError, match="seat must be in 0..1"):
    se.head_to_head_matrix("kuhn_poker", {"u": uniform}, seat=seat)


def test_head_to_head_matrix_needs_a_dict():
  uniform = compile_game("kuhn_poker").uniform_policy()
  with pytest.raises(ValueError, match=r"policies must be a dict \{name: "
                     "policy\\}; got list"):
    se.head_to_head_matrix("kuhn_poker", [uniform])
