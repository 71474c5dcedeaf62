"""MMDSolver against OpenSpiel's MMDDilatedEnt, iterate for iterate."""

import math
import pickle

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import exploitability as openspiel_exploitability
from open_spiel.python.algorithms import mmd_dilated
from open_spiel.python.algorithms import sequence_form_utils

from spiel_ext import exploitability
from spiel_ext.algorithms.base import Solver
from spiel_ext.algorithms.mmd import (MMDConfig, MMDSolver,
                                      sequence_form_payoff_bound)
from spiel_ext.engine import compile_game, dilated_passes
from spiel_ext.policy import policy_to_array

GOOFSPIEL = "turn_based_simultaneous_game(game=goofspiel(num_cards=3))"
# (alpha, stepsize): OpenSpiel's mmd_example default (stepsize alpha /
# max|A|^2), another regularised run, and mirror descent ascent as in
# OpenSpiel's mmd_nash_example.
SETTINGS = [(0.05, None), (0.2, 2.0), (0.0, 1.0)]
SETTING_IDS = ["default", "alpha0.2-step2", "alpha0-step1"]
ITERATIONS = 50

# OpenSpiel's MMDDilatedEnt(kuhn_poker, alpha=0.05) (default stepsize 0.45):
# NashConv of get_policies() after 1000 update_sequences() calls, as
# OpenSpiel's exploitability.nash_conv computes it (OpenSpiel 1.6,
# reproduced by test_last_iterate_bound_is_openspiel_s below).
OPENSPIEL_KUHN_LAST_ITERATE_NASH_CONV_1000 = 0.09245456359524179

# The kuhn_poker alpha-QRE for alpha = 0.1 in OpenSpiel's sequence order,
# from OpenSpiel's mmd_dilated_test (computed there with Gambit).
GAMBIT_KUHN_QRE_ALPHA_01 = [
    np.array([1., 0.75364232, 0.64695966, 0.10668266, 0.24635768, 0.70309809,
              0.25609184, 0.44700625, 0.29690191, 0.47546799, 0.01290797,
              0.46256001, 0.52453201]),
    np.array([1., 0.63415944, 0.36584056, 0.41154828, 0.58845172, 0.28438486,
              0.71561514, 0.0620185, 0.9379815, 0.65005434, 0.34994566,
              0.79722767, 0.20277233])]


def _as_array(solver, policy):
  return policy_to_array(solver.tree, policy)


def _assert_iterates_match(ours, reference):
  np.testing.assert_allclose(ours.current_strategy(),
                             _as_array(ours, reference.get_policies()),
                             rtol=0, atol=1e-9)
  np.testing.assert_allclose(ours.average_strategy(),
                             _as_array(ours, reference.get_avg_policies()),
                             rtol=0, atol=1e-9)


def _run_both(game_name, alpha, stepsize, iterations, compare_every):
  game = pyspiel.load_game(game_name)
  ours = MMDSolver(game, alpha, stepsize)
  reference = mmd_dilated.MMDDilatedEnt(game, alpha, stepsize)
  assert ours.stepsize == pytest.approx(reference.stepsize, rel=1e-12)
  for iteration in range(1, iterations + 1):
    ours.evaluate_and_update_policy()
    reference.update_sequences()
    if iteration % compare_every == 0 or iteration == iterations:
      _assert_iterates_match(ours, reference)
  return game, ours, reference


# ------------------------------------------------ iterate for iterate
@pytest.mark.parametrize("alpha,stepsize", SETTINGS, ids=SETTING_IDS)
def test_iterates_match_openspiel_kuhn(alpha, stepsize):
  _run_both("kuhn_poker", alpha, stepsize, ITERATIONS, compare_every=1)


def test_iterates_match_openspiel_goofspiel():
  # Turn-based goofspiel: chance, and infosets that hide the other's move.
  _run_both(GOOFSPIEL, 0.05, None, ITERATIONS, compare_every=10)


