"""Big games are refused in time, with one-line errors naming what is wrong.

The size forecast counts the trees of games whose shape follows from their
parameters (deep raise chains that random walks miss); every parameter of
our games has an upper bound checked before anything is built; pyspiel's
unreadable numbers are named; the runner answers each refusal in one line;
and ``--experiment=report`` reads a folder it cannot write to.
"""

import os
import stat
import time

import pyspiel
import pytest
from absl import flags

from conftest import at_most

from spiel_ext import cli
from spiel_ext.engine import admission, clear_compiled_trees, compile_game
from spiel_ext.engine import load_game
from spiel_ext.engine.admission import estimate_num_histories


def _count(game_string: str) -> int | None:
  # Imported here: the module is new, and the other tests of this file
  # must still run (and fail as they should) without it.
  from spiel_ext.engine.game_sizes import count_histories  # pylint: disable=g-import-not-at-top
  return count_histories(pyspiel.load_game(game_string))


@pytest.mark.parametrize("game_string", [
    "kuhn_poker", "kuhn_poker(players=4)",
    "leduc_poker", pytest.param("leduc_poker(players=3)",
                                marks=pytest.mark.slow), "spiel_ext_leduc",
    "spiel_ext_leduc(max_raises=5)", "spiel_ext_leduc(max_raises=0)",
    "spiel_ext_leduc(bet_cap=7)",
    "spiel_ext_leduc(blinds=1 2,fold_always=True,round2_first=after_last,"
    "ranks=5)",
    "spiel_ext_leduc(players=3,blinds=1 1,ranks=2,suits=2)",
    "spiel_ext_leduc(bet_cap=9,players=3,ranks=3,max_raises=3,"
    "raise_sizes=1 3)",
    "spiel_ext_bid_leduc(max_bid=1)", "spiel_ext_bid_leduc(max_bid=5)",
    "spiel_ext_vnm_poker", "spiel_ext_vnm_poker(variant=asymmetric,hands=3)",
    "spiel_ext_unknown_env(game=spiel_ext_bid_leduc(max_bid=2),env_seed=0)",
])
def test_the_count_from_the_rules_is_the_compiled_trees_size(game_string):
  """The compiler's walk over pyspiel states is the reference."""
  assert _count(game_string) == compile_game(game_string).num_histories


def test_the_counts_match_published_and_reported_sizes():
  """OpenSpiel's Leduc has 9,457 histories; Leduc with 20 raises per round,
  608,857 (the size that random walks put at 28,244); the documented sizes
  of Leduc(k)."""
  assert _count("leduc_poker") == 9457
  assert _count("spiel_ext_leduc(max_raises=20)") == 608_857
  assert [_count(f"spiel_ext_bid_leduc(max_bid={k})")
          for k in range(1, 6)] == [148, 661, 2605, 9652, 34438]


def test_random_walks_miss_the_raise_chains_the_count_sees():
  """Why the count is needed: the walks' estimate is far below the truth."""
  game = pyspiel.load_game("spiel_ext_leduc(max_raises=20)")
  assert estimate_num_histories(game) < 608_857 / 10


@pytest.fixture(name="two_gib")
def _two_gib(monkeypatch):
  """2 GiB of available memory: trees up to 1 GiB (8.1e6 histories of two
  players) are admitted."""
  monkeypatch.setattr(admission, "_available_memory_bytes", lambda: 2**31)
  clear_compiled_trees()
  yield
  clear_compiled_trees()


@pytest.mark.parametrize("game_string,limit", [
    ("spiel_ext_leduc(max_raises=100)", None),  # 1.46e7 histories.
    ("spiel_ext_leduc(max_raises=100)", 10**6),
    ("spiel_ext_leduc(max_raises=100,players=3,ranks=4)", 10**7),
    ("spiel_ext_leduc(players=10,ranks=11)", None),
    ("spiel_ext_bid_leduc(max_bid=100)", None),
])
def test_a_deep_betting_game_is_refused_in_a_second(game_string, limit,
                                                    two_gib):
  del two_gib
  start = time.perf_counter()
  with at_most(20), pytest.raises(ValueError) as refused:
    compile_game(game_string, use_cache=False, max_histories=limit)
  assert time.perf_counter() - start < 3
  message = str(refused.value)
  assert "\n" not in message
  assert "too large to compile: at least " in message
  assert ("half the available memory" if limit is None else
          f"max_histories={limit}") in message


