"""The tree cache: keys that follow the game's definition, and housekeeping."""

import importlib
import json
import os
import stat
import subprocess
import sys
import textwrap
import time

import numpy as np
import pyspiel
import pytest
from open_spiel.python import policy as openspiel_policy
from open_spiel.python.algorithms import exploitability

from spiel_ext.engine import cache, clear_compiled_trees, compile_game
from spiel_ext.engine import fingerprint, tree_checks

# A two-decision toy game written to a file, so a test can edit its payoff.
# Chance deals a card in {0, 1}; player 0 sees it and moves; player 1 sees
# only that move and guesses the card. Player 1 wins PAYOFF for a right guess
# of card 1, 1 for a right guess of card 0, and loses 1 otherwise; player 0
# loses 1 more when its move equals the card (zero-sum).
_TOY_SOURCE = '''
import numpy as np
import pyspiel

PAYOFF = {payoff}

_TYPE = pyspiel.GameType(
    short_name="{name}", long_name="{name}",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2, min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=False,
    provides_observation_tensor=False,
    parameter_specification={{}})


class ToyGame(pyspiel.Game):
  def __init__(self, params=None):
    super().__init__(_TYPE, pyspiel.GameInfo(
        num_distinct_actions=2, max_chance_outcomes=2, num_players=2,
        min_utility=-20.0, max_utility=20.0, utility_sum=0.0,
        max_game_length=3), params or {{}})

  def new_initial_state(self):
    return ToyState(self)

  def make_py_observer(self, iig_obs_type=None, params=None):
    return ToyObserver()


class ToyState(pyspiel.State):
  def __init__(self, game):
    super().__init__(game)
    self.card = None
    self.moves = []

  def current_player(self):
    if self.card is None:
      return pyspiel.PlayerId.CHANCE
    if len(self.moves) == 2:
      return pyspiel.PlayerId.TERMINAL
    return len(self.moves)

  def chance_outcomes(self):
    return [(0, 0.5), (1, 0.5)]

  def _legal_actions(self, player):
    return [0, 1]

  def _apply_action(self, action):
    if self.card is None:
      self.card = action
    else:
      self.moves.append(action)

  def is_terminal(self):
    return self.card is not None and len(self.moves) == 2

  def returns(self):
    if not self.is_terminal():
      return [0.0, 0.0]
    if self.moves[1] != self.card:
      payoff = -1.0
    else:
      payoff = PAYOFF if self.card == 1 else 1.0
    if self.moves[0] == self.card:
      payoff += 1.0
    return [-payoff, payoff]

  def _action_to_string(self, player, action):
    return str(action)

  def __str__(self):
    return f"card {{self.card}} moves {{self.moves}}"


class ToyObserver:
  def __init__(self):
    self.tensor = np.zeros(0, np.float32)
    self.dict = {{}}

  def set_from(self, state, player):
    pass

  def string_from(self, state, player):
    if player == 0:
      return f"p0 card {{state.card}} moves {{state.moves}}"
    return f"p1 moves {{state.moves}}"


pyspiel.register_game(_TYPE, ToyGame)
'''

# Run in a fresh process: NashConv of the uniform policy by spiel_ext (cache
# on) and by OpenSpiel, and whether the tree was on disk before.
_REPORT = textwrap.dedent('''
    import json, sys
    sys.path.insert(0, sys.argv[1])
    import {module}
    import pyspiel
    from open_spiel.python import policy
    from open_spiel.python.algorithms import exploitability
    from spiel_ext import eval as se
    from spiel_ext.engine import cache, compile_game, fingerprint
    game = pyspiel.load_game("{name}")
    path = cache.cache_path(str(game), fingerprint.game_fingerprint(game))
    was_stored = path.exists()
    ours = se.nash_conv(game, compile_game(game).uniform_policy())
    reference = exploitability.nash_conv(game,
                                         policy.UniformRandomPolicy(game))
    print(json.dumps({{"ours": ours, "reference": reference,
                      "was_stored": was_stored, "stored": path.exists()}}))
''')


def _write_toy(folder, module, name, payoff, age_seconds=0.0):
  path = folder / f"{module}.py"
  path.write_text(_TOY_SOURCE.format(name=name, payoff=payoff))
  if age_seconds:
    past = time.time() - age_seconds
    os.utime(path, (past, past))
  return path


