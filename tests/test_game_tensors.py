"""Tensors of our games: OpenSpiel's Leduc layout, hand-worked layouts, the
unknown environment's base tensors, and OpenSpiel's RL tools on them."""

import numpy as np
import pyspiel
import pytest
from open_spiel.python import rl_environment
from open_spiel.python.observation import make_observation

import spiel_ext  # pylint: disable=unused-import


def _observer_types():
  """Every observation type both OpenSpiel's Leduc and ours support."""
  types = []
  for perfect_recall in (False, True):
    for private in (pyspiel.PrivateInfoType.NONE,
                    pyspiel.PrivateInfoType.SINGLE_PLAYER,
                    pyspiel.PrivateInfoType.ALL_PLAYERS):
      for public in (False, True):
        types.append(pyspiel.IIGObservationType(
            perfect_recall=perfect_recall, public_info=public,
            private_info=private))
  return types


def _walk_pairs(ours, reference):
  """Every state of both games, reached by the same actions."""
  stack = [(ours.new_initial_state(), reference.new_initial_state())]
  while stack:
    a, b = stack.pop()
    yield a, b
    if b.is_terminal():
      continue
    assert a.legal_actions() == b.legal_actions()
    for action in b.legal_actions():
      stack.append((a.child(action), b.child(action)))


def test_default_leduc_tensors_equal_openspiels_on_every_state():
  ours = pyspiel.load_game("spiel_ext_leduc")
  reference = pyspiel.load_game("leduc_poker")
  assert ours.information_state_tensor_shape() == [30]
  assert ours.information_state_tensor_shape() == (
      reference.information_state_tensor_shape())
  assert ours.observation_tensor_shape() == (
      reference.observation_tensor_shape())
  assert ours.max_game_length() == reference.max_game_length()
  count = 0
  for a, b in _walk_pairs(ours, reference):
    count += 1
    if a.is_chance_node():
      continue
    for player in range(2):
      assert a.information_state_tensor(player) == (
          b.information_state_tensor(player)), (str(b), player)
      assert a.observation_tensor(player) == b.observation_tensor(player)
  assert count == 9457


@pytest.mark.parametrize("obs_type", _observer_types(),
                         ids=lambda t: f"{t.perfect_recall}-"
                         f"{t.private_info}-{t.public_info}")
def test_leduc_observers_equal_openspiels_for_every_observation_type(
    obs_type):
  """Same named pieces, shapes and values as the C++ observer, on random
  playouts of the 3-player game (OpenSpiel's needs a deck of 8: ranks=4)."""
  ours = pyspiel.load_game("spiel_ext_leduc(players=3,ranks=4)")
  reference = pyspiel.load_game("leduc_poker(players=3)")
  ours_obs = make_observation(ours, obs_type)
  reference_obs = make_observation(reference, obs_type)
  assert {k: v.shape for k, v in ours_obs.dict.items()} == {
      k: v.shape for k, v in reference_obs.dict.items()}
  rng = np.random.default_rng(3)
  for _ in range(40):
    a, b = ours.new_initial_state(), reference.new_initial_state()
    while True:
      for player in range(3):
        ours_obs.set_from(a, player)
        reference_obs.set_from(b, player)
        np.testing.assert_array_equal(ours_obs.tensor, reference_obs.tensor)
      if b.is_terminal():
        break
      action = int(rng.choice(b.legal_actions()))
      a.apply_action(action)
      b.apply_action(action)


def test_leduc_tensor_layout_scales_with_the_parameters():
  """A hand-worked state of Leduc with 4 ranks and 3 raises per round:
  8 cards, B = 2 + 3 * 1 = 5 actions per round."""
  game = pyspiel.load_game("spiel_ext_leduc(ranks=4,max_raises=3)")
  assert game.information_state_tensor_shape() == [2 + 8 + 8 + 2 * 5 * 2]
  assert game.observation_tensor_shape() == [2 + 8 + 8 + 2]
  state = game.new_initial_state()
  for action in [5, 2, 2, 2, 1, 7, 1]:  # Deal, raise, raise, call, deal, check.
    state.apply_action(action)
  expected = np.zeros(38)
  expected[1] = 1                      # Player 1 observes.
  expected[2 + 2] = 1                  # Private card 2.
  expected[10 + 7] = 1                 # Public card 7.
  betting = np.zeros((2, 5, 2))
  betting[0, 0] = betting[0, 1] = (0, 1)   # Raise, raise.
  betting[0, 2] = (1, 0)                   # Call.
  betting[1, 0] = (1, 0)                   # Check.
  expected[18:] = betting.ravel()
  np.testing.assert_array_equal(state.information_state_tensor(1), expected)
  observation = np.zeros(20)
  observation[1] = observation[2 + 2] = observation[10 + 7] = 1
  observation[18:] = (5, 5)            # Ante 1 + raises of 2 and 2.
  np.testing.assert_array_equal(state.observation_tensor(1), observation)


