"""Every public solver and learner refuses a bad argument at once, by name.

Property tests (Hypothesis): for each public constructor, any value of any
of its parameters (huge, negative and zero ints, NaN, infinities, -0.0,
1e308, 5e-324, strings, None, bools, numpy scalars) is either refused with a
ValueError or TypeError whose one-line message names the parameter, or the
solver runs 3 iterations without a floating-point overflow, invalid
operation or division by zero and its average policy is a strategy (finite
probabilities summing to 1 over the legal actions of every state). Each
example runs under an alarm, so that a hang fails instead of stalling.

Regression tests: DCFR's gamma = 1e308 (once accepted, then overflowing),
the size refusal of a game with 10^7 chance outcomes per node (once over a
minute of enumeration), and unknown game strings (once OpenSpiel's list of
every registered game).
"""

from __future__ import annotations

import contextlib
import inspect
import math
import signal
import threading
import warnings

import numpy as np
import pyspiel
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis.errors import InvalidArgument
from hypothesis import strategies as st

import spiel_ext  # pylint: disable=unused-import
from spiel_ext import algorithms
from spiel_ext.algorithms import learners
from spiel_ext.algorithms.pref_cfr import (MAX_DEGREE,
                                           preference_best_response,
                                           preference_regret_matching)
from spiel_ext.algorithms.regret_rules import (PlainRegrets, PowerAveraging,
                                               RegretMatching)
from spiel_ext.engine import compile_game, estimate_num_histories, load_game
from spiel_ext.engine.admission import SizeLimit
from spiel_ext.engine.compiler import compile_tree
from spiel_ext.experiments.solvers import game_string
from spiel_ext.games.unknown_env import true_game_string

KUHN = "kuhn_poker"
KUHN_SHAPE = (12, 2)
UNKNOWN_KUHN = true_game_string("kuhn_poker", 2)
# Seconds an example may take before it counts as a hang.
EXAMPLE_TIME_LIMIT = 30


