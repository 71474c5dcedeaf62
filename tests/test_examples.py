"""Every script in examples/ runs at small scale and prints a checked result.

Each script runs in a subprocess with this interpreter, small flags and a
temporary working directory. Its numbers are checked against an independent
reference where that is cheap: OpenSpiel's own solvers and evaluator on the
same game, or a value worked by hand.
"""

import pathlib
import re
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
import pyspiel
from open_spiel.python import policy as policy_lib
from open_spiel.python.algorithms import cfr as openspiel_cfr
from open_spiel.python.algorithms import exploitability as openspiel_exploitability

import spiel_ext.games.unknown_env  # noqa: F401 (registers the unknown games)

EXAMPLES = pathlib.Path(__file__).resolve().parent.parent / "examples"

# The scripts with a test below; test_every_example_has_a_test keeps it whole.
TESTED = {"cfr_example.py", "bufp_own_game.py", "pref_cfr_style.py",
          "vcfr_unknown_kuhn.py", "plot_results.py", "ray_sweep.py"}


def run_example(script: str, *flags: str, cwd: pathlib.Path) -> str:
  """Runs examples/<script> with `flags` in `cwd`; returns its stdout."""
  completed = subprocess.run([sys.executable, str(EXAMPLES / script), *flags],
                             cwd=cwd, capture_output=True, text=True,
                             timeout=300, check=False)
  assert completed.returncode == 0, completed.stderr[-3000:]
  return completed.stdout


def test_every_example_has_a_test():
  scripts = {path.name for path in EXAMPLES.glob("*.py")}
  assert scripts == TESTED, (
      f"examples without a test: {sorted(scripts - TESTED)}; "
      f"tests without an example: {sorted(TESTED - scripts)}")
  readme = (EXAMPLES / "README.md").read_text()
  for script in scripts:
    assert f"({script})" in readme, f"{script} is not in examples/README.md"


def test_every_example_says_what_it_shows_and_how_to_run_it():
  paths = sorted(EXAMPLES.glob("*.py"))
  assert paths, f"no scripts in {EXAMPLES}"
  for path in paths:
    source = path.read_text()
    assert source.startswith('"""'), f"{path.name} has no module docstring"
    docstring = source.split('"""')[1]
    assert "Run:" in docstring and f"examples/{path.name}" in docstring, (
        f"{path.name}'s docstring does not say how to run it")


def test_cfr_example_prints_openspiels_numbers(tmp_path):
  output = run_example("cfr_example.py", "--iterations=30", "--print_freq=10",
                       cwd=tmp_path)
  printed = [(int(i), float(value)) for i, value in re.findall(
      r"Iteration (\d+) exploitability (\S+)", output)]
  assert [i for i, _ in printed] == [0, 10, 20]
  # OpenSpiel's own example, with OpenSpiel's imports.
  game = pyspiel.load_game("kuhn_poker", {"players": 2})
  solver = openspiel_cfr.CFRSolver(game)
  expected = []
  for iteration in range(30):
    solver.evaluate_and_update_policy()
    if iteration % 10 == 0:
      expected.append(openspiel_exploitability.exploitability(
          game, solver.average_policy()))
  np.testing.assert_allclose([value for _, value in printed], expected,
                             rtol=0, atol=1e-12)


# OpenSpiel's NashConv of a policy written as JSON, for a game that a script
# registers when imported. A fresh process, as importing a script defines
# its absl flags.
OPENSPIEL_NASH_CONV = """
import importlib.util, json, sys
import pyspiel

import spiel_ext.games.unknown_env  # registers spiel_ext_unknown_env
from open_spiel.python import policy as policy_lib
from open_spiel.python.algorithms import exploitability
script, game_name, policy_path = sys.argv[1:]
spec = importlib.util.spec_from_file_location("example", script)
spec.loader.exec_module(importlib.util.module_from_spec(spec))
game = pyspiel.load_game(game_name)
written = json.load(open(policy_path))
policy = policy_lib.TabularPolicy(game)
assert set(written) == set(policy.state_lookup), sorted(written)
for key, probabilities in written.items():
  policy.policy_for_key(key)[:] = probabilities
print(float(exploitability.nash_conv(game, policy)))
"""


def test_bufp_own_game_nash_conv_matches_openspiel_and_the_hand_value(
    tmp_path):
  output = run_example("bufp_own_game.py", "--iterations=100",
                       "--policy_out=policy.json", cwd=tmp_path)
  rows = {name: (float(nash_conv), float(gap), float(value))
          for name, nash_conv, gap, value in re.findall(
              r"(BUFP\(\w+\)) iterations 100 nash_conv (\S+) "
              r"perfect_bayesian_gap (\S+) player0_value (\S+)", output)}
  assert set(rows) == {"BUFP(EF)", "BUFP(X)"}
  for nash_conv, gap, value in rows.values():
    assert 0 <= nash_conv < 0.2 and gap >= 0
    # Zero-sum: a profile's value is within its NashConv of the game's
    # value, 1/3 worked by hand (printed to 6 decimals).
    assert abs(value - 1 / 3) <= nash_conv + 1e-6
  # OpenSpiel's evaluator on the policy BUFP(EF) wrote.
  completed = subprocess.run(
      [sys.executable, "-c", OPENSPIEL_NASH_CONV,
       str(EXAMPLES / "bufp_own_game.py"), "example_coin_bluff",
       str(tmp_path / "policy.json")],
      capture_output=True, text=True, timeout=300, check=False)
  assert completed.returncode == 0, completed.stderr[-3000:]
  reference = float(completed.stdout.strip().splitlines()[-1])
  assert abs(rows["BUFP(EF)"][0] - reference) <= 1e-6