def test_a_refusal_names_how_far_above_the_limit_the_game_is():
  """The count goes on past the limit, so the error says the real size
  (Leduc with 100 raises per round: 14,562,457 histories)."""
  with pytest.raises(ValueError, match=r"at least 1\.46e\+07 histories"):
    compile_game("spiel_ext_leduc(max_raises=100)", use_cache=False,
                 max_histories=10**6)


def test_a_game_within_the_limit_is_still_compiled():
  clear_compiled_trees()
  tree = compile_game("spiel_ext_leduc(max_raises=5)", use_cache=False,
                      max_histories=44557)
  assert tree.num_histories == 44557


@pytest.mark.parametrize("game_string,message", [
    ("spiel_ext_leduc(max_raises=101)",
     "max_raises must be an integer in 0..100; got 101"),
    ("spiel_ext_leduc(max_raises=1000000)",
     "max_raises must be an integer in 0..100; got 1000000"),
    ("spiel_ext_leduc(suits=101)", "suits must be an integer in 1..100"),
    ("spiel_ext_leduc(ante=1000000001)",
     "ante must be an integer in 1..1000000000"),
    ("spiel_ext_leduc(bet_cap=2000000000)", None),  # Within its bound.
    ("spiel_ext_leduc(raise_sizes=2 1000000001)",
     "raise_sizes must be two integers in 1..1000000000"),
    ("spiel_ext_leduc(blinds=1 1000000001)",
     "blinds must be .* <= 1000000000"),
    ("spiel_ext_bid_leduc(max_bid=101)",
     "max_bid must be an integer in 1..100; got 101"),
    ("spiel_ext_bid_leduc(max_bid=1000000000)",
     "max_bid must be an integer in 1..100; got 1000000000"),
    ("spiel_ext_vnm_poker(hands=10000001)",
     "hands must be an integer in 2..10000000"),
    ("spiel_ext_vnm_poker(ante=10000000000.0)",
     r"ante must be a finite number in \(0, 1e\+09\]"),
    ("spiel_ext_vnm_poker(bet=2000000000.0)", "bet must be a finite number"),
    ("spiel_ext_vnm_poker(raise_size=1e300)", None),  # pyspiel: a string.
])
def test_every_parameter_has_an_upper_bound_checked_at_load(game_string,
                                                            message):
  with at_most(20), pytest.raises(ValueError) as refused:
    load_game(game_string)
    if message is None:  # Loaded: its size is still forecast at once.
      compile_game(game_string, use_cache=False, max_histories=1000)
  assert "\n" not in str(refused.value)
  if message is not None:
    assert game_string.split("(")[0] in str(refused.value)
    assert refused.match(message)


def test_bid_leduc_with_a_billion_bids_is_refused_not_out_of_memory():
  with at_most(20), pytest.raises(ValueError, match="max_bid must be an "
                                   r"integer in 1\.\.100"):
    compile_game("spiel_ext_bid_leduc(max_bid=1000000000)")


@pytest.mark.parametrize("game_string,message", [
    ("spiel_ext_leduc(max_raises=2147483648)",
     "spiel_ext_leduc: max_raises must be an integer in 0..100; got "
     "2147483648"),
    ("spiel_ext_leduc(max_raises=100000000000000000000)",
     "max_raises must be an integer in 0..100; got 100000000000000000000"),
    ("kuhn_poker(players=2147483648)",
     "kuhn_poker: players=2147483648 is outside the integers a game string "
     "holds (-2147483648..2147483647)"),
    ("spiel_ext_unknown_env(game=spiel_ext_bid_leduc(max_bid=9999999999),"
     "env_seed=0)", "spiel_ext_bid_leduc: max_bid must be an integer in "
     "1..100; got 9999999999"),
    ("spiel_ext_unknown_env(env_seed=4294967296)",
     "env_seed must be an integer in 0..2147483647; got 4294967296"),
    ("kuhn_poker(players=1-2)", "kuhn_poker: players='1-2' is not a number"),
    ("leduc_poker(players=.)", "leduc_poker: players='.' is not a number"),
])
def test_numbers_pyspiel_cannot_read_are_named(game_string, message):
  with pytest.raises(ValueError) as refused:
    load_game(game_string)
  assert "CHECK_TRUE" not in str(refused.value)
  assert "\n" not in str(refused.value)
  assert message in str(refused.value)


def _plan(*argv):
  flag_values = flags.FlagValues()
  cli.define_flags(flag_values)
  flag_values(["run_experiments.py", *argv])
  return flag_values


