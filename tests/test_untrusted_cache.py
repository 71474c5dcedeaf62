"""The tree cache read as untrusted input: signed per user, checked on load.

A file in the cache folder may have been written by someone else. A file
crafted with a recomputed plain checksum, or signed under another key, is
refused; a signed file whose arrays are not a tree of its game (indices out
of range, altered numbers) is refused before the numba passes read it. A
refused file is reported, deleted and rebuilt; values then match OpenSpiel.
"""

import hashlib
import importlib
import io
import json
import os
import re
import stat
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pyspiel
import pytest
from open_spiel.python import policy as openspiel_policy
from open_spiel.python.algorithms import exploitability as openspiel_exploitability
from open_spiel.python.algorithms import expected_game_score

import spiel_ext
from spiel_ext import exploitability
from spiel_ext.engine import CHANCE, TERMINAL, cache, clear_compiled_trees
from spiel_ext.engine import compile_game, fingerprint


def _tree_checks():
  return importlib.import_module("spiel_ext.engine.tree_checks")


def _openspiel_nash_conv(game_string, strategy):
  game = pyspiel.load_game(game_string)
  policy = openspiel_policy.TabularPolicy(game)
  policy.action_probability_array[...] = strategy
  return openspiel_exploitability.nash_conv(game, policy)


def _strategy(tree, seed):
  rng = np.random.default_rng(seed)
  raw = np.where(tree.infoset_legal,
                 rng.gamma(1.0, size=tree.infoset_legal.shape) + 1e-3, 0.0)
  return raw / raw.sum(axis=1, keepdims=True)


def _altered_utilities(tree):
  """Kuhn's payoffs with every showdown won by 2 more (still zero-sum and
  within the game's utility range)."""
  utility = tree.utility.copy()
  showdowns = np.flatnonzero(np.abs(utility[:, 0]) == 1.0)
  utility[showdowns] = 3.0 * utility[showdowns] / 2.0
  return utility


def _write_plain_checksum_file(path, game_string, arrays, keys):
  """What anyone can write: the arrays with a plain (unkeyed) BLAKE2b
  checksum recomputed over them, as the cache files carried before."""
  payload = dict(arrays)
  encoded = [key.encode("utf-8") for key in keys]
  offsets = np.zeros(len(encoded) + 1, dtype=np.int64)
  np.cumsum([len(item) for item in encoded], out=offsets[1:])
  payload["key_blob"] = np.frombuffer(b"".join(encoded), dtype=np.uint8)
  payload["key_offsets"] = offsets
  meta = json.dumps({"game": game_string, "format": fingerprint.FORMAT_VERSION,
                     "version": spiel_ext.__version__,
                     "num_histories": len(arrays["parent"]),
                     "num_infosets": len(keys)}).encode()
  payload["meta"] = np.frombuffer(meta, dtype=np.uint8)
  digest = hashlib.blake2b(digest_size=16)
  digest.update(meta)
  for name in sorted(payload):
    value = np.ascontiguousarray(payload[name])
    digest.update(name.encode())
    digest.update(str(value.dtype).encode() + str(value.shape).encode())
    digest.update(value.data)
  payload["checksum"] = np.frombuffer(digest.hexdigest().encode(),
                                      dtype=np.uint8)
  buffer = io.BytesIO()
  np.savez(buffer, **payload)
  path.parent.mkdir(parents=True, exist_ok=True)
  path.write_bytes(buffer.getvalue())


def test_crafted_file_with_recomputed_checksum_is_refused():
  clear_compiled_trees()
  good = compile_game("kuhn_poker")
  strategy = _strategy(good, seed=1)
  expected = _openspiel_nash_conv("kuhn_poker", strategy)
  arrays = good.arrays()
  arrays["utility"] = _altered_utilities(good)
  path = cache.cache_path(good.game_string)
  _write_plain_checksum_file(path, good.game_string, arrays, good.infoset_keys)
  clear_compiled_trees()
  with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    served = exploitability.nash_conv("kuhn_poker", strategy)
  assert served == pytest.approx(expected, abs=1e-12)
  assert [str(w.message) for w in caught if str(path) in str(w.message)]
  np.testing.assert_array_equal(compile_game("kuhn_poker").utility,
                                good.utility)