def test_vnm_tensor_layout_by_hand():
  game = pyspiel.load_game("spiel_ext_vnm_poker(hands=5,variant=raise)")
  assert game.information_state_tensor_shape() == [2 + 5 + 4 * 3]
  assert game.observation_tensor_shape() == [2 + 5 + 2]
  state = game.new_initial_state()
  for action in [3, 1, 1, 2]:   # Hands 4 and 2; P1 checks, P2 bets.
    state.apply_action(action)
  info = np.zeros(19)
  info[0] = 1                   # P1 observes.
  info[2 + 3] = 1               # Hand 4 of 5.
  info[7 + 0 * 3 + 1] = 1       # Turn 0: check (action 1).
  info[7 + 1 * 3 + 2] = 1       # Turn 1: bet (action 2).
  np.testing.assert_array_equal(state.information_state_tensor(0), info)
  np.testing.assert_array_equal(state.observation_tensor(0),
                                [1, 0, 0, 0, 0, 1, 0, 1, 3])
  assert state.observation_string(0) == "P1 hand 4/5 pot 1 3"
  state.apply_action(2)         # P1 raises: 1 + 2 + 2 = 5 chips.
  np.testing.assert_array_equal(state.observation_tensor(1),
                                [0, 1, 0, 1, 0, 0, 0, 5, 3])
  asymmetric = pyspiel.load_game("spiel_ext_vnm_poker(hands=3,"
                                 "variant=asymmetric)")
  assert asymmetric.information_state_tensor_shape() == [2 + 3 + 2 * 3]


@pytest.mark.parametrize("base", ["kuhn_poker", "leduc_poker"])
def test_unknown_env_tensors_are_the_base_games_plus_the_reward(base):
  game = pyspiel.load_game(f"spiel_ext_unknown_env(game={base}(),env_seed=3)")
  base_game = pyspiel.load_game(base)
  assert game.information_state_tensor_shape() == [
      base_game.information_state_tensor_size() + 2]
  assert game.observation_tensor_shape() == [
      base_game.observation_tensor_size() + 2]
  rng = np.random.default_rng(0)
  rewards = set()
  for _ in range(30):
    state, base_state = game.new_initial_state(), base_game.new_initial_state()
    while not state.is_terminal():
      if state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes())
        action = int(rng.choice(actions, p=probs))
      else:
        action = int(rng.choice(state.legal_actions()))
      if not base_state.is_terminal():
        base_state.apply_action(action)
      else:
        reward_bits = [0, 0]
        reward_bits[action] = 1
      state.apply_action(action)
      for player in range(2):
        bits = reward_bits if state.is_terminal() else [0, 0]
        assert state.information_state_tensor(player) == (
            base_state.information_state_tensor(player) + bits)
        assert state.observation_tensor(player) == (
            base_state.observation_tensor(player) + bits)
    rewards.add(state.returns()[0])
  assert rewards == {-1.0, 1.0}


def test_unknown_env_without_base_tensors_says_so():
  """nim has no information-state tensor: the instance's GameType says so,
  and the observation tensor is still there."""
  game = pyspiel.load_game("spiel_ext_unknown_env(game=nim(pile_sizes=1;2))")
  game_type = game.get_type()
  assert not game_type.provides_information_state_tensor
  assert game_type.provides_observation_tensor
  base = pyspiel.load_game("nim(pile_sizes=1;2)")
  state = game.new_initial_state()
  assert state.observation_tensor(0) == (
      base.new_initial_state().observation_tensor(0) + [0, 0])
  pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)
  with pytest.raises(ValueError, match="provides no tensor"):
    make_observation(game, pyspiel.IIGObservationType(
        perfect_recall=True)).set_from(state, 0)


@pytest.mark.parametrize("game_name", [
    "spiel_ext_leduc()", "spiel_ext_vnm_poker(hands=4)",
    "spiel_ext_unknown_env(game=kuhn_poker(),env_seed=1)"])
def test_rl_environment_plays_our_games_with_info_state_tensors(game_name):
  env = rl_environment.Environment(game_name)
  env.seed(0)
  size = env.observation_spec()["info_state"][0]
  assert size == env.game.information_state_tensor_size()
  rng = np.random.default_rng(0)
  for _ in range(20):
    time_step = env.reset()
    while not time_step.last():
      player = time_step.observations["current_player"]
      state = env.get_state
      for p in range(env.num_players):
        info_state = time_step.observations["info_state"][p]
        assert len(info_state) == size
        assert list(info_state) == state.information_state_tensor(p)
      action = int(rng.choice(time_step.observations["legal_actions"][player]))
      time_step = env.step([action])
    assert sum(time_step.rewards) == pytest.approx(0.0)


@pytest.mark.torch
def test_nfsp_agents_train_on_spiel_ext_leduc():
  """OpenSpiel's PyTorch NFSP runs on our Leduc as on its own."""
  pytest.importorskip("torch")
  pytest.importorskip("tree")  # dm-tree, which OpenSpiel's NFSP imports.
  from open_spiel.python.pytorch import nfsp  # pylint: disable=g-import-not-at-top
  env = rl_environment.Environment("spiel_ext_leduc()")
  env.seed(0)
  state_size = env.observation_spec()["info_state"][0]
  num_actions = env.action_spec()["num_actions"]
  assert (state_size, num_actions) == (30, 3)
  agents = [nfsp.NFSP(player, state_representation_size=state_size,
                      num_actions=num_actions, hidden_layers_sizes=[16],
                      reservoir_buffer_capacity=1000,
                      anticipatory_param=0.5, batch_size=16,
                      learn_every=16, min_buffer_size_to_learn=16)
            for player in range(2)]
  steps = 0
  while steps < 400:
    time_step = env.reset()
    while not time_step.last():
      player = time_step.observations["current_player"]
      output = agents[player].step(time_step)
      assert output.action in time_step.observations["legal_actions"][player]
      time_step = env.step([output.action])
      steps += 1
    for agent in agents:
      agent.step(time_step)
  # Both networks learned (their losses exist and are finite).
  for agent in agents:
    sl_loss, rl_loss = agent.loss
    assert np.isfinite(float(sl_loss)) and np.isfinite(float(rl_loss))
