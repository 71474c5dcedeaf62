"""Fuzz test: random game strings and runner flags give a game, a plan or a
one-line refusal; never a traceback, never a hang, and a game too large to
compile is refused in well under a second.

Game strings are our games and a few of OpenSpiel's with random values for
their parameters (small, at the bounds, negative, huge, malformed), alone
and nested in ``spiel_ext_unknown_env``. The memory the size limit is half
of is set to 16 MiB, so that every game either compiles in a moment or is
refused.
"""

import tempfile
import time

import numpy as np
import pytest
from absl import flags

from conftest import at_most

from spiel_ext import cli
from spiel_ext.engine import admission, clear_compiled_trees, compile_game
from spiel_ext.engine import load_game

_SEED = 20261128
_NUM_GAMES = 160
_NUM_FLAG_SETS = 60
# A refusal must come in under a second; asserted with a margin.
_REFUSAL_SECONDS = 3
# Any single step taking longer than this is a hang.
_HANG_SECONDS = 10

_HUGE = ["2147483647", "2147483648", "4294967296", "1000000000000",
         "100000000000000000000", "9223372036854775808", "-2147483649"]
_MALFORMED = ["", "1-2", "--", "+", ".", "1.5", "abc", "1e9", " 3", "2 4",
              "true", "0x10", "1.2.3", "-", "nan", "(", ")", "=", ","]

# Each integer parameter with its accepted range (the fuzz also tries one
# past each end).
_INTEGER_PARAMETERS = {
    "spiel_ext_leduc": {"ranks": (2, 13), "suits": (1, 100),
                        "ante": (1, 10**9), "max_raises": (0, 100),
                        "bet_cap": (0, 10**12), "players": (2, 10)},
    "spiel_ext_bid_leduc": {"max_bid": (1, 100)},
    "spiel_ext_vnm_poker": {"hands": (2, 10**7)},
    "kuhn_poker": {"players": (2, 10)},
    "leduc_poker": {"players": (2, 10)},
    "liars_dice": {"players": (2, 2), "numdice": (1, 5)},
}
_OTHER_PARAMETERS = {
    "spiel_ext_leduc": {"raise_sizes": "pair", "blinds": "pair",
                        "fold_always": ["true", "false"],
                        "round2_first": ["first", "after_last"]},
    "spiel_ext_vnm_poker": {"ante": "real", "bet": "real",
                            "raise_size": "real",
                            "variant": ["raise", "asymmetric"]},
}
_GAMES = sorted(_INTEGER_PARAMETERS) + ["tic_tac_toe"]


def _integer_text(rng: np.random.Generator, low: int, high: int,
                  valid: bool = False) -> str:
  """A value in low..high (small or at an end) if ``valid``, else any."""
  if valid:
    return str(rng.choice([low, low, low + 1, min(low + 3, high), high]))
  kind = rng.integers(6)
  if kind <= 1:
    return str(rng.integers(0, 6))
  if kind == 2:
    return str(rng.choice([low - 1, high, high + 1]))
  if kind == 3:
    return str(-int(rng.integers(1, 10**6)))
  if kind == 4:
    return str(rng.choice(_HUGE))
  return str(rng.choice(_MALFORMED))


def _real_text(rng: np.random.Generator) -> str:
  return str(rng.choice(["1.0", "2.5", "0.0", "-2.0", "1000000000.0",
                         "1000000001.0", "1e300", "1e-300", "5",
                         *_MALFORMED]))


def _other_text(rng: np.random.Generator, kind, valid: bool) -> str:
  if isinstance(kind, list):
    return str(rng.choice(kind if valid else kind + _MALFORMED[:4]))
  if kind == "real":
    return str(rng.choice(["0.5", "1.0", "1000000000.0"])) if valid else (
        _real_text(rng))
  # A pair of chips such as "1 2" (small <= big for blinds).
  if valid:
    return str(rng.choice(["1 2", "2 4", "1 1000000000"]))
  return " ".join(_integer_text(rng, 1, 10**9) for _ in range(
      int(rng.choice([2, 2, 2, 1, 3]))))


def _game_string(rng: np.random.Generator, nested_ok: bool = True) -> str:
  if nested_ok and rng.random() < 0.3:
    base = _game_string(rng, nested_ok=False)
    if "(" not in base:
      base += "()"
    parts = [f"game={base}"]
    if rng.random() < 0.7:
      parts.append(f"env_seed={_integer_text(rng, 0, 2**31 - 1)}")
    if rng.random() < 0.3:
      parts.append(f"chance={rng.choice(['game', 'dirichlet', 'x', ''])}")
    return f"spiel_ext_unknown_env({','.join(parts)})"
  name = str(rng.choice(_GAMES))
  valid = rng.random() < 0.5  # Values in range, often at the bounds.
  parameters = []
  for parameter, (low, high) in _INTEGER_PARAMETERS.get(name, {}).items():
    if rng.random() < 0.4:
      parameters.append(
          f"{parameter}={_integer_text(rng, low, high, valid)}")
  for parameter, kind in _OTHER_PARAMETERS.get(name, {}).items():
    if rng.random() < 0.3:
      parameters.append(f"{parameter}={_other_text(rng, kind, valid)}")
  if rng.random() < 0.05:
    parameters.append("no_such_parameter=1")
  if not parameters:
    return name if rng.random() < 0.5 else f"{name}()"
  return f"{name}({','.join(parameters)})"


def _assert_one_line(message: str, what: str) -> None:
  assert isinstance(message, str) and message.strip(), what
  assert "\n" not in message.strip(), f"{what}: {message}"
  assert "Traceback" not in message and "CHECK_TRUE" not in message, (
      f"{what}: {message}")
  assert "Available games" not in message, what


