"""The papers' games: rules by hand, OpenSpiel cross-checks, bad parameters."""

import re

import numpy as np
import pyspiel
import pytest
from open_spiel.python import policy as openspiel_policy
from open_spiel.python.algorithms import exploitability as openspiel_exploit
from open_spiel.python.algorithms import sequence_form_lp

import spiel_ext  # pylint: disable=unused-import
from conftest import random_strategy
from spiel_ext import eval as se
from spiel_ext.algorithms import CFRPlusSolver
from spiel_ext.engine import compile_game
from spiel_ext.games import unknown_env
from spiel_ext.games.unknown_env import (Environment, UnknownEnvGame,
                                         true_game_string)
from spiel_ext.policy import to_tabular_policy

SIM_GAMES = [
    "spiel_ext_leduc", "spiel_ext_leduc(ranks=5)",
    "spiel_ext_leduc(players=3,ranks=3)", "spiel_ext_leduc(bet_cap=4)",
    "spiel_ext_leduc(suits=1,ranks=4,raise_sizes=1 3,max_raises=3,ante=2)",
    "spiel_ext_vnm_poker(hands=5,variant=asymmetric)",
    "spiel_ext_vnm_poker(hands=7,variant=raise,ante=1.5,bet=3.0,raise_size=1.0)",
    "spiel_ext_unknown_env(game=kuhn_poker(),env_seed=4)",
    "spiel_ext_unknown_env(game=spiel_ext_leduc(bet_cap=4),env_seed=1)",
    "spiel_ext_leduc(max_raises=0,players=4,ranks=5,suits=1)",
    "spiel_ext_vnm_poker(hands=2)",
    "spiel_ext_unknown_env(game=nim(pile_sizes=1;2),env_seed=5)",
    "spiel_ext_bid_leduc(max_bid=1)", "spiel_ext_bid_leduc(max_bid=2)",
    "spiel_ext_bid_leduc(max_bid=3)", "spiel_ext_bid_leduc(max_bid=4)",
    "spiel_ext_unknown_env(game=spiel_ext_bid_leduc(max_bid=2),env_seed=1)",
]


@pytest.mark.parametrize("game_name", SIM_GAMES)
def test_random_simulation_and_serialization(game_name):
  game = pyspiel.load_game(game_name)
  pyspiel.random_sim_test(game, num_sims=20, serialize=True, verbose=False)
  state = game.new_initial_state()
  rng = np.random.default_rng(0)
  while not state.is_terminal():
    if state.is_chance_node():
      actions, probs = zip(*state.chance_outcomes())
      state.apply_action(int(rng.choice(actions, p=probs)))
    else:
      state.apply_action(int(rng.choice(state.legal_actions())))
  text = pyspiel.serialize_game_and_state(game, state)
  game_again, state_again = pyspiel.deserialize_game_and_state(text)
  assert str(game_again) == str(game)
  assert state_again.history() == state.history()
  assert state_again.returns() == state.returns()


def _map_rows(source, target):
  """Row of ``target`` for each row of ``source``, by replaying the row's
  first history (same action ids in both games)."""
  rows = []
  for row in range(source.num_infosets):
    history = 0
    for action in source.history_actions(int(source.infoset_history[row])):
      children = np.flatnonzero(target.parent == history)
      history = int(children[target.action[children] == action][0])
    rows.append(int(target.infoset[history]))
  return np.asarray(rows)


@pytest.mark.slow
def test_default_leduc_is_openspiel_leduc():
  ours = compile_game("spiel_ext_leduc")
  reference = compile_game("leduc_poker")
  assert (ours.num_histories, ours.num_infosets) == (9457, 936)
  assert (reference.num_histories, reference.num_infosets) == (9457, 936)
  mapping = _map_rows(reference, ours)
  assert sorted(mapping) == list(range(936))
  for seed in range(3):
    strategy = random_strategy(reference, np.random.default_rng(seed))
    mapped = np.zeros_like(strategy)
    mapped[mapping] = strategy
    assert se.nash_conv(ours, mapped) == pytest.approx(
        se.nash_conv(reference, strategy), abs=1e-9)
    np.testing.assert_allclose(ours.root_values(mapped),
                               reference.root_values(strategy), atol=1e-12)
  # OpenSpiel's own evaluator on our Python game agrees too.
  mapped_policy = to_tabular_policy(ours, mapped)
  assert openspiel_exploit.nash_conv(ours.game, mapped_policy) == pytest.approx(
      se.nash_conv(reference, strategy), abs=1e-9)