def test_file_signed_under_another_key_is_refused_and_rebuilt(monkeypatch):
  clear_compiled_trees()
  good = compile_game("kuhn_poker")
  path = cache.cache_path(good.game_string)
  arrays = good.arrays()
  arrays["utility"] = _altered_utilities(good)
  with monkeypatch.context() as patch:
    patch.setattr(cache, "_secret_key", lambda: b"someone else's key".ljust(
        32, b"\0"))
    assert cache.save(good.game_string, "", arrays, good.infoset_keys) == path
  clear_compiled_trees()
  with pytest.warns(UserWarning, match=re.escape(str(path)) +
                    ".*signature does not match"):
    served = compile_game("kuhn_poker")
  np.testing.assert_array_equal(served.utility, good.utility)
  # Rebuilt and signed with the user's key: read back without a warning.
  clear_compiled_trees()
  with warnings.catch_warnings():
    warnings.simplefilter("error")
    again = compile_game("kuhn_poker")
  assert again is not served
  np.testing.assert_array_equal(again.utility, good.utility)


def test_key_file_is_private_and_a_shared_one_is_not_used(monkeypatch):
  compile_game("kuhn_poker", use_cache=False)
  key_file = cache.key_path()
  assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
  assert key_file.stat().st_size == 32
  os.chmod(key_file, 0o644)
  monkeypatch.setattr(cache, "_keys", {})
  try:
    with pytest.warns(UserWarning, match=re.escape(str(key_file)) +
                      ".*mode 644.*not used"):
      tree = compile_game("kuhn_poker", use_cache=False)
    assert tree.num_histories == 58
    # A second save in the same process says nothing more.
    with warnings.catch_warnings():
      warnings.simplefilter("error")
      assert cache.save(tree.game_string, "", tree.arrays(),
                        tree.infoset_keys) is None
  finally:
    os.chmod(key_file, 0o600)


def test_symbolic_link_in_place_of_a_tree_is_not_followed(tmp_path):
  clear_compiled_trees()
  good = compile_game("kuhn_poker")
  path = cache.cache_path(good.game_string)
  target = tmp_path / "elsewhere.npz"
  target.write_bytes(path.read_bytes())
  path.unlink()
  path.symlink_to(target)
  clear_compiled_trees()
  try:
    with pytest.warns(UserWarning, match="cannot be read"):
      tree = compile_game("kuhn_poker")
    np.testing.assert_array_equal(tree.utility, good.utility)
  finally:
    path.unlink()


_SUBPROCESS_SCRIPT = textwrap.dedent("""
    import json, sys, warnings
    import numpy as np
    from spiel_ext.engine import cache, clear_compiled_trees, compile_game
    field = sys.argv[1]
    tree = compile_game("leduc_poker")
    arrays = tree.arrays()
    if field == "parent":
      arrays["parent"] = arrays["parent"].copy()
      arrays["parent"][len(arrays["parent"]) // 2] = 50_000_000
    elif field == "infoset":
      arrays["infoset"] = arrays["infoset"].copy()
      decision = np.flatnonzero(arrays["node_player"] >= 0)
      arrays["infoset"][decision[len(decision) // 2]] = -50_000_000
    elif field == "infoset_history":
      arrays["infoset_history"] = arrays["infoset_history"].copy()
      arrays["infoset_history"][-1] = 50_000_000
    path = cache.save(tree.game_string, "", arrays, tree.infoset_keys)
    clear_compiled_trees()
    with warnings.catch_warnings(record=True) as caught:
      warnings.simplefilter("always")
      again = compile_game("leduc_poker")
      value = again.values(again.uniform_policy())[0, 0]
    print(json.dumps({"path": str(path),
                      "warnings": [str(w.message) for w in caught],
                      "parent_ok": bool(np.array_equal(again.parent,
                                                       tree.parent)),
                      "value": float(value)}))
""")


@pytest.mark.parametrize("field", [
    "parent", pytest.param("infoset", marks=pytest.mark.slow),
    pytest.param("infoset_history", marks=pytest.mark.slow)])
