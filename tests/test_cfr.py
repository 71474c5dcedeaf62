"""CFR, CFR+ and DCFR iterate for iterate against OpenSpiel's solvers."""

import pickle

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import cfr, discounted_cfr

from conftest import slow_cases
from spiel_ext import eval as se
from spiel_ext.algorithms import (CFRPlusSolver, CFRSolver, DCFRSolver,
                                  LCFRSolver)
from spiel_ext.policy import policy_to_array

GOOFSPIEL = "turn_based_simultaneous_game(game=goofspiel(num_cards=3))"
GAMES = ["kuhn_poker", "leduc_poker", "kuhn_poker(players=3)", GOOFSPIEL]
PAIRS = [(CFRSolver, cfr.CFRSolver), (CFRPlusSolver, cfr.CFRPlusSolver),
         (DCFRSolver, discounted_cfr.DCFRSolver),
         (LCFRSolver, discounted_cfr.LCFRSolver)]
ITERATIONS = 50


def _load(name):
  return pyspiel.load_game(name)


@pytest.mark.parametrize("game_name", slow_cases(GAMES, "leduc_poker"))
@pytest.mark.parametrize("ours_class,reference_class", PAIRS,
                         ids=["cfr", "cfr+", "dcfr", "lcfr"])
def test_iterates_match_openspiel_python(game_name, ours_class,
                                         reference_class):
  game = _load(game_name)
  ours, reference = ours_class(game), reference_class(game)
  for _ in range(ITERATIONS):
    ours.evaluate_and_update_policy()
    reference.evaluate_and_update_policy()
    np.testing.assert_allclose(
        ours.current_policy().action_probability_array,
        reference.current_policy().action_probability_array, atol=1e-9)
    np.testing.assert_allclose(
        ours.average_policy().action_probability_array,
        reference.average_policy().action_probability_array, atol=1e-9)


@pytest.mark.parametrize("game_name", slow_cases(GAMES, "leduc_poker"))
@pytest.mark.parametrize("ours_class,cpp_class",
                         [(CFRSolver, pyspiel.CFRSolver),
                          (CFRPlusSolver, pyspiel.CFRPlusSolver)],
                         ids=["cfr", "cfr+"])
def test_iterates_match_openspiel_cpp(game_name, ours_class, cpp_class):
  game = _load(game_name)
  ours, reference = ours_class(game), cpp_class(game)
  for _ in range(ITERATIONS):
    ours.evaluate_and_update_policy()
    reference.evaluate_and_update_policy()
  np.testing.assert_allclose(
      ours.average_strategy(),
      policy_to_array(ours.tree, reference.average_policy()), atol=1e-9)
  np.testing.assert_allclose(
      ours.current_strategy(),
      policy_to_array(ours.tree, reference.current_policy()), atol=1e-9)


def test_imperfect_recall_strings_match_openspiel():
  """universal_poker forgets the board order; OpenSpiel's CFR then weights
  its average by summed history reaches, and so do we."""
  game = _load(
      "universal_poker(betting=limit,numPlayers=2,numRounds=3,blind=1 1,"
      "raiseSize=1 1 1,firstPlayer=1 1 1,maxRaises=1 1 1,numSuits=1,"
      "numRanks=4,numHoleCards=1,numBoardCards=0 1 1,stack=10 10)")
  ours, reference = CFRSolver(game), cfr.CFRSolver(game)
  assert not ours.tree.perfect_recall
  for _ in range(10):
    ours.iteration()
    reference.evaluate_and_update_policy()
  np.testing.assert_allclose(
      ours.average_policy().action_probability_array,
      reference.average_policy().action_probability_array, atol=1e-9)


def test_simultaneous_updates_match_openspiel():
  game = _load("kuhn_poker")
  ours = CFRSolver(game, alternating_updates=False)
  reference = cfr._CFRSolver(game, alternating_updates=False,  # pylint: disable=protected-access
                             linear_averaging=False,
                             regret_matching_plus=False)
  for _ in range(ITERATIONS):
    ours.iteration()
    reference.evaluate_and_update_policy()
  np.testing.assert_allclose(
      ours.average_policy().action_probability_array,
      reference.average_policy().action_probability_array, atol=1e-9)