def test_five_rank_leduc_has_universal_pokers_game_value():
  """The equilibrium values agree: each CFR+ average is within its NashConv
  of its game's value, so the two values differ by at most the sum."""
  universal = (
      "universal_poker(betting=limit,numPlayers=2,numRounds=2,blind=1 1,"
      "raiseSize=2 4,firstPlayer=1 1,maxRaises=2 2,numSuits=2,numRanks=5,"
      "numHoleCards=1,numBoardCards=0 1,stack=20 20,bettingAbstraction=fcpa)")
  values, gaps = [], []
  for name in ["spiel_ext_leduc(ranks=5)", universal]:
    solver = CFRPlusSolver(name)
    for _ in range(400):
      solver.iteration()
    average = solver.average_strategy()
    values.append(solver.tree.root_values(average)[0])
    gaps.append(se.nash_conv(solver.tree, average))
  assert max(gaps) < 0.02
  assert abs(values[0] - values[1]) <= sum(gaps)


def test_three_player_leduc_plays_by_openspiels_rules():
  """Same rules as OpenSpiel's 3-player Leduc on random playouts (the full
  1.8M-history comparison is in test_slow.py)."""
  ours = pyspiel.load_game("spiel_ext_leduc(players=3,ranks=4)")
  reference = pyspiel.load_game("leduc_poker(players=3)")
  rng = np.random.default_rng(1)
  for _ in range(300):
    a, b = ours.new_initial_state(), reference.new_initial_state()
    while not b.is_terminal():
      assert a.current_player() == b.current_player()
      assert a.legal_actions() == b.legal_actions()
      action = int(rng.choice(b.legal_actions()))
      a.apply_action(action)
      b.apply_action(action)
    assert a.is_terminal()
    assert a.returns() == b.returns()


def test_leduc_parameters_change_the_rules():
  capped = pyspiel.load_game("spiel_ext_leduc(bet_cap=3)").new_initial_state()
  for card in (0, 1):
    capped.apply_action(card)
  assert capped.legal_actions() == [1, 2]      # 1 + 2 = 3 <= cap
  capped.apply_action(2)
  assert capped.legal_actions() == [0, 1]      # a re-raise would reach 5 > 3
  big = pyspiel.load_game("spiel_ext_leduc(ranks=5,suits=3,ante=2)")
  assert big.max_chance_outcomes() == 15
  state = big.new_initial_state()
  assert len(state.chance_outcomes()) == 15


VNM_PAYOFFS = [
    # variant, hands (P1, P2) as outcome ids, actions, payoff to P1.
    ("asymmetric", (4, 1), [1], 1.0),           # check, P1 higher: A
    ("asymmetric", (1, 4), [2, 0], 1.0),        # bet, P2 folds: A
    ("asymmetric", (1, 4), [2, 1], -3.0),       # bet, call, P1 lower
    ("asymmetric", (2, 2), [2, 1], 0.0),        # tie splits
    ("raise", (4, 1), [1, 1], 1.0),             # check-check
    ("raise", (4, 1), [1, 2, 0], -1.0),         # check, bet, P1 folds
    ("raise", (4, 1), [1, 2, 1], 3.0),          # check, bet, call
    ("raise", (1, 4), [1, 2, 2, 0], 3.0),       # check-raise, P2 folds
    ("raise", (1, 4), [1, 2, 2, 1], -5.0),      # check-raise called
    ("raise", (1, 4), [2, 0], 1.0),             # bet, fold
    ("raise", (4, 1), [2, 1], 3.0),             # bet, call
    ("raise", (4, 1), [2, 2, 0], -3.0),         # bet, raise, P1 folds
    ("raise", (4, 1), [2, 2, 1], 5.0),          # bet, raise, call
]


