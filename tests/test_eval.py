"""NashConv, values and head-to-head against OpenSpiel's own evaluators."""

import itertools

import numpy as np
import pyspiel
import pytest
from hypothesis import given, settings, strategies as st
from open_spiel.python import policy as openspiel_policy
from open_spiel.python.algorithms import exploitability as openspiel_exploit
from open_spiel.python.algorithms import expected_game_score

from conftest import (CROSS_CHECK_GAMES, UNIVERSAL_LEDUC, pure_strategy,
                      random_strategy, slow_cases)
from spiel_ext import eval as se
from spiel_ext.engine import compile_game
from spiel_ext.policy import to_tabular_policy

# Python nash_conv on leduc takes ~0.15 s: fewer examples there.
EXAMPLES = {"kuhn_poker": 25, "kuhn_poker(players=3)": 15, "leduc_poker": 6,
            UNIVERSAL_LEDUC: 4}


def _openspiel_reference(game, tabular):
  """(NashConv, per-player values) from OpenSpiel's Python and C++ code."""
  python_nash_conv = openspiel_exploit.nash_conv(game, tabular)
  cpp_nash_conv = pyspiel.nash_conv(
      game, openspiel_policy.python_policy_to_pyspiel_policy(tabular))
  values = expected_game_score.policy_value(game.new_initial_state(),
                                            [tabular] * game.num_players())
  return python_nash_conv, cpp_nash_conv, np.asarray(values)


def _check_against_openspiel(game_name, strategy):
  game = pyspiel.load_game(game_name)
  tree = compile_game(game)
  tabular = to_tabular_policy(tree, strategy)
  python_nc, cpp_nc, values = _openspiel_reference(game, tabular)
  ours = se.nash_conv(game, tabular)
  assert ours == pytest.approx(python_nc, abs=1e-9)
  assert ours == pytest.approx(cpp_nc, abs=1e-9)
  np.testing.assert_allclose(se.expected_values(game, tabular), values,
                             atol=1e-9)
  assert se.exploitability(game, tabular) == pytest.approx(
      ours / game.num_players(), abs=1e-12)


@pytest.mark.parametrize("game_name", CROSS_CHECK_GAMES)
def test_uniform_policy_matches_openspiel(game_name):
  game = pyspiel.load_game(game_name)
  uniform = openspiel_policy.TabularPolicy(game)
  assert se.nash_conv(game, uniform) == pytest.approx(
      openspiel_exploit.nash_conv(game, uniform), abs=1e-9)
  _check_against_openspiel(game_name, compile_game(game).uniform_policy())


@pytest.mark.parametrize("game_name", slow_cases(
    CROSS_CHECK_GAMES, "leduc_poker", UNIVERSAL_LEDUC))
def test_random_policies_match_openspiel(game_name):

  @settings(max_examples=EXAMPLES[game_name], deadline=None, derandomize=True)
  @given(seed=st.integers(0, 2**32 - 1),
         concentration=st.sampled_from([0.1, 1.0, 10.0]))
  def check(seed, concentration):
    tree = compile_game(game_name)
    strategy = random_strategy(tree, np.random.default_rng(seed),
                               concentration)
    _check_against_openspiel(game_name, strategy)

  check()  # pylint: disable=no-value-for-parameter


@pytest.mark.parametrize("game_name", slow_cases(
    CROSS_CHECK_GAMES, "leduc_poker", UNIVERSAL_LEDUC))
def test_pure_policies_match_openspiel(game_name):

  @settings(max_examples=EXAMPLES[game_name], deadline=None, derandomize=True)
  @given(seed=st.integers(0, 2**32 - 1))
  def check(seed):
    tree = compile_game(game_name)
    _check_against_openspiel(game_name,
                             pure_strategy(tree, np.random.default_rng(seed)))

  check()  # pylint: disable=no-value-for-parameter


def test_kuhn_equilibrium_value_and_zero_nash_conv():
  game = pyspiel.load_game("kuhn_poker")
  for alpha in [0.0, 0.2, 1 / 3]:
    optimal = pyspiel.kuhn_poker.get_optimal_policy(alpha)
    assert se.expected_values(game, optimal)[0] == pytest.approx(-1 / 18,
                                                                 abs=1e-12)
    assert se.nash_conv(game, optimal) == pytest.approx(0.0, abs=1e-12)