def test_out_of_range_index_is_refused_without_a_crash(field, tmp_path):
  # In a child process: before the check, numba read out of bounds.
  environment = dict(os.environ, SPIEL_EXT_CACHE_DIR=str(tmp_path / "cache"))
  run = subprocess.run([sys.executable, "-c", _SUBPROCESS_SCRIPT, field],
                       env=environment, capture_output=True, text=True,
                       timeout=600, check=False)
  assert run.returncode == 0, (run.returncode, run.stderr[-2000:])
  report = json.loads(run.stdout.strip().splitlines()[-1])
  refusals = [message for message in report["warnings"]
              if report["path"] in message]
  assert len(refusals) == 1, report["warnings"]
  assert re.search(rf"is corrupt \({field}\[\d+\]", refusals[0]), refusals[0]
  assert report["parent_ok"]
  # Leduc's value for player 0 under uniform play, from OpenSpiel.
  game = pyspiel.load_game("leduc_poker")
  expected = expected_game_score.policy_value(
      game.new_initial_state(),
      [openspiel_policy.UniformRandomPolicy(game)] * 2)
  assert report["value"] == pytest.approx(float(expected[0]), abs=1e-12)


def test_signed_file_with_a_chance_distribution_off_is_refused():
  clear_compiled_trees()
  good = compile_game("kuhn_poker")
  path = cache.cache_path(good.game_string)
  arrays = good.arrays()
  arrays["chance_prob"] = arrays["chance_prob"].copy()
  arrays["chance_prob"][1] = 0.5  # The first deal: 1/2 + 1/3 + 1/3.
  cache.save(good.game_string, "", arrays, good.infoset_keys)
  clear_compiled_trees()
  with pytest.warns(UserWarning, match=re.escape(str(path)) +
                    r".*chance_prob of chance node 0's children sums to"):
    served = compile_game("kuhn_poker")
  np.testing.assert_array_equal(served.chance_prob, good.chance_prob)
  assert not path.exists() or cache.load(good.game_string) is not None


# ----------------------------------------------- the check, case by case
def _mutations():
  """(name, mutate(arrays, keys) -> keys, pattern of the error)."""

  def setter(name, index, value):
    def mutate(arrays, keys):
      arrays[name] = arrays[name].copy()
      arrays[name][index] = value
      return keys
    return mutate

  def first(condition):
    return lambda arrays: int(np.flatnonzero(condition(arrays))[0])

  def at(name, where, value):
    def mutate(arrays, keys):
      arrays[name] = arrays[name].copy()
      arrays[name][where(arrays)] = value
      return keys
    return mutate

  decision = first(lambda a: a["node_player"] >= 0)
  terminal = first(lambda a: a["node_player"] == TERMINAL)
  decision_child = first(lambda a: np.r_[False,
                                         a["node_player"][a["parent"][1:]]
                                         >= 0])
  last_terminal = lambda a: int(np.flatnonzero(a["node_player"] ==
                                               TERMINAL)[-1])

  def swap_subtrees(arrays, keys):
    # Child 2 of the root points at child 1's subtree: no longer pre-order.
    arrays["parent"] = arrays["parent"].copy()
    arrays["parent"][-1] = 1
    return keys

  def retype(name, dtype):
    def mutate(arrays, keys):
      arrays[name] = arrays[name].astype(dtype)
      return keys
    return mutate

  def drop_column(arrays, keys):
    arrays["utility"] = arrays["utility"][:, :1].copy()
    return keys

  def flip_recall(arrays, keys):
    arrays["perfect_recall"] = np.array(not arrays["perfect_recall"])
    return keys

  return [
      ("parent out of range", setter("parent", 5, 10**6), r"^parent\[5\]"),
      ("parent negative", setter("parent", 5, -3), r"^parent\[5\]"),
      ("parent of root", setter("parent", 0, 0), r"^parent\[0\]"),
      ("not pre-order", swap_subtrees, r"pre-order"),
      ("infoset out of range", at("infoset", decision, 10**6),
       r"^infoset\[\d+\]"),
      ("infoset at a terminal", at("infoset", terminal, 0),
       r"^infoset\[\d+\]"),
      ("infoset_player out of range", setter("infoset_player", 0, 7),
       r"^infoset_player\[0\]"),
      ("infoset_history out of range", setter("infoset_history", 0, 10**6),
       r"^infoset_history\[0\]"),
      ("action out of range", at("action", decision_child, 10**6),
       r"^action\[\d+\]"),
      ("action negative", at("action", decision_child, -2),
       r"^action\[\d+\]"),
      ("node_player unknown", setter("node_player", 0, 9),
       r"^node_player\[0\]"),
      ("terminal with a child", at("node_player", decision, TERMINAL),
       r"infoset\[\d+\]|terminal"),
      ("chance_prob above 1", setter("chance_prob", 1, 1.5),
       r"^chance_prob\[1\] is outside \[0, 1\]"),
      ("chance_prob not a number", setter("chance_prob", 1, np.nan),
       r"^chance_prob\[1\] is non-finite"),
      ("chance_prob on a decision edge", at("chance_prob", decision_child,
                                            0.5), r"^chance_prob\[\d+\]"),
      ("chance distribution moved", lambda a, k: _moved_distribution(a, k),
       r"^chance_prob\[\d+\]"),
      ("utility infinite", at("utility", terminal, np.inf),
       r"^utility\[\d+\] is non-finite"),
      ("utility off a terminal", setter("utility", 0, 1.0),
       r"^utility\[0\] is not 0"),
      ("utility altered", at("utility", last_terminal, 0.5),
       r"^utility\[\d+\] .*returns"),
      ("parent as floats", retype("parent", np.float64), r"^parent must"),
      ("utility as float32", retype("utility", np.float32), r"^utility must"),
      ("utility column dropped", drop_column, r"^utility has shape"),
      ("perfect_recall flipped", flip_recall, r"^perfect_recall"),
      ("keys repeated", lambda a, k: [k[0]] * len(k), r"^infoset_keys"),
      ("key altered", lambda a, k: [key + "!" for key in k],
       r"^infoset_keys\[\d+\]"),
      ("key missing", lambda a, k: k[:-1], r"^infoset_keys has"),
  ]