# Each public constructor with a valid value for every parameter (the
# value the fuzzed parameter replaces). Pref-CFR runs on DCFR so that its
# dcfr_alpha, dcfr_beta and dcfr_gamma are used; FictitiousPlaySolver runs
# GXFP's pair of rules.
CONSTRUCTORS = {
    "CFRSolver": (algorithms.CFRSolver, dict(
        game=KUHN, config=None, alternating_updates=True, random_init=False,
        init_scale=1.0, seed=0)),
    "CFRPlusSolver": (algorithms.CFRPlusSolver, dict(
        game=KUHN, config=None, alternating_updates=True, random_init=False,
        init_scale=1.0, seed=0)),
    "DCFRSolver": (algorithms.DCFRSolver, dict(
        game=KUHN, config=None, alpha=1.5, beta=0.0, gamma=2.0,
        alternating_updates=True, random_init=False, init_scale=1.0, seed=0)),
    "LCFRSolver": (algorithms.LCFRSolver, dict(
        game=KUHN, config=None, alternating_updates=True, random_init=False,
        init_scale=1.0, seed=0)),
    "PCFRPlusSolver": (algorithms.PCFRPlusSolver, dict(
        game=KUHN, config=None, alternating_updates=True, random_init=True,
        init_scale=1.0, seed=0, averaging="quadratic")),
    "DCFRPlusSolver": (algorithms.DCFRPlusSolver, dict(
        game=KUHN, config=None, alternating_updates=True, random_init=True,
        init_scale=1.0, seed=0, alpha=1.5, gamma=4.0, discount_offset=1.0)),
    "PDCFRPlusSolver": (algorithms.PDCFRPlusSolver, dict(
        game=KUHN, config=None, alternating_updates=True, random_init=True,
        init_scale=1.0, seed=0, alpha=2.3, gamma=5.0)),
    "ExternalSamplingSolver": (algorithms.ExternalSamplingSolver, dict(
        game=KUHN, config=None, average_type="simple", seed=0)),
    "MMDSolver": (algorithms.MMDSolver, dict(
        game=KUHN, config=None, alpha=0.05, stepsize=None,
        alternating_updates=False, seed=0)),
    "ChanceSampledCFRSolver": (algorithms.ChanceSampledCFRSolver, dict(
        game=KUHN, config=None, alternating_updates=False,
        linear_averaging=True, correlated_chance=True, sampled_averaging=True,
        random_init=False, init_scale=1.0, seed=0)),
    "PrefCFRSolver": (algorithms.PrefCFRSolver, dict(
        game=KUHN, config=None, preference={"Bet": 5.0}, vulnerability=0.05,
        where=None, variant="rm", base="dcfr", dcfr_alpha=1.5, dcfr_beta=0.0,
        dcfr_gamma=2.0, vulnerability_unit="conditional",
        alternating_updates=True, random_init=True, init_scale=1.0, seed=0)),
    "RegretMinimizationSolver": (algorithms.RegretMinimizationSolver, dict(
        game=KUHN, config=None, regret_rule=PlainRegrets(),
        averaging=PowerAveraging(1.0), strategy_rule=RegretMatching(),
        alternating_updates=True, random_init=True, init_scale=1.0, seed=0)),
    "XFPSolver": (algorithms.XFPSolver, dict(
        game=KUHN, config=None, save_oracles=False, alternating_updates=False,
        renormalize=False, min_action_prob=0.0, initial_policy="random",
        tie_break="even", first_step_one=True, seed=0)),
    "GXFPSolver": (algorithms.GXFPSolver, dict(
        game=KUHN, config=None, alternating_updates=False,
        integer_counting=True, tie_break="lowest", min_action_prob=0.0,
        initial_policy="random", seed=0)),
    "BUFPSolver": (algorithms.BUFPSolver, dict(
        game=KUHN, config=None, stepsize="ef", continuation=None,
        alternating_updates=False, tie_break="lowest", first_step_one=True,
        min_action_prob=0.0, initial_policy="random", seed=0)),
    "FictitiousPlaySolver": (algorithms.FictitiousPlaySolver, dict(
        game=KUHN, config=None, decision="best_decision", step="empirical",
        renormalize=False, continuation="average", alternating_updates=False,
        initial_policy="uniform", min_action_prob=0.0, tie_break="lowest",
        first_step_one=False, seed=0)),
    "OpenSpielCFRAdapter": (algorithms.OpenSpielCFRAdapter, dict(
        game=KUHN, config=None, kind="cfr")),
    "OpenSpielCppCFRAdapter": (algorithms.OpenSpielCppCFRAdapter, dict(
        game=KUHN, config=None, kind="cfr+")),
    "NaiveCFRLearner": (learners.NaiveCFRLearner, dict(
        game=UNKNOWN_KUHN, config=None, model="draw", play="average",
        base="cfr", alternating_updates=False, seed=0)),
    "RandomLearner": (learners.RandomLearner, dict(
        game=UNKNOWN_KUHN, config=None, model="draw", base="cfr",
        alternating_updates=False, seed=0)),
    "PSRLCFRLearner": (learners.PSRLCFRLearner, dict(
        game=UNKNOWN_KUHN, config=None, exploration="default", base="dcfr",
        alternating_updates=False, seed=0)),
    "VCFRLearner": (learners.VCFRLearner, dict(
        game=UNKNOWN_KUHN, config=None, design="exploration_draw",
        eta=0.005, players="zero_sum", normalisation="median",
        information="conjugate", kl_every=10, exploration=None, base="cfr",
        alternating_updates=False, seed=0)),
    "PosteriorFSPLearner": (learners.PosteriorFSPLearner, dict(
        game=UNKNOWN_KUHN, config=None, seed=0)),
    "PosteriorVFSPLearner": (learners.PosteriorVFSPLearner, dict(
        game=UNKNOWN_KUHN, config=None, eta=0.005, players="zero_sum",
        normalisation="median", information="conjugate", kl_every=10,
        seed=0)),
    "OutcomeSamplingLearner": (learners.OutcomeSamplingLearner, dict(
        game=UNKNOWN_KUHN, config=None, epsilon=0.1, seed=0)),
    "FSPLearner": (learners.FSPLearner, dict(
        game=UNKNOWN_KUHN, config=None, epsilon=0.1, learning_rate=0.1,
        buffer_size=2**14, batch_size=64, seed=0)),
    "VFSPLearner": (learners.VFSPLearner, dict(
        game=UNKNOWN_KUHN, config=None, eta=0.005, epsilon=0.1,
        learning_rate=0.1, buffer_size=2**14, batch_size=64, seed=0)),
}