def test_cfr_plus_converges_on_kuhn_to_the_game_value():
  game = _load("kuhn_poker")
  solver = CFRPlusSolver(game)
  for _ in range(1000):
    solver.iteration()
  average = solver.average_policy()
  assert se.nash_conv(game, average) < 1e-3
  assert se.expected_values(game, average)[0] == pytest.approx(-1 / 18,
                                                               abs=1e-3)


@pytest.mark.parametrize("solver_class", [CFRSolver, DCFRSolver])
def test_current_policy_is_updated_in_place_as_openspiels(solver_class):
  """OpenSpiel's current_policy() is one object the solver keeps updating;
  its average_policy() is a fresh object each call. Ours behave the same."""
  game = _load("kuhn_poker")
  reference_class = (cfr.CFRSolver if solver_class is CFRSolver else
                     discounted_cfr.DCFRSolver)
  ours, reference = solver_class(game), reference_class(game)
  kept, kept_reference = ours.current_policy(), reference.current_policy()
  assert reference.current_policy() is kept_reference
  assert ours.current_policy() is kept
  first_average = ours.average_policy()
  frozen = first_average.action_probability_array.copy()
  for _ in range(5):
    ours.evaluate_and_update_policy()
    reference.evaluate_and_update_policy()
  np.testing.assert_allclose(kept.action_probability_array,
                             kept_reference.action_probability_array,
                             atol=1e-12)
  assert not np.allclose(kept.action_probability_array, frozen)
  np.testing.assert_array_equal(first_average.action_probability_array, frozen)
  assert ours.average_policy() is not ours.average_policy()


def test_current_policy_follows_a_restored_checkpoint():
  solver = CFRSolver("kuhn_poker")
  kept = solver.current_policy()
  other = CFRSolver("kuhn_poker")
  for _ in range(3):
    other.iteration()
  solver.load_state_dict(other.state_dict())
  np.testing.assert_array_equal(kept.action_probability_array,
                                other.current_strategy())


@pytest.mark.parametrize("solver_class", [CFRSolver, CFRPlusSolver, DCFRSolver])
def test_checkpoint_resume_is_exact(solver_class):
  straight = solver_class("leduc_poker", random_init=True, seed=3)
  interrupted = solver_class("leduc_poker", random_init=True, seed=3)
  for _ in range(7):
    straight.iteration()
    interrupted.iteration()
  state = interrupted.state_dict()
  resumed = solver_class("leduc_poker", random_init=True, seed=3)
  resumed.load_state_dict(state)
  unpickled = pickle.loads(pickle.dumps(interrupted))
  for _ in range(5):
    straight.iteration()
    resumed.iteration()
    unpickled.iteration()
  np.testing.assert_array_equal(resumed.average_strategy(),
                                straight.average_strategy())
  np.testing.assert_array_equal(unpickled.current_strategy(),
                                straight.current_strategy())
  assert resumed.iteration_count == straight.iteration_count == 12


def test_corrupt_or_foreign_checkpoint_is_refused():
  solver = CFRSolver("kuhn_poker")
  solver.iteration()
  state = solver.state_dict()
  state["cumulative_regret"] = np.full_like(state["cumulative_regret"], np.nan)
  with pytest.raises(ValueError, match="corrupt"):
    CFRSolver("kuhn_poker").load_state_dict(state)
  with pytest.raises(ValueError, match="checkpoint is for game kuhn_poker"):
    CFRSolver("leduc_poker").load_state_dict(solver.state_dict())
  with pytest.raises(ValueError, match="checkpoint is from CFRSolver"):
    CFRPlusSolver("kuhn_poker").load_state_dict(solver.state_dict())


def test_games_the_engine_cannot_compile_are_refused():
  with pytest.raises(ValueError, match="convert_to_turn_based"):
    CFRSolver("matrix_rps")
  with pytest.raises(ValueError, match="unknown game 'not_a_game'"):
    CFRSolver("not_a_game")
