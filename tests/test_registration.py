"""``import spiel_ext`` registers the games, cheaply and idempotently."""

import subprocess
import sys
import textwrap

import pyspiel


def _run(code: str) -> str:
  """Runs ``code`` in a fresh interpreter and returns its stdout."""
  result = subprocess.run([sys.executable, "-c", textwrap.dedent(code)],
                          capture_output=True, text=True, timeout=120,
                          check=False)
  assert result.returncode == 0, result.stderr
  return result.stdout


def test_import_registers_the_games_without_the_engine():
  output = _run("""
      import sys, time
      import pyspiel
      start = time.perf_counter()
      import spiel_ext
      print(f"import seconds {time.perf_counter() - start:.3f}")
      names = set(pyspiel.registered_names())
      print(sorted(n for n in names if n.startswith("spiel_ext_")))
      game = pyspiel.load_game("spiel_ext_leduc()")
      print(game.num_distinct_actions(), game.information_state_tensor_size())
      heavy = [m for m in sys.modules
               if m == "numba" or m.startswith(("numba.", "spiel_ext.engine",
                                                "spiel_ext.algorithms",
                                                "spiel_ext.eval"))]
      print("heavy", heavy)
      """)
  lines = output.splitlines()
  sys.stderr.write(lines[0] + "\n")  # The import time, for the record.
  assert lines[1] == str(["spiel_ext_bid_leduc", "spiel_ext_leduc",
                          "spiel_ext_unknown_env", "spiel_ext_vnm_poker"])
  assert lines[2] == "3 30"
  assert lines[3] == "heavy []"


def test_registration_is_idempotent():
  output = _run("""
      import importlib
      import pyspiel
      import spiel_ext
      import spiel_ext.games
      from spiel_ext.games import leduc, vnm_poker, unknown_env
      for module in (leduc, vnm_poker, unknown_env, spiel_ext.games,
                     spiel_ext):
        importlib.reload(module)
      game = pyspiel.load_game("spiel_ext_leduc(ranks=4)")
      print(type(game).__module__, type(game) is leduc.LeducGame)
      print(pyspiel.load_game("spiel_ext_vnm_poker").num_players())
      """)
  assert output.split() == ["spiel_ext.games.leduc", "True", "2"]


def test_games_load_in_this_process_after_import():
  import spiel_ext  # pylint: disable=g-import-not-at-top,unused-import
  for name in ("spiel_ext_leduc", "spiel_ext_vnm_poker",
               "spiel_ext_unknown_env"):
    assert name in pyspiel.registered_names()
    game = pyspiel.load_game(name)
    assert game.get_type().short_name == name