# ------------------------------------------------------------ the values
ODD_FLOATS = [math.nan, math.inf, -math.inf, -0.0, 0.0, 1e308, -1e308,
              5e-324, -5e-324, 1e-300, 1e-7, 1e-6, 1e-3, 0.01, 0.1, 0.5, 1.0,
              1.5, 2.0, 3.0, 1000.0, 1000.5, 1e100, 1e101, 1e18]
ODD_INTS = [0, 1, -1, 2, 3, 10, 64, 2**14, 2**16, 2**16 + 1, 2**22,
            2**22 + 1, 2**31, 2**63 - 1, 2**63, 2**64, -2**63, 10**18, 10**400]
# Strings some parameter accepts (so that they are sometimes valid).
CHOICES = ["cfr", "cfr+", "dcfr", "rm", "br", "uniform", "random", "ef", "x",
           "best_decision", "belief", "realization", "empirical", "counting",
           "lowest", "even", "average", "best_response", "conjugate", "Bet",
           "conditional", "reach_weighted", "draw", "mean", "current",
           "default", "br_dirc", "cfr_draw", "exploration_draw",
           "both_draws", "zero_sum", "both", "median", "none", "linear",
           "quadratic", "simple", "full"]
NUMPY_SCALARS = [np.float64(math.nan), np.float64(1e308), np.float32(2.0),
                 np.int64(-1), np.int64(3), np.uint64(2**63), np.bool_(True),
                 np.bool_(False)]
ODD_VALUES = st.one_of(
    st.sampled_from(ODD_FLOATS), st.floats(), st.sampled_from(ODD_INTS),
    st.integers(), st.booleans(), st.none(), st.sampled_from(CHOICES),
    st.text(max_size=6), st.sampled_from(NUMPY_SCALARS))


def _floats(low, high, **kwargs):
  return st.floats(low, high, allow_nan=False, **kwargs)


# Values inside the documented ranges (extremes included, which Hypothesis
# favours), so that examples also run at the edges; and container values
# wrapping odd ones.
EXTRA_VALUES = {
    "alpha": _floats(None, None, allow_infinity=False),
    "beta": _floats(None, None, allow_infinity=False),
    "gamma": _floats(0.0, 1000.0),
    "dcfr_alpha": _floats(None, None, allow_infinity=False),
    "dcfr_beta": _floats(None, None, allow_infinity=False),
    "dcfr_gamma": _floats(0.0, 1000.0),
    "init_scale": _floats(0.0, 1e6, exclude_min=True),
    "discount_offset": _floats(0.0, 1e6, exclude_min=True),
    "preference": st.one_of(ODD_VALUES, _floats(1.0, 1e100)).map(
        lambda v: {"Bet": v}),
    "vulnerability": st.one_of(
        _floats(0.0, 1e100), st.one_of(ODD_VALUES, _floats(0.0, 1e100)).map(
            lambda v: {0: v})),
    "seed": st.integers(0, 2**63 - 1),
    "min_action_prob": _floats(0.0, 0.5, exclude_max=True),
    "eta": _floats(0.0, 1e100),
    "epsilon": _floats(1e-6, 1.0),
    "learning_rate": _floats(0.0, 1.0, exclude_min=True),
    "kl_every": st.integers(1, 2**63 - 1),
    "buffer_size": st.integers(1, 2**22),
    "batch_size": st.integers(1, 2**16),
}
# Bad game strings, and text that is not a registered name (a registered
# one such as "go" would be a valid, if uncompilable, game).
BAD_GAMES = ["no_such_game", "leduc_pokr", "leduc_poker(players=99)",
             "leduc_poker(nope=1)", "turn_based_simultaneous_game(game=nope())",
             "spiel_ext_nope", "", "(", "kuhn_poker(", "kuhn_poker)",
             "kuhn_poker (players=2)", "matrix_rps", "kuhn_poker(players=x)"]
