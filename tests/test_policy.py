"""Strategy arrays <-> OpenSpiel policies."""

import pickle

import numpy as np
import pyspiel
import pytest
from open_spiel.python import policy as openspiel_policy
from open_spiel.python.algorithms import exploitability as openspiel_exploit

from conftest import CROSS_CHECK_GAMES, random_strategy
from spiel_ext.engine import compile_game
from spiel_ext.policy import TabularPolicy, policy_to_array, to_tabular_policy


@pytest.mark.parametrize("game_name", CROSS_CHECK_GAMES)
def test_round_trip_is_exact(game_name):
  tree = compile_game(game_name)
  strategy = random_strategy(tree, np.random.default_rng(5))
  tabular = to_tabular_policy(tree, strategy)
  assert isinstance(tabular, openspiel_policy.TabularPolicy)
  np.testing.assert_array_equal(policy_to_array(tree, tabular), strategy)
  reference = openspiel_policy.TabularPolicy(tree.game)
  assert tabular.state_lookup == reference.state_lookup
  assert tabular.states_per_player == reference.states_per_player
  np.testing.assert_array_equal(tabular.legal_actions_mask,
                                reference.legal_actions_mask)


def test_openspiel_accepts_our_policies_after_its_own_conversion():
  game = pyspiel.load_game("leduc_poker")
  tree = compile_game(game)
  ours = to_tabular_policy(tree, random_strategy(tree, np.random.default_rng(1)))
  cpp_policy = openspiel_policy.python_policy_to_pyspiel_policy(ours)
  assert pyspiel.exploitability(game, cpp_policy) == pytest.approx(
      openspiel_exploit.exploitability(game, ours), abs=1e-9)
  assert (policy_to_array(tree, cpp_policy) == pytest.approx(
      ours.action_probability_array))


def test_policy_from_callables_dicts_and_pyspiel_policies():
  game = pyspiel.load_game("kuhn_poker")
  tree = compile_game(game)
  strategy = random_strategy(tree, np.random.default_rng(2))
  tabular = to_tabular_policy(tree, strategy)
  from_dict = policy_to_array(tree, tabular.to_dict())
  from_callable = policy_to_array(
      tree, lambda state: tabular.action_probabilities(state))
  from_python_policy = policy_to_array(
      tree, openspiel_policy.tabular_policy_from_callable(
          game, tabular.action_probabilities))
  for result in (from_dict, from_callable, from_python_policy):
    np.testing.assert_allclose(result, strategy, atol=1e-15)
  uniform_cpp = policy_to_array(tree, pyspiel.UniformRandomPolicy(game))
  np.testing.assert_allclose(uniform_cpp, tree.uniform_policy())


def test_partial_tabular_policy_needs_a_fallback():
  game = pyspiel.load_game("kuhn_poker")
  tree = compile_game(game)
  player_one_only = openspiel_policy.TabularPolicy(game, players=[1])
  with pytest.raises(ValueError, match="no entry for 6 of the 12 infosets"):
    policy_to_array(tree, player_one_only)
  filled = policy_to_array(tree, player_one_only,
                           fallback=tree.uniform_policy())
  np.testing.assert_allclose(filled, tree.uniform_policy())


def test_shuffled_rows_are_mapped_by_key():
  game = pyspiel.load_game("kuhn_poker")
  tree = compile_game(game)
  strategy = random_strategy(tree, np.random.default_rng(4))
  tabular = to_tabular_policy(tree, strategy)
  permutation = np.random.default_rng(0).permutation(tree.num_infosets)
  tabular.state_lookup = {key: int(np.flatnonzero(permutation == row)[0])
                          for key, row in tree.key_to_infoset.items()}
  tabular.action_probability_array = strategy[permutation]
  np.testing.assert_array_equal(policy_to_array(tree, tabular), strategy)


def test_lazy_states_rebuild_openspiel_states():
  tree = compile_game("leduc_poker")
  tabular = to_tabular_policy(tree)
  state = tabular.states[5]
  assert tabular.state_lookup[state.information_state_string()] == 5


def test_not_a_policy():
  with pytest.raises(ValueError, match="policy must be an OpenSpiel policy"):
    policy_to_array("kuhn_poker", 42)


def test_our_tabular_policy_reads_as_openspiels_dict_table():
  """The mapping view equals OpenSpiel's own conversion to pyspiel's table
  (legal actions only), and pickles to the same policy, partial or not."""
  game = pyspiel.load_game("leduc_poker")
  tree = compile_game(game)
  ours = to_tabular_policy(tree, random_strategy(tree,
                                                 np.random.default_rng(6)))
  reference = openspiel_policy.python_policy_to_pyspiel_policy(ours)
  table = reference.policy_table()
  assert len(ours) == len(table) == tree.num_infosets
  for key, pairs in ours.items():
    assert [a for a, _ in pairs] == [a for a, _ in table[key]]
    np.testing.assert_allclose([p for _, p in pairs],
                               [p for _, p in table[key]], atol=0)
  partial = TabularPolicy(game, players=[1])
  restored = pickle.loads(pickle.dumps(partial))
  assert restored.state_lookup == partial.state_lookup
  assert len(restored) == len(tree.infosets_of_player(1))