def test_nash_conv_result_tuple_mirrors_openspiel():
  game = pyspiel.load_game("leduc_poker")
  result = se.nash_conv(game, openspiel_policy.UniformRandomPolicy(game),
                        return_only_nash_conv=False)
  reference = openspiel_exploit.nash_conv(
      game, openspiel_policy.UniformRandomPolicy(game),
      return_only_nash_conv=False)
  np.testing.assert_allclose(result.player_improvements,
                             reference.player_improvements, atol=1e-9)
  assert result.nash_conv == pytest.approx(reference.nash_conv, abs=1e-9)


@pytest.mark.parametrize("game_name", ["kuhn_poker", "kuhn_poker(players=3)"])
def test_head_to_head_matches_openspiel_policy_value(game_name):
  game = pyspiel.load_game(game_name)
  tree = compile_game(game)
  rng = np.random.default_rng(3)
  policy_a = to_tabular_policy(tree, random_strategy(tree, rng))
  policy_b = to_tabular_policy(tree, random_strategy(tree, rng))
  for seat in range(game.num_players()):
    seats = [policy_b] * game.num_players()
    seats[seat] = policy_a
    reference = expected_game_score.policy_value(game.new_initial_state(),
                                                 seats)[seat]
    assert se.head_to_head(game, policy_a, policy_b, seat) == pytest.approx(
        reference, abs=1e-12)
  names, matrix = se.head_to_head_matrix(game, {"a": policy_a, "b": policy_b})
  assert names == ["a", "b"]
  assert matrix[0, 1] == pytest.approx(se.head_to_head(game, policy_a,
                                                       policy_b), abs=1e-15)


def _pure_strategies(tree, player):
  rows = tree.infosets_of_player(player)
  choices = [np.flatnonzero(tree.infoset_legal[row]) for row in rows]
  for picks in itertools.product(*choices):
    yield rows, picks


@pytest.mark.parametrize("epsilon", [0.0, 0.05, 0.2])
def test_restricted_best_response_equals_brute_force(epsilon):
  """The eps-restricted best response is the best eps-mixed pure strategy."""
  game = pyspiel.load_game("kuhn_poker")
  tree = compile_game(game)
  strategy = random_strategy(tree, np.random.default_rng(11))
  for player in range(2):
    best = -np.inf
    for rows, picks in _pure_strategies(tree, player):
      deviation = strategy.copy()
      deviation[rows] = epsilon * tree.infoset_legal[rows]
      deviation[rows, picks] += 1.0 - 2 * epsilon
      value = expected_game_score.policy_value(
          game.new_initial_state(),
          [to_tabular_policy(tree, deviation)] * 2)[player]
      best = max(best, value)
    ours = se.best_response_values(game, strategy,
                                   min_action_prob=epsilon)[player]
    assert ours == pytest.approx(best, abs=1e-12)


def test_restricted_nash_conv_is_below_unrestricted():
  game = pyspiel.load_game("leduc_poker")
  strategy = compile_game(game).uniform_policy()
  assert (se.nash_conv(game, strategy, min_action_prob=0.1) <
          se.nash_conv(game, strategy))


@pytest.mark.parametrize("bad", [-0.1, 0.5, float("nan")])
def test_bad_min_action_prob(bad):
  with pytest.raises(ValueError, match=r"min_action_prob must be in \[0, 1/\|A\|"):
    se.nash_conv("kuhn_poker", compile_game("kuhn_poker").uniform_policy(),
                 min_action_prob=bad)


def test_policy_for_the_wrong_game():
  kuhn = openspiel_policy.TabularPolicy(pyspiel.load_game("kuhn_poker"))
  with pytest.raises(ValueError, match="policy is for game kuhn_poker"):
    se.nash_conv("leduc_poker", kuhn)
  with pytest.raises(ValueError, match="must be a float array of shape"):
    se.nash_conv("leduc_poker", np.ones((12, 2)))


def test_head_to_head_bad_seat():
  uniform = compile_game("kuhn_poker").uniform_policy()
  with pytest.raises(ValueError, match="seat must be in 0..1"):
    se.head_to_head("kuhn_poker", uniform, uniform, seat=2)