_REGISTERED = frozenset(pyspiel.registered_names())
GAME_VALUES = st.one_of(
    st.sampled_from(BAD_GAMES),
    ODD_VALUES.filter(lambda v: not isinstance(v, str) or
                      v.strip().split("(")[0] not in _REGISTERED))


def _values(name: str):
  if name == "game":
    return GAME_VALUES
  if name in EXTRA_VALUES:
    return st.one_of(ODD_VALUES, EXTRA_VALUES[name])
  return ODD_VALUES


# ------------------------------------------------------------- the checks
class _Hang(Exception):
  pass


@contextlib.contextmanager
def _time_limit(seconds: int):
  """Raises _Hang in the block after ``seconds`` (main thread, POSIX)."""
  if (not hasattr(signal, "SIGALRM") or
      threading.current_thread() is not threading.main_thread()):
    yield
    return

  def _alarm(_signum, _frame):
    raise _Hang(f"no result within {seconds} s")

  previous = signal.signal(signal.SIGALRM, _alarm)
  signal.alarm(seconds)
  try:
    yield
  finally:
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


def _check_strategy(policy) -> None:
  """``policy`` (a TabularPolicy) is finite and sums to 1 over each state's
  legal actions, 0 elsewhere."""
  probabilities = policy.action_probability_array
  legal = policy.legal_actions_mask.astype(bool)
  assert np.isfinite(probabilities).all()
  assert (probabilities >= 0).all()
  assert np.all(probabilities[~legal] == 0)
  np.testing.assert_allclose(probabilities.sum(axis=1), 1.0, atol=1e-9)


def _count(outcome: str) -> None:
  """Counts ``outcome`` in Hypothesis's statistics (inside a property)."""
  try:
    event(outcome)
  except InvalidArgument:  # Not inside a Hypothesis test.
    pass


def _construct_or_run(label: str, arguments: dict, fuzzed: set[str]) -> None:
  """Builds ``label`` with ``arguments``: a refusal must name one of the
  ``fuzzed`` parameters in one line; otherwise 3 iterations must run
  without overflow, NaN or division by zero and leave a strategy."""
  factory, _ = CONSTRUCTORS[label]
  with _time_limit(EXAMPLE_TIME_LIMIT), warnings.catch_warnings():
    warnings.simplefilter("error", RuntimeWarning)
    try:
      solver = factory(**arguments)
    except (ValueError, TypeError) as error:
      message = str(error)
      assert any(name in message for name in fuzzed), (
          f"{label}({arguments}) refused without naming {sorted(fuzzed)}: "
          f"{message}")
      assert "\n" not in message and len(message) < 500, message
      assert "Available games" not in message, message
      _count("refused")
      return
    _count("ran")
    with np.errstate(over="raise", invalid="raise", divide="raise"):
      for _ in range(3):
        solver.evaluate_and_update_policy()
      _check_strategy(solver.average_policy())


SETTINGS = settings(max_examples=100, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow,
                                           HealthCheck.filter_too_much])


@pytest.mark.parametrize("label", sorted(CONSTRUCTORS))
@SETTINGS
@given(data=st.data())
def test_any_one_argument_is_refused_by_name_or_runs_finitely(label, data):
  _, defaults = CONSTRUCTORS[label]
  name = data.draw(st.sampled_from(sorted(defaults)), label="parameter")
  value = data.draw(_values(name), label="value")
  _construct_or_run(label, dict(defaults, **{name: value}), {name})


@pytest.mark.parametrize("label", sorted(CONSTRUCTORS))
@settings(SETTINGS, max_examples=30)
@given(data=st.data())
def test_several_odd_arguments_are_refused_by_one_of_their_names(label,
                                                                 data):
  _, defaults = CONSTRUCTORS[label]
  names = data.draw(st.sets(st.sampled_from(sorted(defaults)), min_size=2),
                    label="parameters")
  arguments = dict(defaults)
  for name in sorted(names):
    arguments[name] = data.draw(_values(name), label=name)
  _construct_or_run(label, arguments, names)