def _report(folder, module, name, cache_folder):
  script = _REPORT.format(module=module, name=name)
  env = dict(os.environ, SPIEL_EXT_CACHE_DIR=str(cache_folder))
  result = subprocess.run([sys.executable, "-c", script, str(folder)],
                          capture_output=True, text=True, env=env, check=False,
                          timeout=300)
  assert result.returncode == 0, result.stderr
  return json.loads(result.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_editing_a_python_game_between_processes_gives_the_new_tree(tmp_path):
  cache_folder = tmp_path / "cache"
  _write_toy(tmp_path, "toy_stale_game", "engine_test_stale_toy", 1.0)
  first = _report(tmp_path, "toy_stale_game", "engine_test_stale_toy",
                  cache_folder)
  again = _report(tmp_path, "toy_stale_game", "engine_test_stale_toy",
                  cache_folder)
  # By hand: under uniform play player 1 gains 0 with PAYOFF 1 (both guesses
  # are worth 0) and player 0 gains 1/2 by moving away from the card.
  assert first["reference"] == pytest.approx(0.5, abs=1e-12)
  assert first["ours"] == pytest.approx(first["reference"], abs=1e-12)
  assert not first["was_stored"] and first["stored"]
  assert again["was_stored"] and again["ours"] == first["ours"]

  _write_toy(tmp_path, "toy_stale_game", "engine_test_stale_toy", 5.0)
  edited = _report(tmp_path, "toy_stale_game", "engine_test_stale_toy",
                   cache_folder)
  # PAYOFF 5: guessing 1 is worth (5 - 1) / 2 = 2 to player 1, 1 more than
  # the uniform guess, so NashConv is 1/2 + 1.
  assert edited["reference"] == pytest.approx(1.5, abs=1e-12)
  assert edited["ours"] == pytest.approx(edited["reference"], abs=1e-12)
  assert not edited["was_stored"] and edited["stored"]


def _import_toy(tmp_path, monkeypatch, module, name, payoff):
  _write_toy(tmp_path, module, name, payoff, age_seconds=3600)
  monkeypatch.syspath_prepend(str(tmp_path))
  return importlib.import_module(module)


def _openspiel_nash_conv(game):
  return exploitability.nash_conv(game,
                                  openspiel_policy.UniformRandomPolicy(game))


def _uniform_nash_conv(tree):
  uniform = tree.uniform_policy()
  return sum(tree.best_response(uniform, p)[0] - tree.root_values(uniform)[p]
             for p in range(tree.num_players))


def test_reloaded_game_class_is_not_served_from_memory(tmp_path, monkeypatch):
  module = _import_toy(tmp_path, monkeypatch, "toy_reload_game",
                       "engine_test_reload_toy", 1.0)
  try:
    before = compile_game("engine_test_reload_toy")
    assert _uniform_nash_conv(before) == pytest.approx(0.5, abs=1e-12)
    _write_toy(tmp_path, "toy_reload_game", "engine_test_reload_toy", 5.0)
    importlib.reload(module)
    game = pyspiel.load_game("engine_test_reload_toy")
    after = compile_game("engine_test_reload_toy")
    assert after is not before
    assert _uniform_nash_conv(after) == pytest.approx(
        _openspiel_nash_conv(game), abs=1e-12)
    assert _uniform_nash_conv(after) == pytest.approx(1.5, abs=1e-12)
  finally:
    sys.modules.pop("toy_reload_game", None)


def test_python_game_fingerprint_follows_its_source(tmp_path, monkeypatch):
  module = _import_toy(tmp_path, monkeypatch, "toy_print_game",
                       "engine_test_print_toy", 1.0)
  try:
    game = pyspiel.load_game("engine_test_print_toy")
    first = fingerprint.game_fingerprint(game)
    assert first  # A Python game: its source is part of the key.
    assert fingerprint.game_fingerprint(pyspiel.load_game("kuhn_poker")) == ""
    assert (cache.cache_path(str(game), first) !=
            cache.cache_path(str(game), ""))
    # The class in memory is unchanged by an edit of its file: same key.
    _write_toy(tmp_path, "toy_print_game", "engine_test_print_toy", 2.0,
               age_seconds=1800)
    assert fingerprint.game_fingerprint(game) == first
    importlib.reload(module)
    reloaded = pyspiel.load_game("engine_test_print_toy")
    second = fingerprint.game_fingerprint(reloaded)
    assert second and second != first
    # A game nested in the parameters of a C++ wrapper is followed too.
    wrapped = pyspiel.load_game("zerosum(game=engine_test_print_toy())")
    assert type(wrapped) is pyspiel.Game
    assert fingerprint.game_fingerprint(wrapped) == second
  finally:
    sys.modules.pop("toy_print_game", None)


def test_python_game_without_source_is_kept_in_memory_only(monkeypatch):
  monkeypatch.setattr(fingerprint, "_source_fingerprint", lambda classes: None)
  monkeypatch.setattr(fingerprint, "_class_fingerprints", {})
  import open_spiel.python.games  # pylint: disable=unused-import,g-import-not-at-top
  game = pyspiel.load_game("python_kuhn_poker")
  assert fingerprint.game_fingerprint(game) is None
  saved = []
  monkeypatch.setattr(cache, "save", lambda *args: saved.append(args))
  monkeypatch.setattr(cache, "load", lambda *args: pytest.fail("read disk"))
  clear_compiled_trees()
  tree = compile_game(game)
  assert tree.num_histories == 58 and not saved
  assert compile_game(game) is tree  # Memoised all the same.


def test_use_cache_false_refreshes_memory_and_disk(monkeypatch):
  clear_compiled_trees()
  good = compile_game("kuhn_poker")
  path = cache.cache_path(good.game_string)
  # Plant a stale tree (payoffs doubled) where kuhn_poker's is stored, with
  # the replay of terminals in pyspiel off so the load's check passes it.
  monkeypatch.setattr(tree_checks, "SPOT_CHECKED_TERMINALS", 0)
  stale = good.arrays()
  stale["utility"] = 2.0 * stale["utility"]
  cache.save(good.game_string, "", stale, good.infoset_keys)
  clear_compiled_trees()
  served = compile_game("kuhn_poker")
  np.testing.assert_array_equal(served.utility, 2.0 * good.utility)
  refreshed = compile_game("kuhn_poker", use_cache=False)
  np.testing.assert_array_equal(refreshed.utility, good.utility)
  assert compile_game("kuhn_poker") is refreshed  # The memo is refreshed.
  clear_compiled_trees()
  np.testing.assert_array_equal(compile_game("kuhn_poker").utility,
                                good.utility)  # And so is the disk.
  assert path.exists()


def test_corrupt_file_is_deleted_and_rebuilt():
  clear_compiled_trees()
  good = compile_game("kuhn_poker")
  path = cache.cache_path(good.game_string)
  path.write_bytes(b"not an npz file")
  clear_compiled_trees()
  with pytest.warns(UserWarning, match="is corrupt"):
    rebuilt = compile_game("kuhn_poker")
  np.testing.assert_array_equal(rebuilt.parent, good.parent)
  assert path.read_bytes() != b"not an npz file"  # Rewritten.


def test_unreadable_file_is_reported_and_kept(monkeypatch):
  clear_compiled_trees()
  good = compile_game("kuhn_poker")
  path = cache.cache_path(good.game_string)
  content = path.read_bytes()
  os.chmod(path, 0)
  real_open = cache._open_for_reading  # pylint: disable=protected-access

  def refuse(candidate):
    if candidate == path:
      # Tests may run as root, where mode 0 does not stop a read.
      raise PermissionError(13, "Permission denied", str(candidate))
    return real_open(candidate)

  monkeypatch.setattr(cache, "_open_for_reading", refuse)
  clear_compiled_trees()
  try:
    with pytest.warns(UserWarning, match="cannot be read"):
      tree = compile_game("kuhn_poker")
    np.testing.assert_array_equal(tree.utility, good.utility)
    assert path.exists()
    os.chmod(path, 0o644)
    assert path.read_bytes() == content  # Neither deleted nor overwritten.
  finally:
    os.chmod(path, 0o644)


def test_stale_temporaries_are_swept_fresh_ones_kept(tmp_path):
  stale = tmp_path / "abc.tmp"
  fresh = tmp_path / "def.tmp"
  other = tmp_path / "tree.npz"
  for path in (stale, fresh, other):
    path.write_bytes(b"x" * 10)
  two_hours_ago = time.time() - 7200
  os.utime(stale, (two_hours_ago, two_hours_ago))
  os.utime(other, (two_hours_ago, two_hours_ago))
  assert cache.sweep_stale_temporaries(tmp_path) == 1
  assert not stale.exists() and fresh.exists() and other.exists()


def test_saving_sweeps_temporaries_a_killed_writer_left(monkeypatch):
  clear_compiled_trees()
  tree = compile_game("kuhn_poker")
  folder = cache.cache_path(tree.game_string).parent
  leftover = folder / "killed_mid_save.tmp"
  leftover.write_bytes(b"x" * 1000)
  two_hours_ago = time.time() - 7200
  os.utime(leftover, (two_hours_ago, two_hours_ago))
  monkeypatch.setattr(cache, "_swept_folders", set())
  compile_game("kuhn_poker", use_cache=False)
  assert not leftover.exists()


@pytest.mark.parametrize("umask,mode", [(0o002, 0o664), (0o077, 0o600),
                                        (0o022, 0o644)])
def test_files_get_the_permissions_the_umask_allows(umask, mode):
  previous = os.umask(umask)
  try:
    clear_compiled_trees()
    tree = compile_game("kuhn_poker", use_cache=False)
  finally:
    os.umask(previous)
  path = cache.cache_path(tree.game_string)
  assert stat.S_IMODE(path.stat().st_mode) == mode


def test_max_histories_holds_for_trees_in_memory_and_on_disk():
  clear_compiled_trees()
  tree = compile_game("leduc_poker")
  assert tree.num_histories == 9457
  with pytest.raises(ValueError, match=r"too large .* 9\.46e\+03 histories.*"
                     r"max_histories=100"):
    compile_game("leduc_poker", max_histories=100)  # From memory.
  clear_compiled_trees()
  with pytest.raises(ValueError, match="max_histories=100"):
    compile_game("leduc_poker", max_histories=100)  # From disk.
  with pytest.raises(ValueError, match="max_histories=100"):
    compile_game(tree, max_histories=100)  # An already compiled tree.
  assert compile_game("leduc_poker", max_histories=9457) is not None
