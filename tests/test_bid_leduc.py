"""Leduc(k) (``spiel_ext_bid_leduc``): the authors' tree sizes, the deal,
hand-worked betting sequences, tensors, and OpenSpiel's tools on it."""

import collections

import numpy as np
import pyspiel
import pytest
from open_spiel.python import policy as openspiel_policy
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import exploitability as openspiel_exploit
from open_spiel.python.observation import make_observation

import spiel_ext  # pylint: disable=unused-import
from conftest import random_strategy
from spiel_ext import eval as se
from spiel_ext.algorithms import CFRSolver
from spiel_ext.engine import compile_game
from spiel_ext.games.bid_leduc import BidLeducGame
from spiel_ext.policy import policy_to_array, to_tabular_policy

J, Q, K = 0, 1, 2

# k: chance, decisions of P0 / P1, fold / showdown terminals, total
# histories, decision infosets of P0 / P1 (the authors' trees, Zhou et al.
# 2020 and Qiu et al. 2023).
SIZES = {
    1: (13, 45, 9, 54, 27, 148, 15, 3),
    2: (40, 180, 63, 243, 135, 661, 60, 21),
    3: (121, 666, 306, 972, 540, 2605, 222, 102),
    4: (364, 2367, 1278, 3645, 1998, 9652, 789, 426),
    5: (1093, 8199, 4923, 13122, 7101, 34438, 2733, 1641),
}


def _game(max_bid=4):
  return pyspiel.load_game(f"spiel_ext_bid_leduc(max_bid={max_bid})")


def _walk_counts(game):
  """Counts of every kind of history and the infoset keys, by walking the
  pyspiel tree (every chance outcome, probability 0 included)."""
  counts = collections.Counter()
  keys = [set(), set()]
  stack = [game.new_initial_state()]
  while stack:
    state = stack.pop()
    if state.is_terminal():
      counts["fold" if state.folded is not None else "showdown"] += 1
      continue
    if state.is_chance_node():
      counts["chance"] += 1
      actions = [action for action, _ in state.chance_outcomes()]
    else:
      player = state.current_player()
      counts[f"decision{player}"] += 1
      keys[player].add(state.information_state_string(player))
      actions = state.legal_actions()
    stack.extend(state.child(action) for action in actions)
  return counts, keys


@pytest.mark.parametrize("max_bid", sorted(SIZES))
def test_tree_sizes_are_the_authors(max_bid):
  (chance, decision0, decision1, folds, showdowns, total, infosets0,
   infosets1) = SIZES[max_bid]
  game = _game(max_bid)
  counts, keys = _walk_counts(game)
  assert counts == {"chance": chance, "decision0": decision0,
                    "decision1": decision1, "fold": folds,
                    "showdown": showdowns}
  assert sum(counts.values()) == total
  assert (len(keys[0]), len(keys[1])) == (infosets0, infosets1)
  tree = compile_game(game)
  assert tree.num_histories == total
  assert tree.perfect_recall
  assert np.bincount(tree.infoset_player).tolist() == [infosets0, infosets1]
  # Every decision node has exactly one fold child.
  assert folds == decision0 + decision1


def test_deal_probabilities_as_from_two_cards_per_rank():
  state = _game().new_initial_state()
  assert state.chance_outcomes() == [(J, 1 / 3), (Q, 1 / 3), (K, 1 / 3)]
  state.apply_action(Q)
  assert state.chance_outcomes() == [(J, 2 / 5), (Q, 1 / 5), (K, 2 / 5)]
  different = state.child(K)
  for action in (1, 0, 0):              # Bid 2, match, check: round 1 over.
    different.apply_action(action)
  assert different.is_chance_node()
  assert different.chance_outcomes() == [(J, 0.5), (Q, 0.25), (K, 0.25)]
  same = state.child(Q)
  for action in (1, 0, 0):
    same.apply_action(action)
  # Both hold Q: no Q is left, but the branch stays in the tree.
  assert same.chance_outcomes() == [(J, 0.5), (Q, 0.0), (K, 0.5)]
  impossible = same.child(Q)
  assert impossible.current_player() == 0
  assert impossible.legal_actions() == [0, 1, 2, 3]


def _play(ranks, actions, max_bid=4):
  state = _game(max_bid).new_initial_state()
  for rank in ranks[:2]:
    state.apply_action(rank)
  public = list(ranks[2:])
  for action in actions:
    if state.is_chance_node():
      state.apply_action(public.pop(0))
    assert not state.is_terminal()
    state.apply_action(action)
  return state