def test_every_public_constructor_and_all_its_parameters_are_covered():
  """The table above lists every public solver and learner, with exactly
  the parameters of its constructor (a new one must be added here)."""
  public = {name for name in algorithms.__all__
            if inspect.isclass(getattr(algorithms, name)) and
            name != "FirstDecisions"}
  public |= {name for name, member in vars(learners).items()
             if inspect.isclass(member) and name.endswith("Learner") and
             name not in ("EpisodeLearner", "ModelBasedLearner")}
  assert public == set(CONSTRUCTORS)
  for label, (factory, defaults) in CONSTRUCTORS.items():
    parameters = set(inspect.signature(factory).parameters) - {"kwargs"}
    if label == "VFSPLearner":  # Its **kwargs are FSPLearner's.
      parameters |= set(inspect.signature(learners.FSPLearner).parameters)
    assert set(defaults) == parameters, label


@pytest.mark.parametrize("label", sorted(CONSTRUCTORS))
def test_the_valid_arguments_run(label):
  """The baseline of the property tests: the table's values are valid."""
  _, defaults = CONSTRUCTORS[label]
  _construct_or_run(label, dict(defaults), set())


# -------------------------------------------------------- bounds, exactly
@pytest.mark.parametrize("label,name,inside,outside", [
    ("DCFRSolver", "gamma", 1000.0, 1000.0001),
    ("DCFRSolver", "alpha", -1e308, math.inf),
    ("PrefCFRSolver", "vulnerability", 1e100, 1.0000001e100),
    ("PrefCFRSolver", "preference", {"Bet": 1e100}, {"Bet": 1.0000001e100}),
    ("CFRSolver", "seed", 2**63 - 1, 2**63),
    ("PrefCFRSolver", "init_scale", 1e6, 1.0000001e6),
    ("CFRSolver", "init_scale", 5e-324, 0.0),
    ("VCFRLearner", "eta", 1e100, 1.0000001e100),
    ("VCFRLearner", "kl_every", 2**63 - 1, 0),
    ("OutcomeSamplingLearner", "epsilon", 1e-6, 0.99e-6),
    ("FSPLearner", "buffer_size", 2**22, 2**22 + 1),
    ("FSPLearner", "batch_size", 2**16, 2**16 + 1),
    ("FSPLearner", "learning_rate", 1.0, 0.0),
])
def test_the_bounds_are_where_the_documentation_puts_them(label, name, inside,
                                                          outside):
  factory, defaults = CONSTRUCTORS[label]
  _construct_or_run(label, dict(defaults, **{name: inside}), set())
  with pytest.raises((ValueError, TypeError), match=name):
    factory(**dict(defaults, **{name: outside}))


# ----------------------------------------------------------- regressions
def test_dcfr_gamma_1e308_is_refused_naming_gamma():
  with pytest.raises(ValueError, match=r"^gamma must be a finite number in "
                     r"\[0, 1000\]; got 1e\+308\.$"):
    algorithms.DCFRSolver("kuhn_poker", gamma=1e308)
  with pytest.raises(ValueError, match=r"gamma must be .* in \[0, 1000\]"):
    algorithms.PrefCFRSolver("kuhn_poker", base="dcfr", gamma=1e308)


def test_preference_kernel_is_finite_at_the_largest_degrees():
  """delta = 1e100 on regrets of 1e98 (10^18 iterations of utilities near
  1e80) leaves a strategy; the 1e308 the bound refuses gives NaN."""
  legal = np.ones((1, 3), dtype=bool)
  regrets = np.array([[1e98, 1e98, 2.0]])
  out = np.empty((1, 3))
  for kernel in (preference_regret_matching, preference_best_response):
    kernel(regrets, legal, np.full((1, 3), MAX_DEGREE), np.zeros(1), out)
    assert np.isfinite(out).all() and out.sum() == pytest.approx(1.0)
  preference_regret_matching(regrets, legal, np.full((1, 3), 1e308),
                             np.zeros(1), out)
  assert np.isnan(out).any()