@pytest.mark.parametrize("alpha,stepsize", SETTINGS[:1], ids=SETTING_IDS[:1])
def test_iterates_match_openspiel_leduc_quick(alpha, stepsize):
  # OpenSpiel's Python MMD takes ~0.3 s per Leduc iteration: the 50
  # iterations run in the slow test below.
  _run_both("leduc_poker", alpha, stepsize, 3, compare_every=1)


@pytest.mark.slow
@pytest.mark.parametrize("alpha,stepsize", SETTINGS[:2], ids=SETTING_IDS[:2])
def test_iterates_match_openspiel_leduc(alpha, stepsize):
  _run_both("leduc_poker", alpha, stepsize, ITERATIONS, compare_every=10)


def test_gap_matches_openspiel():
  _, ours, reference = _run_both("kuhn_poker", 0.05, None, 20, 20)
  assert ours.get_gap() == pytest.approx(reference.get_gap(), abs=1e-12)
  assert ours.gap() > 0.0
  with pytest.raises(ValueError, match="alpha > 0"):
    MMDSolver("kuhn_poker", 0.0, 1.0).gap()


def test_stepsize_default_is_openspiel_s():
  for name in ("kuhn_poker", "leduc_poker", GOOFSPIEL):
    game = pyspiel.load_game(name)
    _, _, _, _, payoff, _ = sequence_form_utils.construct_vars(game)
    bound = sequence_form_payoff_bound(compile_game(game))
    assert bound == pytest.approx(np.abs(payoff[0]).max(), rel=1e-12)


# --------------------------------------------------------------- drop-in
def test_openspiel_nash_conv_accepts_both_policies():
  game, ours, reference = _run_both("kuhn_poker", 0.05, None, ITERATIONS,
                                    ITERATIONS)
  for policy, reference_policy in (
      (ours.current_policy(), reference.get_policies()),
      (ours.average_policy(), reference.get_avg_policies())):
    theirs = openspiel_exploitability.nash_conv(game, policy)
    assert theirs == pytest.approx(
        openspiel_exploitability.nash_conv(game, reference_policy), abs=1e-9)
    assert exploitability.nash_conv(game, policy) == pytest.approx(
        theirs, abs=1e-9)
    assert pyspiel.nash_conv(game, policy) == pytest.approx(theirs, abs=1e-9)


def test_gambit_qre_is_the_limit():
  game = pyspiel.load_game("kuhn_poker")
  (_, infoset_actions_to_seq, infoset_action_maps, _, _,
   _) = sequence_form_utils.construct_vars(game)
  qre = sequence_form_utils.sequence_to_policy(
      GAMBIT_KUHN_QRE_ALPHA_01, game, infoset_actions_to_seq,
      infoset_action_maps)
  solver = MMDSolver(game, 0.1)
  for _ in range(500):
    solver.evaluate_and_update_policy()
  np.testing.assert_allclose(solver.current_strategy(),
                             _as_array(solver, qre), atol=1e-6)
  assert solver.gap() == pytest.approx(0.0, abs=1e-12)


def test_last_iterate_converges():
  game = pyspiel.load_game("kuhn_poker")
  solver = MMDSolver(game)  # alpha 0.05, OpenSpiel's default stepsize.
  gaps = {}
  for iteration in range(1, 1001):
    solver.evaluate_and_update_policy()
    if iteration in (10, 100, 1000):
      gaps[iteration] = solver.gap()
  nash_conv = openspiel_exploitability.nash_conv(game,
                                                 solver.current_policy())
  assert (nash_conv <= OPENSPIEL_KUHN_LAST_ITERATE_NASH_CONV_1000 *
          (1 + 1e-9) + 1e-12)
  # The last iterate converges (to the alpha-QRE, whose NashConv is not 0):
  # the regularised gap falls to 0 and the iterate stops moving.
  assert gaps[1000] < 1e-12 and gaps[1000] < gaps[100] < gaps[10]
  last = solver.current_strategy()
  solver.evaluate_and_update_policy()
  np.testing.assert_allclose(solver.current_strategy(), last, atol=1e-12)