def test_pref_cfr_style_moves_betting_and_plain_cfr_matches_openspiel(
    tmp_path):
  iterations = 100
  output = run_example("pref_cfr_style.py", f"--iterations={iterations}",
                       "--ranks=3", cwd=tmp_path)
  table = [(float(plain), float(styled)) for plain, styled in re.findall(
      r"^\s+\d+\s+(\S+)\s+(\S+)$", output, flags=re.M)]
  assert len(table) == 3  # one row per card
  # The style bets more than plain CFR at player 0's first decisions.
  assert sum(styled for _, styled in table) > sum(plain for plain, _ in table)
  plain_nash_conv = float(re.search(r"^CFR nash_conv (\S+)", output,
                                    flags=re.M).group(1))
  # OpenSpiel's CFR and evaluator on the same game and iterations.
  game = pyspiel.load_game(re.search(r"^game (.+)$", output,
                                     flags=re.M).group(1))
  assert game.num_players() == 2
  solver = openspiel_cfr.CFRSolver(game)
  for _ in range(iterations):
    solver.evaluate_and_update_policy()
  reference = openspiel_exploitability.nash_conv(game, solver.average_policy())
  assert abs(plain_nash_conv - reference) <= 1e-6
  assert float(re.search(r"Pref-CFR nash_conv (\S+)", output).group(1)) >= 0


def test_vcfr_unknown_kuhn_learns_from_two_episodes_an_iteration(tmp_path):
  output = run_example("vcfr_unknown_kuhn.py", "--iterations=100",
                       "--print_freq=50", cwd=tmp_path)
  rows = re.findall(r"^(VCFR|Naive-CFR) iteration (\d+) episodes (\d+) "
                    r"nash_conv (\S+)$", output, flags=re.M)
  assert len(rows) == 4
  game = pyspiel.load_game(re.search(r"^game (\S+)$", output,
                                     flags=re.M).group(1))
  uniform = openspiel_exploitability.nash_conv(
      game, policy_lib.UniformRandomPolicy(game))
  for name, iteration, episodes, nash_conv in rows:
    assert int(episodes) == 2 * int(iteration), name
    # Learning from episodes only, both beat uniform play in the true game
    # after 100 iterations.
    assert 0 <= float(nash_conv) < uniform, (name, nash_conv, uniform)


def test_plot_results_reads_parquet_and_writes_the_figure(tmp_path):
  rows = []
  for algorithm, scale in (("CFR", 1.0), ("XFP", 2.0)):
    for seed in (0, 1):
      for iteration in (1, 10, 100):
        rows.append({"experiment": "quickstart", "game": "kuhn_poker",
                     "algorithm": algorithm, "hyperparameters": "{}",
                     "seed": seed, "iteration": iteration, "episodes": 0,
                     "wall_time": 0.0, "metric": "nash_conv",
                     "value": scale / iteration + 0.001 * seed})
        rows.append({**rows[-1], "metric": "exploitability",
                     "value": rows[-1]["value"] / 2})
  pd.DataFrame(rows).to_parquet(tmp_path / "results.parquet")
  output = run_example("plot_results.py", "--results=results.parquet",
                       "--output=curve.png", cwd=tmp_path)
  # Mean over the two seeds at iteration 100: scale / 100 + 0.0005.
  assert "CFR kuhn_poker final nash_conv 0.0105 at iteration 100" in output
  assert "XFP kuhn_poker final nash_conv 0.0205 at iteration 100" in output
  assert (tmp_path / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.ray
def test_ray_sweep_matches_openspiel_cfr(tmp_path):
  pytest.importorskip("ray")
  iterations = 20
  output = run_example("ray_sweep.py", f"--iterations={iterations}",
                       "--workers=1", "--games=kuhn_poker",
                       "--solvers=CFR,CFR+", cwd=tmp_path)
  results = {solver: float(value) for solver, value in re.findall(
      rf"^kuhn_poker\s+(\S+)\s+{iterations}\s+(\S+)$", output, flags=re.M)}
  assert set(results) == {"CFR", "CFR+"}
  game = pyspiel.load_game("kuhn_poker")
  for name, solver in (("CFR", openspiel_cfr.CFRSolver(game)),
                       ("CFR+", openspiel_cfr.CFRPlusSolver(game))):
    for _ in range(iterations):
      solver.evaluate_and_update_policy()
    reference = openspiel_exploitability.nash_conv(game,
                                                   solver.average_policy())
    # Printed to 6 significant digits.
    assert results[name] == pytest.approx(reference, rel=1e-5)