def test_opening_and_a_check_down_by_hand():
  state = _play((K, J), [])
  assert state.current_player() == 0
  assert state.legal_actions() == [0, 1, 2, 3, 4]
  assert [state.action_to_string(0, a) for a in range(5)] == [
      "Bid 1", "Bid 2", "Bid 3", "Bid 4", "Fold"]
  state.apply_action(1)                               # P0 bids 2.
  assert state.current_player() == 1
  assert state.legal_actions() == [0, 1, 2, 3]
  assert [state.action_to_string(1, a) for a in range(4)] == [
      "Match", "Raise to 3", "Raise to 4", "Fold"]
  state.apply_action(0)                               # P1 matches: 2 - 2.
  assert state.current_player() == 0                  # P0 must confirm.
  assert [state.action_to_string(0, a) for a in state.legal_actions()] == [
      "Check", "Raise to 3", "Raise to 4", "Fold"]
  state.apply_action(0)                               # Round 1 over.
  assert state.is_chance_node()
  state.apply_action(Q)
  assert state.current_player() == 0                  # P0 opens round 2.
  assert state.information_state_string(1) == (
      "[Player 1][Rank J][Public Q][Actions 1 0 0 |]")
  assert state.information_state_string(0) == (
      "[Player 0][Rank K][Public Q][Actions 1 0 0 |]")
  assert state.observation_string(0) == (
      "[Player 0][Rank K][Public Q][Round 2][Stakes 2 2]")
  state.apply_action(0)                               # Check: showdown now.
  assert state.is_terminal()
  assert state.returns() == [3.0, -3.0]               # K high wins 1 + 2.


# Ranks (P0, P1, public), action ids, legal action lists before each action,
# payoff to player 0 (k = 4).
SEQUENCES = [
    # P0 folds at the opening: loses the notional ante.
    ((K, J), [4], [[0, 1, 2, 3, 4]], -1.0),
    # Bid 3, P1 folds at its first action.
    ((J, K), [2, 2], [[0, 1, 2, 3, 4], [0, 1, 2]], 1.0),
    # Bid 1, P1 raises to 4, P0 matches, P1 confirms; P0 pairs the public J.
    ((J, Q, J), [0, 3, 0, 0, 0],
     [[0, 1, 2, 3, 4], [0, 1, 2, 3, 4], [0, 1], [0, 1], [0, 1]], 5.0),
    # Bid 2, match, confirm; round 2: raise to 3, match, P0 folds instead of
    # confirming (loses 1 + 3); P1 pairs the public J.
    ((K, J, J), [1, 0, 0, 1, 0, 2],
     [[0, 1, 2, 3, 4], [0, 1, 2, 3], [0, 1, 2, 3], [0, 1, 2, 3],
      [0, 1, 2], [0, 1, 2]], -4.0),
    # Same deal, P0 confirms: P1's pair wins 1 + 3.
    ((K, J, J), [1, 0, 0, 1, 0, 0],
     [[0, 1, 2, 3, 4], [0, 1, 2, 3], [0, 1, 2, 3], [0, 1, 2, 3],
      [0, 1, 2], [0, 1, 2]], -4.0),
    # Equal ranks tie, also on the probability-0 public branch.
    ((Q, Q, Q), [0, 0, 0, 0], None, 0.0),
    ((Q, Q, K), [3, 0, 0, 0], None, 0.0),
    # No pair: the higher rank wins; P1 re-raises in round 2.
    ((Q, K, J), [0, 0, 0, 1, 2, 0, 0],
     [[0, 1, 2, 3, 4], [0, 1, 2, 3, 4], [0, 1, 2, 3, 4], [0, 1, 2, 3, 4],
      [0, 1, 2, 3], [0, 1], [0, 1]], -5.0),
    # Round 1 at the top (4 - 4): round 2 is only P0's check or fold.
    ((Q, J, K), [3, 0, 0, 0], [[0, 1, 2, 3, 4], [0, 1], [0, 1], [0, 1]],
     5.0),
    ((Q, J, K), [3, 0, 0, 1], None, -5.0),
]


