"""Smoke test of an installed spiel_ext, run outside the clone by .ci/run.

Checks that the package imported is the installed one, that its games are
registered, and that a solver and the OpenSpiel-shaped evaluator agree with
OpenSpiel's own on Kuhn poker (game value -1/18 to player 0).
"""

import sys
from pathlib import Path

import pyspiel
from open_spiel.python.algorithms import exploitability as openspiel_exploitability
from open_spiel.python.algorithms import expected_game_score

import spiel_ext
from spiel_ext import exploitability
from spiel_ext.algorithms import cfr

clone = Path(__file__).resolve().parent.parent
installed = Path(spiel_ext.__file__).resolve()
assert clone not in installed.parents, f"imported from the clone: {installed}"

for name in ("spiel_ext_leduc", "spiel_ext_bid_leduc", "spiel_ext_vnm_poker",
             "spiel_ext_unknown_env"):
  assert name in pyspiel.registered_names(), name

game = pyspiel.load_game("kuhn_poker")
solver = cfr.CFRPlusSolver(game)
for _ in range(300):
  solver.evaluate_and_update_policy()
average = solver.average_policy()
ours = exploitability.nash_conv(game, average)
theirs = openspiel_exploitability.nash_conv(game, average)
assert abs(ours - theirs) < 1e-12, (ours, theirs)
assert ours < 0.01, ours
value = expected_game_score.policy_value(game.new_initial_state(),
                                         [average, average])[0]
assert abs(value - (-1 / 18)) < ours, value
print(f"smoke test: spiel_ext {spiel_ext.__version__} from {installed.parent}; "
      f"Kuhn CFR+ NashConv {ours:.2e} (OpenSpiel's {theirs:.2e}), "
      f"value {value:.5f} (-1/18 = {-1 / 18:.5f}); python {sys.version.split()[0]}")