@pytest.mark.parametrize("variant,hands,actions,payoff", VNM_PAYOFFS)
def test_vnm_payoffs_by_hand(variant, hands, actions, payoff):
  game = pyspiel.load_game(f"spiel_ext_vnm_poker(hands=5,variant={variant},"
                           "ante=1.0,bet=2.0,raise_size=2.0)")
  state = game.new_initial_state()
  for hand in hands:
    state.apply_action(hand)
  for action in actions:
    assert not state.is_terminal()
    state.apply_action(action)
  assert state.is_terminal()
  assert state.returns() == [payoff, -payoff]


def _asymmetric_lp(hands):
  game = pyspiel.load_game(
      f"spiel_ext_vnm_poker(hands={hands},variant=asymmetric)")
  value, _, player_one, _ = sequence_form_lp.solve_zero_sum_game(game)
  bets = np.array([player_one.policy_for_key(f"P1 hand {h}/{hands}: ")[2]
                   for h in range(1, hands + 1)])
  return value, bets


@pytest.mark.slow
def test_vnm_asymmetric_lp_approaches_the_continuous_solution():
  """B = 2: value 1/9, bluff below a = 1/9, value-bet above b = 7/9."""
  errors = []
  for hands in (10, 50):
    value, bets = _asymmetric_lp(hands)
    errors.append(abs(value - 1 / 9))
    low, high = bets[:hands // 2], bets[hands // 2:]
    assert abs(low.sum() / hands - 1 / 9) <= 1.0 / hands
    assert abs(high.sum() / hands - (1 - 7 / 9)) <= 1.0 / hands
  assert errors[1] < errors[0] < 0.01


@pytest.mark.slow
def test_vnm_raise_lp_value_approaches_minus_88_over_1083():
  errors = []
  for hands in (10, 30):
    game = pyspiel.load_game(f"spiel_ext_vnm_poker(hands={hands})")
    value = sequence_form_lp.solve_zero_sum_game(game)[0]
    errors.append(abs(value + 88 / 1083))
  assert errors[1] < errors[0] < 0.01


@pytest.mark.parametrize("game_name", [
    "spiel_ext_vnm_poker(hands=6,variant=raise)",
    "spiel_ext_vnm_poker(hands=6,variant=asymmetric)",
    "spiel_ext_unknown_env(game=kuhn_poker(),env_seed=2)",
    "spiel_ext_leduc(bet_cap=4)"])
def test_engine_nash_conv_equals_openspiel_on_our_games(game_name):
  game = pyspiel.load_game(game_name)
  tree = compile_game(game)
  for seed in range(2):
    policy = to_tabular_policy(
        tree, random_strategy(tree, np.random.default_rng(seed)))
    assert se.nash_conv(tree, policy) == pytest.approx(
        openspiel_exploit.nash_conv(game, policy), abs=1e-9)


@pytest.mark.parametrize("chance", ["game", "dirichlet"])
def test_unknown_env_is_deterministic_per_seed(chance):
  first = compile_game(true_game_string("kuhn_poker", 7, chance))
  again = pyspiel.load_game(true_game_string("kuhn_poker", 7, chance))
  other = compile_game(true_game_string("kuhn_poker", 8, chance))
  np.testing.assert_array_equal(first.chance_prob,
                                compile_game(again).chance_prob)
  assert not np.array_equal(first.chance_prob, other.chance_prob)
  hidden = [pyspiel.load_game(true_game_string("kuhn_poker", seed,
                                               chance)).hidden
            for seed in (7, 8)]
  assert not np.array_equal(hidden[0].loss_prob, hidden[1].loss_prob)
  # Dirichlet chance differs by seed; the game's own chance does not.
  assert np.array_equal(hidden[0].chance_prob, hidden[1].chance_prob) == (
      chance == "game")
  # The models differ only in the chance: a seed's rewards are the same.
  other_model = "game" if chance == "dirichlet" else "dirichlet"
  np.testing.assert_array_equal(
      hidden[0].loss_prob,
      pyspiel.load_game(true_game_string("kuhn_poker", 7,
                                         other_model)).hidden.loss_prob)
  # The base game's payoffs are gone: rewards are +-1 only.
  assert set(np.unique(first.utility[first.is_terminal])) <= {-1.0, 1.0}


def test_episodes_match_the_hidden_parameters():
  env = Environment("kuhn_poker", env_seed=5, chance="dirichlet")
  hidden = pyspiel.load_game(true_game_string("kuhn_poker", 5,
                                              "dirichlet")).hidden
  rules = env.rules
  rng = np.random.default_rng(0)
  episodes = 100_000
  first_deal = np.zeros(rules.num_histories)
  terminal_visits = np.zeros(rules.num_histories)
  terminal_losses = np.zeros(rules.num_histories)
  strategy = rules.uniform_policy()
  for _ in range(episodes):
    episode = env.play_episode(strategy, rng)
    first_deal[episode.histories[1]] += 1
    terminal_visits[episode.terminal] += 1
    terminal_losses[episode.terminal] += episode.reward < 0
  assert env.episodes == episodes
  deals = np.flatnonzero(rules.parent == 0)
  expected = hidden.chance_prob[deals]
  observed = first_deal[deals] / episodes
  sigma = np.sqrt(expected * (1 - expected) / episodes)
  assert np.all(np.abs(observed - expected) < 5 * sigma)
  busy = terminal_visits > 2000
  p = hidden.loss_prob[busy]
  frequency = terminal_losses[busy] / terminal_visits[busy]
  assert np.all(np.abs(frequency - p) <
                5 * np.sqrt(p * (1 - p) / terminal_visits[busy]) + 1e-9)


# Kuhn's own deal is uniform, which is what the rules show: its hidden chance
# is a secret only when drawn.
@pytest.mark.parametrize("base,chance", [
    ("kuhn_poker", "dirichlet"), ("spiel_ext_bid_leduc(max_bid=1)", "game"),
    ("spiel_ext_bid_leduc(max_bid=1)", "dirichlet")])
def test_learner_view_does_not_expose_hidden_parameters(base, chance):
  env = Environment(base, env_seed=5, chance=chance)
  hidden = pyspiel.load_game(true_game_string(base, 5, chance)).hidden
  public = {name: getattr(env, name) for name in dir(env)
            if not name.startswith("_")}
  public.update({f"rules.{name}": getattr(env.rules, name)
                 for name in dir(env.rules) if not name.startswith("_")})
  for name, value in public.items():
    if isinstance(value, np.ndarray) and value.shape == hidden.chance_prob.shape:
      assert not np.allclose(value, hidden.chance_prob), name
      assert not np.allclose(value, hidden.loss_prob), name


def test_environment_rules_carry_no_numbers():
  """The rules are the base tree's shape, infosets and legal actions, with
  chance uniform at every chance node and utilities 0."""
  env = Environment("spiel_ext_bid_leduc(max_bid=1)", env_seed=0)
  base = compile_game("spiel_ext_bid_leduc(max_bid=1)")
  rules = env.rules
  for name in ("parent", "action", "node_player", "infoset",
               "infoset_player", "infoset_legal", "infoset_history"):
    np.testing.assert_array_equal(getattr(rules, name), getattr(base, name))
  assert rules.infoset_keys == base.infoset_keys
  assert not rules.utility.any()
  below_chance = np.flatnonzero(base.parent_slot == 2)
  np.testing.assert_array_equal(rules.chance_prob[below_chance], 1 / 3)
  assert base.chance_prob[below_chance].min() == 0.0   # Untouched.
  assert rules.chance_prob[base.parent_slot != 2].tolist() == [1.0] * (
      base.num_histories - len(below_chance))


def _lockstep(first, second):
  """Pairs of states of two games reached by the same actions, until the
  first reaches a terminal."""
  stack = [(first.new_initial_state(), second.new_initial_state())]
  while stack:
    a, b = stack.pop()
    yield a, b
    if a.is_terminal():
      continue
    actions = ([action for action, _ in a.chance_outcomes()]
               if a.is_chance_node() else a.legal_actions())
    stack.extend((a.child(action), b.child(action)) for action in actions)


@pytest.mark.parametrize("base", ["kuhn_poker", "leduc_poker",
                                  "spiel_ext_bid_leduc(max_bid=2)"])
def test_chance_game_keeps_the_base_games_chance_exactly(base):
  base_game = pyspiel.load_game(base)
  true_game = pyspiel.load_game(true_game_string(base, 3))
  assert true_game.get_parameters()["chance"] == "game"
  np.testing.assert_array_equal(true_game.hidden.chance_prob,
                                compile_game(base_game).chance_prob)
  chance_nodes = 0
  for base_state, state in _lockstep(base_game, true_game):
    if base_state.is_chance_node():
      assert state.chance_outcomes() == base_state.chance_outcomes()
      chance_nodes += 1
    elif base_state.is_terminal():
      assert state.is_chance_node()          # The reward draw.
  assert chance_nodes > 1


def test_chance_game_episodes_deal_as_the_base_game():
  """Leduc(1) as the base: player 1's rank is player 0's with probability
  1/5, each other rank 2/5, in the episodes too."""
  env = Environment("spiel_ext_bid_leduc(max_bid=1)", env_seed=2)
  rules = env.rules
  rng = np.random.default_rng(1)
  episodes = 20_000
  same = 0
  for _ in range(episodes):
    histories = env.play_episode(rules.uniform_policy(), rng).histories
    ranks = [int(rules.action[h]) for h in histories[1:3]]
    same += ranks[0] == ranks[1]
  sigma = np.sqrt(0.2 * 0.8 / episodes)
  assert abs(same / episodes - 0.2) < 5 * sigma


@pytest.mark.parametrize("game_name", [
    "spiel_ext_unknown_env(game=spiel_ext_bid_leduc(max_bid=2),env_seed=1)",
    "spiel_ext_unknown_env(game=spiel_ext_bid_leduc(max_bid=2),env_seed=1,"
    "chance=dirichlet)",
    "spiel_ext_unknown_env(game=kuhn_poker(),env_seed=6)",
    "spiel_ext_unknown_env(game=kuhn_poker(),env_seed=6,chance=dirichlet)"])
def test_true_game_nash_conv_equals_openspiels(game_name):
  """Exact NashConv of the true game (hidden chance, expected rewards) from
  our engine and from OpenSpiel's evaluator, on random policies."""
  game = pyspiel.load_game(game_name)
  tree = compile_game(game)
  assert tree.num_histories == (game.base_tree.num_histories +
                                2 * len(game.base_tree.terminals))
  for seed in range(2):
    policy = to_tabular_policy(
        tree, random_strategy(tree, np.random.default_rng(seed)))
    ours = se.nash_conv(tree, policy)
    assert ours > 0
    assert ours == pytest.approx(openspiel_exploit.nash_conv(game, policy),
                                 abs=1e-9)


def test_bad_chance_model_is_refused():
  message = r"chance must be one of \['game', 'dirichlet'\]; got 'uniform'"
  with pytest.raises(ValueError, match=message) as error:
    pyspiel.load_game("spiel_ext_unknown_env(game=kuhn_poker(),"
                      "chance=uniform)")
  assert "spiel_ext_unknown_env" in str(error.value)
  with pytest.raises(ValueError, match=message):
    Environment("kuhn_poker", env_seed=0, chance="uniform")
  with pytest.raises(ValueError, match=message):
    true_game_string("kuhn_poker", 0, "uniform")
  assert true_game_string("kuhn_poker", 4) == (
      "spiel_ext_unknown_env(game=kuhn_poker(),env_seed=4)")
  assert true_game_string("kuhn_poker", 4, "dirichlet") == (
      "spiel_ext_unknown_env(game=kuhn_poker(),env_seed=4,chance=dirichlet)")


def _counted_strategy_error(env, strategy, error, match):
  before = env.episodes
  with pytest.raises(error, match=match):
    env.play_episode(strategy, np.random.default_rng(0))
  assert env.episodes == before


def test_play_episode_refuses_what_is_not_a_strategy_before_counting():
  env = Environment("spiel_ext_leduc", env_seed=1)
  rules = env.rules
  env.play_episode(rules.uniform_policy(), np.random.default_rng(0))
  assert env.episodes == 1
  first_key = re.escape(repr(rules.infoset_keys[0]))
  _counted_strategy_error(env, np.zeros_like(rules.uniform_policy()),
                          ValueError, f"strategy .* infoset {first_key}")
  for row, values in [(5, np.nan), (7, -0.5), (9, 0.4)]:
    strategy = rules.uniform_policy()
    legal = np.flatnonzero(rules.infoset_legal[row])
    strategy[row, legal[0]] = values
    key = re.escape(repr(rules.infoset_keys[row]))
    _counted_strategy_error(env, strategy, ValueError,
                            f"strategy .* infoset {key} \\(row {row}\\)")
  # Mass on an illegal action (fold when not facing a bet) is not played.
  strategy = rules.uniform_policy()
  row = int(np.flatnonzero(~rules.infoset_legal[:, 0])[0])
  strategy[row] = [0.5, 0.25, 0.25]
  _counted_strategy_error(env, strategy, ValueError, f"\\(row {row}\\)")
  _counted_strategy_error(env, rules.uniform_policy().astype(object),
                          TypeError, "strategy must be an array of real")
  _counted_strategy_error(env, np.ones(3), ValueError,
                          "strategy must be a float array of shape")
  for rng in (0, np.random.RandomState(0), None):
    with pytest.raises(TypeError, match="rng must be a numpy.random.Generator"):
      env.play_episode(rules.uniform_policy(), rng)
  assert env.episodes == 1
  # Within the tolerance is a distribution.
  strategy = rules.uniform_policy()
  strategy[0, 1] += 1e-9
  env.play_episode(strategy, np.random.default_rng(0))
  assert env.episodes == 2


def test_unknown_env_keeps_probability_zero_outcomes():
  """Outcomes whose hidden probability is 0 stay in chance_outcomes() (as
  in the rules), and OpenSpiel's simulation test still passes."""
  game = UnknownEnvGame({"game": {"name": "kuhn_poker"}, "env_seed": 3})
  hidden = game.hidden
  deals = np.flatnonzero(game.base_tree.parent == 0)
  hidden.chance_prob[deals] = [0.0, 0.25, 0.75]
  terminals = np.flatnonzero(game.base_tree.is_terminal)
  hidden.loss_prob[terminals[::2]] = 0.0
  hidden.loss_prob[terminals[1::2]] = 1.0
  state = game.new_initial_state()
  assert state.chance_outcomes() == [(0, 0.0), (1, 0.25), (2, 0.75)]
  state.apply_action(1)
  state.apply_action(0)
  state.apply_action(0)
  state.apply_action(0)           # Pass, pass: a base terminal.
  assert state.is_chance_node()
  assert sorted(p for _, p in state.chance_outcomes()) == [0.0, 1.0]
  pyspiel.random_sim_test(game, num_sims=30, serialize=False, verbose=False)


def test_unknown_env_states_share_the_instance_not_copy_it():
  game = pyspiel.load_game(true_game_string("kuhn_poker", 2))
  state = game.new_initial_state()
  state.apply_action(0)
  clone = state.clone()
  child = state.child(1)
  assert clone.shared is state.shared is game.instance
  assert child.shared is game.instance
  assert child.base_state.history() == [0, 1]
  assert state.base_state.history() == [0]
  assert not hasattr(unknown_env, "_INSTANCES")
  # Serialization carries the history, not the tree (whose lazy caches
  # may hold unpicklable functions), and the restored state uses its game's.
  compile_game(game.base_tree).best_response(
      game.base_tree.uniform_policy(), 0)
  text = pyspiel.serialize_game_and_state(game, child)
  assert len(text) < 2000
  game_again, state_again = pyspiel.deserialize_game_and_state(text)
  assert state_again.shared is game_again.instance
  assert state_again.base_state.history() == [0, 1]


@pytest.mark.parametrize("game_name,message", [
    ("spiel_ext_leduc(ranks=0)", "ranks must be an integer in 2..13; got 0"),
    ("spiel_ext_leduc(ranks=14)", "ranks must be an integer in 2..13"),
    ("spiel_ext_leduc(suits=0)", "suits must be an integer in 1..100; got 0"),
    ("spiel_ext_leduc(players=1)", "players must be an integer in 2..10"),
    ("spiel_ext_leduc(players=11)", "players must be an integer in 2..10"),
    ("spiel_ext_leduc(ante=-1)",
     "ante must be an integer in 1..1000000000; got -1"),
    ("spiel_ext_leduc(raise_sizes=0 4)", "raise_sizes must be two integers"),
    ("spiel_ext_leduc(raise_sizes=1 2 3)", "raise_sizes must be two integers"),
    ("spiel_ext_leduc(max_raises=-1)",
     "max_raises must be an integer in 0..100"),
    ("spiel_ext_leduc(bet_cap=-3)",
     "bet_cap must be an integer in 0..1000000000000"),
    ("spiel_ext_leduc(ante=3,bet_cap=2)", "bet_cap must be 0 .* or at least"),
    ("spiel_ext_leduc(players=6,ranks=3)", "too few cards"),
    ("spiel_ext_vnm_poker(hands=0)", "hands must be an integer in 2..10000000"),
    ("spiel_ext_vnm_poker(variant=x)", "variant must be one of"),
    ("spiel_ext_vnm_poker(bet=-1.0)", "bet must be a finite number > 0"),
    ("spiel_ext_vnm_poker(ante=0.0)", "ante must be a finite number > 0"),
    ("spiel_ext_unknown_env(game=leduc_poker(players=3))", "two players"),
    ("spiel_ext_unknown_env(env_seed=-1,game=tic_tac_toe())",
     "env_seed must be an integer in 0..2147483647; got -1"),
])
def test_bad_parameters_fail_at_load_time(game_name, message):
  with pytest.raises(ValueError, match=message) as error:
    pyspiel.load_game(game_name)
  assert game_name.split("(")[0] in str(error.value)


@pytest.mark.parametrize("game_name,params,message", [
    ("spiel_ext_leduc", {"raise_sizes": "2"}, "raise_sizes must be two"),
    ("spiel_ext_leduc", {"raise_sizes": "a b"}, "raise_sizes must be two"),
    ("spiel_ext_vnm_poker", {"bet": float("inf")}, "bet must be a finite"),
    ("spiel_ext_vnm_poker", {"raise_size": float("nan")},
     "raise_size must be a finite"),
])
def test_bad_parameter_values_given_as_a_dict(game_name, params, message):
  with pytest.raises(ValueError, match=message):
    pyspiel.load_game(game_name, params)


def test_seed_free_two_player_base_games_are_accepted():
  """A base game without chance nodes: only the rewards are hidden."""
  game = pyspiel.load_game("spiel_ext_unknown_env(game=nim(pile_sizes=1;2))")
  tree = compile_game(game)
  assert tree.num_players == 2
  assert set(np.unique(tree.utility[tree.is_terminal])) <= {-1.0, 1.0}
  with pytest.raises(ValueError, match="env_seed must be an integer >= 0"):
    Environment("kuhn_poker", env_seed=-1)