@pytest.mark.parametrize("ranks,actions,legal,payoff", SEQUENCES)
def test_betting_sequences_by_hand(ranks, actions, legal, payoff):
  state = _game().new_initial_state()
  for rank in ranks[:2]:
    state.apply_action(rank)
  public = list(ranks[2:])
  for turn, action in enumerate(actions):
    if state.is_chance_node():
      state.apply_action(public.pop(0))
    assert not state.is_terminal() and not state.is_chance_node()
    if legal is not None:
      assert state.legal_actions() == legal[turn], turn
    assert state.legal_actions()[-1] == state.fold_action(
        state.current_player())
    state.apply_action(action)
  assert state.is_terminal()
  assert not public
  assert state.returns() == [payoff, -payoff]


def test_max_game_length_is_reached():
  """2k + 2 decisions: every stake level raised and matched, one confirm
  per round."""
  assert _game(3).max_game_length() == 8
  # 1-1, 2-2, 3-3, confirm.
  state = _play((J, Q, K), [0, 0, 1, 0, 1, 0, 0], max_bid=3)
  assert state.is_chance_node()
  state.apply_action(K)
  state.apply_action(0)                             # Check: 8 decisions.
  assert state.is_terminal()
  assert len(state.history()) == 3 + 8


@pytest.mark.parametrize("max_bid", [1, 2, 3])
def test_engine_nash_conv_equals_openspiels(max_bid):
  game = _game(max_bid)
  tree = compile_game(game)
  for seed in range(2):
    policy = to_tabular_policy(
        tree, random_strategy(tree, np.random.default_rng(seed)))
    assert se.nash_conv(tree, policy) == pytest.approx(
        openspiel_exploit.nash_conv(game, policy), abs=1e-9)
  uniform = openspiel_policy.UniformRandomPolicy(game)
  assert se.nash_conv(tree, uniform) == pytest.approx(
      pyspiel.nash_conv(game, pyspiel.UniformRandomPolicy(game)), abs=1e-9)


def test_openspiels_cpp_cfr_runs_and_matches_ours():
  """OpenSpiel's C++ CFR accepts the probability-0 chance outcomes (its
  Python cfr.CFRSolver asserts positive ones) and iterates as ours does."""
  game = _game(2)
  ours, reference = CFRSolver(game), pyspiel.CFRSolver(game)
  for _ in range(15):
    ours.evaluate_and_update_policy()
    reference.evaluate_and_update_policy()
  np.testing.assert_allclose(
      ours.average_strategy(),
      policy_to_array(ours.tree, reference.average_policy()), atol=1e-9)
  first = se.nash_conv(ours.tree, ours.tree.uniform_policy())
  assert se.nash_conv(ours.tree, ours.average_strategy()) < first / 3


def test_tensor_layout_by_hand():
  """k = 2: T = 6 turns of A = 3 action ids."""
  game = _game(2)
  assert game.num_distinct_actions() == 3
  assert game.information_state_tensor_shape() == [2 + 3 + 3 + 6 * 3]
  assert game.observation_tensor_shape() == [2 + 3 + 3 + 2]
  # Bid 1, raise to 2, match, confirm; public J; P0 checks: showdown.
  state = _play((Q, K, J), [0, 1, 0, 0, 0], max_bid=2)
  assert state.is_terminal()
  info = np.zeros(26)
  info[1] = 1                                 # Player 1 observes.
  info[2 + K] = 1
  info[5 + J] = 1
  for turn, action in enumerate([0, 1, 0, 0, 0]):
    info[8 + 3 * turn + action] = 1
  np.testing.assert_array_equal(state.information_state_tensor(1), info)
  np.testing.assert_array_equal(state.observation_tensor(0),
                                [1, 0, 0, 1, 0, 1, 0, 0, 2, 2])
  opening = _play((Q, K), [], max_bid=2)
  np.testing.assert_array_equal(opening.observation_tensor(1),
                                [0, 1, 0, 0, 1, 0, 0, 0, 0, 0])


def test_info_state_tensors_identify_the_infosets():
  """One tensor per infoset string and back (perfect recall), k = 2."""
  game = _game(2)
  pairs = set()
  stack = [game.new_initial_state()]
  while stack:
    state = stack.pop()
    if state.is_terminal():
      continue
    if state.is_chance_node():
      stack.extend(state.child(a) for a, _ in state.chance_outcomes())
      continue
    player = state.current_player()
    pairs.add((state.information_state_string(player),
               tuple(state.information_state_tensor(player))))
    stack.extend(state.child(a) for a in state.legal_actions())
  keys = {key for key, _ in pairs}
  tensors = {tensor for _, tensor in pairs}
  assert len(pairs) == len(keys) == len(tensors) == 60 + 21