@pytest.mark.slow
def test_last_iterate_bound_is_openspiel_s():
  game = pyspiel.load_game("kuhn_poker")
  reference = mmd_dilated.MMDDilatedEnt(game, 0.05)
  for _ in range(1000):
    reference.update_sequences()
  assert openspiel_exploitability.nash_conv(
      game, reference.get_policies()) == pytest.approx(
          OPENSPIEL_KUHN_LAST_ITERATE_NASH_CONV_1000, rel=1e-9)


# ---------------------------------------------------------- the contract
def test_constructor_forms_agree():
  game = pyspiel.load_game("kuhn_poker")
  config = MMDConfig(alpha=0.2, stepsize=2.0)
  for solver in (MMDSolver(game, 0.2, 2.0), MMDSolver(game, 0.2, stepsize=2.0),
                 MMDSolver(game, alpha=0.2, stepsize=2.0),
                 MMDSolver(game, config), MMDSolver(game, config=config),
                 MMDSolver("kuhn_poker", config=MMDConfig(alpha=0.3),
                           alpha=0.2, stepsize=2.0)):
    assert solver.config == config
    assert (solver.alpha, solver.stepsize) == (0.2, 2.0)
  assert MMDSolver(game).config == MMDConfig(alpha=0.05, stepsize=None)
  assert MMDSolver(game).stepsize == pytest.approx(0.45)
  with pytest.raises(TypeError, match="at most 2 positional"):
    MMDSolver(game, 0.2, 2.0, False)
  with pytest.raises(TypeError, match="multiple values for argument 'alpha'"):
    MMDSolver(game, 0.2, alpha=0.3)


def test_policies_and_aliases():
  solver = MMDSolver("kuhn_poker")
  current = solver.current_policy()
  first_average = solver.average_policy()
  solver.iteration()
  solver.update_sequences()
  assert solver.iteration_count == 2
  assert solver.progress().iterations == 2
  assert solver.current_policy() is current
  np.testing.assert_array_equal(current.action_probability_array,
                                solver.current_strategy())
  np.testing.assert_array_equal(solver.get_policies().action_probability_array,
                                solver.current_strategy())
  assert solver.get_policies() is not current
  np.testing.assert_array_equal(
      solver.get_avg_policies().action_probability_array,
      solver.average_strategy())
  # A kept average stays the average of its iteration.
  np.testing.assert_array_equal(first_average.action_probability_array,
                                solver.tree.uniform_policy())


def test_alternating_updates_respond_to_the_new_strategy():
  game = pyspiel.load_game("kuhn_poker")
  simultaneous = MMDSolver(game, 0.2, 2.0)
  alternating = MMDSolver(game, 0.2, 2.0, alternating_updates=True)
  simultaneous.iteration()
  alternating.iteration()
  rows = simultaneous.tree.player_rows
  np.testing.assert_array_equal(alternating.current_strategy()[rows[0]],
                                simultaneous.current_strategy()[rows[0]])
  assert not np.allclose(alternating.current_strategy()[rows[1]],
                         simultaneous.current_strategy()[rows[1]])
  for _ in range(300):
    alternating.iteration()
  assert alternating.gap() < 1e-6


def test_probabilities_that_underflow_stay_finite():
  # A huge step drives probabilities to exactly 0 (OpenSpiel's iterate
  # turns into NaN there); ours stays a strategy.
  solver = MMDSolver("kuhn_poker", 0.0, 1e4)
  for _ in range(20):
    solver.iteration()
  current = solver.current_strategy()
  assert (current == 0.0).any()
  np.testing.assert_allclose(current.sum(axis=1), 1.0, rtol=1e-12)
  assert np.isfinite(solver.average_strategy()).all()