def test_largest_gamma_stays_finite_for_long_runs():
  """gamma = 1000 at iteration counts near 2^62: the average's weights and
  scaling exponents stay finite ints and floats."""
  solver = algorithms.DCFRSolver("kuhn_poker", gamma=1000.0)
  averaging = solver._averaging  # pylint: disable=protected-access
  for t in (1, 2, 3, 10**9, 10**9 + 1, 2**62):
    assert 0 <= averaging.scale_exponent(t) < 2**31
    assert 1.0 <= averaging.weight(t) < 2.0**502


def test_integer_counting_refuses_to_overflow_its_int64_counts():
  """Kuhn's counts are in units of 1/2: iteration 2^62 would pass 2^63."""
  solver = algorithms.GXFPSolver("kuhn_poker", integer_counting=True)
  solver.evaluate_and_update_policy()
  solver._iteration = 2**62 - 2  # pylint: disable=protected-access
  solver.evaluate_and_update_policy()  # Iteration 2^62 - 1 still fits.
  with pytest.raises(OverflowError, match=r"integer_counting: iteration "
                     r"4611686018427387904 would overflow the int64 counts"):
    solver.evaluate_and_update_policy()


def test_a_game_with_huge_chance_fan_out_is_refused_at_once():
  """spiel_ext_vnm_poker deals each player one of 10^7 hands: listing one
  chance node's outcomes takes seconds in Python, and the estimate once
  listed them on every walk (over a minute)."""
  game = "spiel_ext_vnm_poker(hands=10000000)"
  with pytest.raises(ValueError, match=r"too large to compile: at least "
                     r"[0-9.e+]+ histories, about .* GiB, above half the "
                     r"available memory"):
    compile_game(game)
  with pytest.raises(ValueError, match=r"at least .* histories, about "
                     r".* GiB, above the limit of max_histories=1000000\."):
    compile_game(game, max_histories=10**6)


@pytest.mark.parametrize("game,before", [
    ("kuhn_poker", 56.32), ("leduc_poker", 8144.2),
    ("spiel_ext_vnm_poker(hands=40)", 25625.0), ("liars_dice", 78308.44)])
def test_the_estimate_of_games_that_fit_is_unchanged(game, before):
  """The estimates the size check made before the change (same walks), and
  the same with an early stop above them."""
  loaded = load_game(game)
  plain = estimate_num_histories(loaded)
  assert plain == before
  assert estimate_num_histories(loaded, stop_above=plain) == plain
  stopped = estimate_num_histories(loaded, stop_above=plain / 1000)
  assert stopped > plain / 1000


def test_a_chance_node_above_the_limit_is_refused_before_its_children():
  game = load_game("spiel_ext_vnm_poker(hands=50)")
  # The walk of the game's states (its native build counts the whole tree
  # before building anything).
  with pytest.raises(ValueError, match=r"found at least 51 histories, .* "
                     r"max_histories=40\."):
    compile_tree(game, SizeLimit(40, 0.0), native=False)
  with pytest.raises(ValueError, match=r"it has [0-9.e+]+ histories, .* "
                     r"max_histories=40\."):
    compile_tree(game, SizeLimit(40, 0.0))


@pytest.mark.parametrize("bad", BAD_GAMES[:-2] + [
    "spiel_ext_unknown_env(game=nope(),env_seed=0)", " kuhn_poker)"])
def test_unknown_game_strings_give_one_line_without_the_game_list(bad, capfd):
  for load in (game_string, load_game, compile_game):
    with pytest.raises(ValueError) as refused:
      load(bad)
    message = str(refused.value)
    assert "\n" not in message and len(message) < 400, message
    assert "Available games" not in message and "zerosum" not in message
    assert message.startswith("cannot load game"), message
  printed = capfd.readouterr()
  assert printed.out == "" and printed.err == ""


def test_a_close_match_is_suggested():
  with pytest.raises(ValueError, match="unknown game 'leduc_pokr'; did you "
                     "mean 'leduc_poker'?"):
    game_string("leduc_pokr")
  assert game_string(" kuhn_poker ") == "kuhn_poker()"
