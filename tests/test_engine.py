"""The compiled tree and its passes against OpenSpiel and hand-worked cases."""

import gc
import weakref

import numpy as np
import pyspiel
import pytest
from open_spiel.python import policy as openspiel_policy
from open_spiel.python.algorithms import get_all_states

from conftest import CROSS_CHECK_GAMES, random_strategy
from spiel_ext.engine import (CHANCE, TERMINAL, cache, clear_compiled_trees,
                              compile_game, fingerprint)
from spiel_ext.engine.admission import SizeLimit
from spiel_ext.engine.compiler import compile_tree

# universal_poker with 12 cards: chance outcomes 10 and 11 sort after 1 as
# strings, which OpenSpiel's TabularPolicy row order follows.
TWELVE_CARD_POKER = (
    "universal_poker(betting=limit,numPlayers=2,numRounds=2,blind=1 1,"
    "raiseSize=1 1,firstPlayer=1 1,maxRaises=1 1,numSuits=2,numRanks=6,"
    "numHoleCards=1,numBoardCards=0 1,stack=10 10)")


@pytest.mark.parametrize("game_name", CROSS_CHECK_GAMES + [TWELVE_CARD_POKER])
def test_counts_and_row_layout_match_openspiel(game_name):
  game = pyspiel.load_game(game_name)
  tree = compile_game(game)
  states = get_all_states.get_all_states(game, depth_limit=-1,
                                         include_terminals=True,
                                         include_chance_states=True,
                                         to_string=lambda s: s.history_str())
  assert tree.num_histories == len(states)
  assert int(tree.is_terminal.sum()) == sum(s.is_terminal()
                                            for s in states.values())
  reference = openspiel_policy.TabularPolicy(game)
  assert tree.key_to_infoset == reference.state_lookup
  np.testing.assert_array_equal(tree.infoset_legal,
                                reference.legal_actions_mask.astype(bool))
  for row in [0, tree.num_infosets // 2, tree.num_infosets - 1]:
    assert (tree.state(int(tree.infoset_history[row])).history_str() ==
            reference.states[row].history_str())


def test_kuhn_tree_by_hand():
  tree = compile_game("kuhn_poker")
  # 1 deal-1 chance node, 3 deal-2 chance nodes, 6 deals x 4 decisions... :
  # 1 + 3 + 6 * (1 + 2 + 2 + 2 + 1 + 1 + ... ) = 58 histories, 12 infosets.
  assert (tree.num_histories, tree.num_infosets) == (58, 12)
  assert tree.node_player[0] == CHANCE
  assert tree.parent[0] == -1 and np.all(tree.parent[1:] < np.arange(1, 58))
  # Each deal of the first card has probability 1/3, of the second 1/2.
  np.testing.assert_allclose(tree.chance_prob[tree.parent == 0], 1 / 3)
  terminal_payoffs = tree.utility[tree.is_terminal]
  np.testing.assert_array_equal(terminal_payoffs.sum(axis=1), 0.0)
  assert set(np.abs(terminal_payoffs[:, 0])) == {1.0, 2.0}
  assert tree.perfect_recall


def _naive_quantities(game, strategy, tree):
  """Reach, values and counterfactual values by plain recursion on states."""
  num_players = game.num_players()
  cfv = np.zeros_like(strategy)
  own_reach = np.zeros(tree.num_infosets)

  def recurse(state, reach):
    if state.is_terminal():
      return np.array(state.returns())
    if state.is_chance_node():
      return sum(prob * recurse(state.child(a),
                                reach * np.r_[np.ones(num_players), prob])
                 for a, prob in state.chance_outcomes())
    player = state.current_player()
    row = tree.key_to_infoset[state.information_state_string(player)]
    own_reach[row] = reach[player]
    value = np.zeros(num_players)
    for a in state.legal_actions():
      scale = np.ones(num_players + 1)
      scale[player] = strategy[row, a]
      child_value = recurse(state.child(a), reach * scale)
      cfv[row, a] += np.prod(np.delete(reach, player)) * child_value[player]
      value += strategy[row, a] * child_value
    return value

  root_value = recurse(game.new_initial_state(), np.ones(num_players + 1))
  return root_value, cfv, own_reach


@pytest.mark.parametrize("game_name", ["kuhn_poker", "kuhn_poker(players=3)",
                                       "leduc_poker"])
def test_passes_match_naive_recursion(game_name):
  game = pyspiel.load_game(game_name)
  tree = compile_game(game)
  strategy = random_strategy(tree, np.random.default_rng(7))
  root_value, cfv, own_reach = _naive_quantities(game, strategy, tree)
  np.testing.assert_allclose(tree.values(strategy)[0], root_value, atol=1e-12)
  np.testing.assert_allclose(tree.counterfactual_values(strategy), cfv,
                             atol=1e-12)
  own, others = tree.infoset_reach(tree.reach(strategy))
  np.testing.assert_allclose(own, own_reach, atol=1e-12)
  assert np.all(others >= 0)
  # The infoset-level product gives the history pass's bits.
  np.testing.assert_array_equal(tree.own_reach(strategy), own)


def test_python_registered_game_compiles_like_its_cpp_twin():
  import open_spiel.python.games  # pylint: disable=unused-import,g-import-not-at-top
  python_tree = compile_game("python_kuhn_poker")
  cpp_tree = compile_game("kuhn_poker")
  assert python_tree.num_histories == cpp_tree.num_histories
  np.testing.assert_allclose(
      python_tree.values(python_tree.uniform_policy())[0],
      cpp_tree.values(cpp_tree.uniform_policy())[0], atol=1e-12)


def test_imperfect_recall_strings_are_flagged_not_refused():
  # universal_poker's infostate strings list the board cards sorted, so two
  # histories that saw the board in different orders share an infoset.
  game = ("universal_poker(betting=limit,numPlayers=2,numRounds=3,blind=1 1,"
          "raiseSize=1 1 1,firstPlayer=1 1 1,maxRaises=1 1 1,numSuits=1,"
          "numRanks=4,numHoleCards=1,numBoardCards=0 1 1,stack=10 10)")
  tree = compile_game(game)
  assert not tree.perfect_recall
  assert compile_game("leduc_poker").perfect_recall
  strategy = random_strategy(tree, np.random.default_rng(3))
  np.testing.assert_array_equal(
      tree.own_reach(strategy), tree.infoset_reach(tree.reach(strategy))[0])


def test_disk_cache_round_trip_and_corruption(_isolated_cache):
  clear_compiled_trees()
  first = compile_game("leduc_poker")
  path = cache.cache_path(first.game_string)
  assert path is not None and path.exists()
  clear_compiled_trees()
  again = compile_game("leduc_poker")
  assert again is not first
  for name, values in first.arrays().items():
    np.testing.assert_array_equal(getattr(again, name, values), values)
  assert again.infoset_keys == first.infoset_keys
  # Flip bytes in the middle of the file: detected, warned about, rebuilt.
  raw = bytearray(path.read_bytes())
  middle = len(raw) // 2
  raw[middle:middle + 64] = bytes(64)
  path.write_bytes(bytes(raw))
  clear_compiled_trees()
  with pytest.warns(UserWarning, match="corrupt"):
    rebuilt = compile_game("leduc_poker")
  np.testing.assert_array_equal(rebuilt.parent, first.parent)
  assert path.exists()


def test_cache_can_be_turned_off(monkeypatch):
  monkeypatch.setenv(cache.CACHE_ENV_VAR, "")
  assert cache.cache_path("kuhn_poker()") is None
  clear_compiled_trees()
  assert compile_game("kuhn_poker").num_histories == 58


def test_cache_file_name_depends_on_code_fingerprint(monkeypatch):
  before = cache.cache_path("kuhn_poker()")
  monkeypatch.setattr(fingerprint, "_code_fingerprint", "another-version")
  assert cache.cache_path("kuhn_poker()") != before


def test_unknown_game_is_a_value_error():
  with pytest.raises(ValueError, match="unknown game 'no_such_game'"):
    compile_game("no_such_game")


def test_simultaneous_game_suggests_turn_based_conversion():
  with pytest.raises(ValueError, match="convert_to_turn_based"):
    compile_game("matrix_rps")
  turn_based = pyspiel.convert_to_turn_based(pyspiel.load_game("matrix_rps"))
  assert compile_game(turn_based).num_infosets == 2


def test_too_large_game_refused_with_size_before_building():
  with pytest.raises(ValueError, match=r"estimated .* histories, about"):
    compile_game("chess")
  with pytest.raises(ValueError, match="too large to compile"):
    compile_game("leduc_poker(players=3)", max_histories=10_000)


def test_node_kinds_are_consistent():
  tree = compile_game("leduc_poker")
  decision = tree.node_player >= 0
  assert np.all(tree.infoset[decision] >= 0)
  assert np.all(tree.infoset[~decision] == -1)
  assert np.all(tree.utility[tree.node_player != TERMINAL] == 0)
  assert np.all(tree.infoset_player[tree.infoset[decision]] ==
                tree.node_player[decision])
  # Pre-order: a parent precedes its children, and every subtree is a
  # contiguous range, so a history's parent is the nearest earlier history
  # that is not a leaf-closed sibling: h - 1 or one of h - 1's ancestors.
  assert np.all(tree.parent[1:] < np.arange(1, tree.num_histories))
  for h in range(1, tree.num_histories):
    ancestor = h - 1
    while ancestor != tree.parent[h]:
      ancestor = tree.parent[ancestor]
      assert ancestor >= 0


def test_a_dropped_tree_is_freed_without_the_cycle_collector():
  # Trees can take gigabytes: their lazily built tables must not refer back
  # to the tree, or dropping it would wait for the cycle collector.
  tree = compile_tree(pyspiel.load_game("kuhn_poker"), SizeLimit(None, 1e9))
  uniform = tree.uniform_policy()
  for player in range(2):
    belief, _ = tree.beliefs(uniform, player)
    tree.best_response(uniform, player)
    tree.weighted_best_response(uniform, player)
    tree.sequential_best_values(uniform, player, belief)
    tree.belief_action_values(uniform, player, belief)
  tree.uniform_reach()
  tree.children_lists()
  reference = weakref.ref(tree)
  enabled = gc.isenabled()
  gc.disable()
  try:
    del tree
    assert reference() is None
  finally:
    if enabled:
      gc.enable()