def _moved_distribution(arrays, keys):
  """Kuhn's first deal made (1/2, 1/6, 1/3): still a distribution."""
  arrays["chance_prob"] = arrays["chance_prob"].copy()
  children = np.flatnonzero(arrays["parent"] == 0)
  arrays["chance_prob"][children[0]] = 0.5
  arrays["chance_prob"][children[1]] = 1.0 / 6.0
  return keys


@pytest.mark.parametrize("name,mutate,pattern", _mutations(),
                         ids=[case[0] for case in _mutations()])
def test_check_refuses_each_kind_of_bad_tree(name, mutate, pattern):
  del name
  tree = compile_game("kuhn_poker")
  arrays = tree.arrays()
  keys = mutate(arrays, list(tree.infoset_keys))
  with pytest.raises(ValueError, match=pattern):
    _tree_checks().check_stored_tree(tree.game, arrays, keys)


@pytest.mark.parametrize("game_string", [
    "kuhn_poker", "leduc_poker", "kuhn_poker(players=3)",
    "liars_dice(numdice=1)", "python_kuhn_poker"])
def test_check_accepts_compiled_trees(game_string):
  import open_spiel.python.games  # pylint: disable=unused-import,g-import-not-at-top
  tree = compile_game(game_string)
  _tree_checks().check_stored_tree(tree.game, tree.arrays(),
                                   tree.infoset_keys)
  assert tree.num_chance_nodes >= 0 and CHANCE == -1


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                    reason="giving a file to another user needs root")
def test_key_file_of_another_user_is_not_used(monkeypatch):
  compile_game("kuhn_poker", use_cache=False)
  key_file = cache.key_path()
  owner = key_file.stat().st_uid
  os.chown(key_file, owner + 4242, -1)
  monkeypatch.setattr(cache, "_keys", {})
  try:
    with pytest.warns(UserWarning, match=re.escape(str(key_file)) +
                      rf".*owned by user {owner + 4242}.*not used"):
      assert compile_game("kuhn_poker", use_cache=False).num_histories == 58
  finally:
    os.chown(key_file, owner, -1)