@pytest.fixture(name="small_memory")
def _small_memory(monkeypatch):
  """Half of 16 MiB for the trees (about 60,000 histories of two players),
  with the engine and the runner imported beforehand."""
  compile_game("spiel_ext_leduc")
  compile_game("spiel_ext_bid_leduc(max_bid=1)")
  compile_game("spiel_ext_vnm_poker(hands=2)")
  cli.plan(_flags("--experiment=quickstart", "--iterations=1", "--seeds=1",
                  "--algorithms=CFR", "--games=kuhn_poker"))
  monkeypatch.setattr(admission, "_available_memory_bytes", lambda: 2**24)
  clear_compiled_trees()
  yield
  clear_compiled_trees()


def _flags(*argv) -> flags.FlagValues:
  flag_values = flags.FlagValues()
  cli.define_flags(flag_values)
  flag_values(["run_experiments.py", *argv])
  return flag_values


def _load_and_compile(text: str) -> str:
  """'refused' (loading or compiling it refused in one line, in time),
  'too large' (compiling it refused for its size) or 'compiled'."""
  start = time.perf_counter()
  with at_most(_HANG_SECONDS, text):
    try:
      game = load_game(text)
    except ValueError as error:
      _assert_one_line(str(error), text)
      assert time.perf_counter() - start < _REFUSAL_SECONDS, text
      return "refused"
  start = time.perf_counter()
  with at_most(_HANG_SECONDS, text):
    try:
      compile_game(game, use_cache=False)
    except ValueError as error:
      _assert_one_line(str(error), text)
      assert time.perf_counter() - start < _REFUSAL_SECONDS, (
          f"{text}: refused after {time.perf_counter() - start:.1f} s")
      return "too large" if "too large" in str(error) else "refused"
  return "compiled"


def test_random_game_strings_load_compile_or_are_refused_in_time(
    small_memory):
  del small_memory
  rng = np.random.default_rng(_SEED)
  outcomes = {}
  for _ in range(_NUM_GAMES):
    text = _game_string(rng)
    outcomes[text] = _load_and_compile(text)
  # The fuzz reaches every outcome, nested games included.
  assert set(outcomes.values()) == {"refused", "too large", "compiled"}
  assert any(outcome != "refused" and text.startswith("spiel_ext_unknown_env")
             for text, outcome in outcomes.items())


def _flag_text(rng: np.random.Generator) -> str:
  return str(rng.choice(["1", "2", "0", "-1", "1000000000", "1000000001",
                         "99999999999999999999", "", "x", "1.5"]))


def _random_argv(rng: np.random.Generator, folder: str) -> list[str]:
  argv = [f"--output_dir={folder}/out", "--quiet"]
  argv.append("--experiment=" + str(rng.choice(
      ["quickstart", "quickstart", "vcfr_ablations", "report", "nope", "",
       "quickstart,report"])))
  for name in ("iterations", "seeds", "eval_every", "seed",
               "checkpoint_every", "workers"):
    if rng.random() < 0.4:
      argv.append(f"--{name}={_flag_text(rng)}")
  if rng.random() < 0.5:
    argv.append("--algorithms=" + str(rng.choice(
        ["CFR", "CFR,XFP", "", "Magic", "CFR,,XFP"])))
  for _ in range(int(rng.integers(0, 3))):
    argv.append(f"--games={_game_string(rng)}")
  for switch in ("resume", "overwrite"):
    if rng.random() < 0.15:
      argv.append(f"--{switch}")
  return argv


def test_random_runner_flags_plan_or_are_refused_in_one_line(small_memory):
  del small_memory
  rng = np.random.default_rng(_SEED + 1)
  planned = refused = 0
  with tempfile.TemporaryDirectory() as folder:
    for _ in range(_NUM_FLAG_SETS):
      argv = _random_argv(rng, folder)
      try:
        flag_values = _flags(*argv)
      except flags.Error as error:
        assert "--" in str(error) or "flag" in str(error), str(error)
        continue
      start = time.perf_counter()
      with at_most(_HANG_SECONDS, " ".join(argv)):
        try:
          cli.plan(flag_values)
          planned += 1
        except SystemExit as error:
          refused += 1
          _assert_one_line(error.code, " ".join(argv))
          assert error.code.startswith("run_experiments.py: error: ")
      assert time.perf_counter() - start < _REFUSAL_SECONDS, argv
  assert planned and refused


def test_the_runner_refuses_games_too_large_in_one_line_in_time(
    small_memory, tmp_path):
  """Random games that are too large, run through the runner: the refusal
  comes before anything is written, in one line, in time."""
  del small_memory
  rng = np.random.default_rng(_SEED + 2)
  too_large = []
  while len(too_large) < 6:
    text = _game_string(rng)
    if _load_and_compile(text) == "too large":
      too_large.append(text)
  for text in too_large:
    flag_values = _flags("--experiment=quickstart", "--iterations=1",
                         "--seeds=1", "--algorithms=CFR", f"--games={text}",
                         f"--output_dir={tmp_path / 'out'}", "--quiet")
    start = time.perf_counter()
    with at_most(_HANG_SECONDS, text), pytest.raises(SystemExit) as error:
      cli.run(flag_values)
    assert time.perf_counter() - start < _REFUSAL_SECONDS, text
    _assert_one_line(error.value.code, text)
    assert "too large to compile" in error.value.code, error.value.code
  assert not (tmp_path / "out").exists()