# ------------------------------------------------------------ checkpoints
@pytest.mark.parametrize("alpha,stepsize", SETTINGS[:2], ids=SETTING_IDS[:2])
def test_checkpoint_resumes_bit_identically(alpha, stepsize):
  ours = MMDSolver("leduc_poker", alpha, stepsize)
  for _ in range(5):
    ours.iteration()
  state = ours.state_dict()
  restored = MMDSolver("leduc_poker", ours.config)
  restored.load_state_dict(state)
  from_state = Solver.from_state_dict(state)
  unpickled = pickle.loads(pickle.dumps(ours))
  copies = (restored, from_state, unpickled)
  for _ in range(5):
    for solver in (ours,) + copies:
      solver.iteration()
  for solver in copies:
    assert solver.iteration_count == 10
    for name in MMDSolver._STATE_ARRAYS:  # pylint: disable=protected-access
      np.testing.assert_array_equal(getattr(solver, name), getattr(ours, name))
    np.testing.assert_array_equal(solver.average_strategy(),
                                  ours.average_strategy())


def test_checkpoint_of_another_config_is_refused():
  state = MMDSolver("kuhn_poker", 0.2, 2.0).state_dict()
  with pytest.raises(ValueError, match="stepsize"):
    MMDSolver("kuhn_poker", 0.2, 1.0).load_state_dict(state)


# ------------------------------------------------------------ refusals
def _one_line_error(error_type, parameter, **arguments):
  with pytest.raises(error_type) as caught:
    MMDSolver("kuhn_poker", **arguments)
  message = str(caught.value)
  assert "\n" not in message and parameter in message, message


@pytest.mark.parametrize("alpha", [-0.1, -1e-300, math.nan, math.inf,
                                   -math.inf, "0.1", True, None, [0.1]])
def test_bad_alpha_is_refused(alpha):
  _one_line_error(ValueError, "alpha", alpha=alpha, stepsize=1.0)


@pytest.mark.parametrize("stepsize", [0, 0.0, -1.0, math.nan, math.inf, "1",
                                      True, [1.0]])
def test_bad_stepsize_is_refused(stepsize):
  _one_line_error(ValueError, "stepsize", stepsize=stepsize)


def test_steps_that_would_overflow_are_refused():
  _one_line_error(ValueError, "stepsize", stepsize=1e250)
  _one_line_error(ValueError, "alpha", alpha=1e300)
  assert MMDSolver("kuhn_poker", 1e-300).stepsize == pytest.approx(9e-300)


def test_zero_alpha_needs_a_stepsize():
  _one_line_error(ValueError, "stepsize", alpha=0.0)
  _one_line_error(ValueError, "stepsize", alpha=0)
  assert MMDSolver("kuhn_poker", 0, 1).stepsize == 1.0


def test_other_bad_options_are_refused():
  _one_line_error(TypeError, "alternating_updates", alternating_updates="no")
  _one_line_error(TypeError, "seed", seed=1.5)
  _one_line_error(TypeError, "temperature", temperature=1.0)
  with pytest.raises(ValueError, match="alpha"):
    MMDConfig(alpha=-1.0)


@pytest.mark.parametrize("game_name,problem", [
    ("kuhn_poker(players=3)", "3 players"),
    ("first_sealed_auction(max_value=3)", "GENERAL_SUM"),
    ("turn_based_simultaneous_game(game=matrix_pd())", "GENERAL_SUM"),
])
def test_games_that_are_not_two_player_zero_sum_are_refused(game_name,
                                                            problem):
  with pytest.raises(ValueError, match="two-player zero-sum") as caught:
    MMDSolver(game_name)
  assert problem in str(caught.value)
  assert "\n" not in str(caught.value)


# ------------------------------------------------------------ kernels
def test_prox_of_a_single_decision_is_the_softmax():
  legal = np.ones((1, 3), dtype=bool)
  gradient = np.array([[0.5, -1.0, 2.0]])
  policy = np.empty((1, 3))
  root = dilated_passes.dilated_entropy_prox(
      gradient.copy(), legal, np.array([-1]), 0, 1, policy)
  expected = np.exp(-gradient[0]) / np.exp(-gradient[0]).sum()
  np.testing.assert_allclose(policy[0], expected, rtol=1e-15)
  assert root == pytest.approx(-np.log(np.exp(-gradient[0]).sum()),
                               rel=1e-14)