@pytest.mark.parametrize("perfect_recall", [False, True])
@pytest.mark.parametrize("private", [pyspiel.PrivateInfoType.NONE,
                                     pyspiel.PrivateInfoType.SINGLE_PLAYER,
                                     pyspiel.PrivateInfoType.ALL_PLAYERS])
def test_every_observation_type_fills_and_names_its_pieces(perfect_recall,
                                                           private):
  game = _game(3)
  for public in (False, True):
    observation = make_observation(game, pyspiel.IIGObservationType(
        perfect_recall=perfect_recall, public_info=public,
        private_info=private))
    assert sum(view.size for view in observation.dict.values()) == (
        observation.tensor.size)
    state = _play((K, Q, Q), [1, 1, 0, 0, 0])
    for player in range(2):
      observation.set_from(state, player)
      assert observation.dict["player"][player] == 1
      text = observation.string_from(state, player)
      assert text.startswith(f"[Player {player}]")
      if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
        assert "[Ranks K Q]" in text
      assert ("[Public Q]" in text) == public


@pytest.mark.parametrize("params,message", [
    ({"max_bid": 0}, "max_bid must be an integer in 1..100; got 0"),
    ({"max_bid": -3}, "max_bid must be an integer in 1..100; got -3"),
    ({"max_bid": 2.5}, "max_bid must be an integer in 1..100; got 2.5"),
    ({"max_bid": True}, "max_bid must be an integer in 1..100; got True"),
])
def test_bad_max_bid_is_refused(params, message):
  with pytest.raises(ValueError, match=message) as error:
    BidLeducGame(params)
  assert "spiel_ext_bid_leduc" in str(error.value)
  if isinstance(params["max_bid"], int) and not isinstance(
      params["max_bid"], bool):
    with pytest.raises(ValueError, match=message):
      pyspiel.load_game(f"spiel_ext_bid_leduc(max_bid={params['max_bid']})")


def test_registered_by_import_with_default_max_bid_4():
  assert "spiel_ext_bid_leduc" in pyspiel.registered_names()
  game = pyspiel.load_game("spiel_ext_bid_leduc")
  assert game.get_type().short_name == "spiel_ext_bid_leduc"
  assert game.num_distinct_actions() == 5
  assert (game.min_utility(), game.max_utility()) == (-5.0, 5.0)
  assert game.max_game_length() == 10


def test_rl_environment_plays_it_with_info_state_tensors():
  env = rl_environment.Environment("spiel_ext_bid_leduc(max_bid=2)")
  env.seed(0)
  assert env.observation_spec()["info_state"] == (26,)
  assert env.action_spec()["num_actions"] == 3
  rng = np.random.default_rng(0)
  for _ in range(20):
    time_step = env.reset()
    while not time_step.last():
      player = time_step.observations["current_player"]
      action = int(rng.choice(time_step.observations["legal_actions"][player]))
      time_step = env.step([action])
    assert sum(time_step.rewards) == 0.0
    assert abs(time_step.rewards[0]) in (0.0, 1.0, 2.0, 3.0)


def test_openspiel_qlearner_trips_only_where_the_docs_say():
  """The games guide says OpenSpiel's tabular QLearner fails its assertion
  on this game because player 1 may never act, and that handing the final
  time step only to the agents that acted avoids it. Both halves, checked
  on the same seeded episodes."""
  from open_spiel.python.algorithms import tabular_qlearner  # pylint: disable=g-import-not-at-top
  game = pyspiel.load_game("spiel_ext_bid_leduc(max_bid=2)")

  def train(only_agents_that_acted: bool) -> int:
    env = rl_environment.Environment(game, seed=3)
    agents = [tabular_qlearner.QLearner(player_id=player, num_actions=(
        env.action_spec()["num_actions"])) for player in range(2)]
    np.random.seed(3)  # the QLearner explores with numpy's global generator
    idle = 0
    for _ in range(200):
      time_step, acted = env.reset(), set()
      while not time_step.last():
        player = time_step.observations["current_player"]
        acted.add(player)
        time_step = env.step([agents[player].step(time_step).action])
      idle += 1 not in acted
      for player in (acted if only_agents_that_acted else range(2)):
        agents[player].step(time_step)
    return idle

  assert train(only_agents_that_acted=True) > 0
  with pytest.raises(AssertionError):
    train(only_agents_that_acted=False)