@pytest.fixture(name="warm", scope="module")
def _warm():
  """Imports what planning and running import (seconds, once), so that the
  timings below are the refusals'."""
  cli.plan(_plan("--experiment=quickstart", "--iterations=1", "--seeds=1",
                 "--algorithms=CFR", "--games=kuhn_poker"))
  compile_game("kuhn_poker")


@pytest.mark.parametrize("game_string,needle", [
    ("spiel_ext_unknown_env(game=spiel_ext_bid_leduc(max_bid=1000000000),"
     "env_seed=0)", "max_bid must be an integer in 1..100"),
    ("spiel_ext_unknown_env(game=spiel_ext_leduc(max_raises=100),"
     "env_seed=0)", "too large to compile: at least"),
    ("spiel_ext_unknown_env(game=spiel_ext_leduc(max_raises=1000000),"
     "env_seed=0)", "max_raises must be an integer in 0..100"),
])
def test_the_runner_refuses_a_nested_big_game_in_one_line(game_string, needle,
                                                          warm, two_gib):
  del warm, two_gib
  flag_values = _plan("--experiment=vcfr_ablations", f"--games={game_string}",
                      "--iterations=1", "--seeds=1")
  start = time.perf_counter()
  with at_most(20), pytest.raises(SystemExit) as refused:
    cli.plan(flag_values)
  assert time.perf_counter() - start < 3
  message = refused.value.code
  assert isinstance(message, str) and "\n" not in message
  assert message.startswith("run_experiments.py: error: --games: ")
  assert needle in message


def test_the_runner_refuses_a_game_too_large_to_compile_in_one_line(tmp_path,
                                                                   warm,
                                                                   two_gib):
  del warm, two_gib
  flag_values = _plan("--experiment=quickstart", "--iterations=1",
                      "--seeds=1", "--algorithms=CFR",
                      "--games=spiel_ext_leduc(max_raises=100)",
                      f"--output_dir={tmp_path / 'out'}", "--quiet")
  start = time.perf_counter()
  with at_most(20), pytest.raises(SystemExit) as refused:
    cli.run(flag_values)
  assert time.perf_counter() - start < 3
  assert "\n" not in refused.value.code
  assert "too large to compile: at least" in refused.value.code
  assert not (tmp_path / "out").exists()  # Nothing written.


def test_the_report_reads_an_output_dir_it_cannot_write(tmp_path,
                                                        monkeypatch):
  """Reading results needs no write access to their folder when the report
  goes elsewhere (nothing is written there: no lock, no copy)."""
  results = tmp_path / "results"
  results.mkdir()
  report = tmp_path / "elsewhere" / "report.md"
  # As root, a mode is no obstacle: os.access is what the runner asks.
  real_access = os.access
  monkeypatch.setattr(os, "access", lambda path, mode, **kw: (
      False if mode & os.W_OK and os.path.abspath(path) ==
      str(results) else real_access(path, mode, **kw)))
  results.chmod(stat.S_IRUSR | stat.S_IXUSR)
  try:
    flag_values = _plan("--experiment=report", f"--output_dir={results}",
                        f"--report_path={report}", "--quiet")
    cli.run(flag_values)
  finally:
    results.chmod(stat.S_IRWXU)
  assert report.exists()
  assert sorted(path.name for path in results.iterdir()) == []


def test_the_report_inside_an_unwritable_output_dir_is_refused(tmp_path,
                                                               monkeypatch):
  results = tmp_path / "results"
  results.mkdir()
  real_access = os.access
  monkeypatch.setattr(os, "access", lambda path, mode, **kw: (
      False if mode & os.W_OK and os.path.abspath(path) ==
      str(results) else real_access(path, mode, **kw)))
  flag_values = _plan("--experiment=report", f"--output_dir={results}")
  with pytest.raises(SystemExit, match="--output_dir .* is not writable"):
    cli.run(flag_values)


def test_a_nested_base_too_large_is_refused_without_advice_it_cannot_take():
  """A nested base game cannot be given max_histories: the refusal names
  the base game and its size, and does not advise passing it."""
  with pytest.raises(ValueError) as refused:
    compile_game("spiel_ext_unknown_env(game=spiel_ext_bid_leduc(max_bid=60))")
  message = str(refused.value)
  assert message.startswith("spiel_ext_unknown_env: the base game: "
                            "spiel_ext_bid_leduc(max_bid=60) is too large")
  assert "max_histories" not in message and "\n" not in message
