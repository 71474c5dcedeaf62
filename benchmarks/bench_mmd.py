"""MMD benchmark: our MMDSolver beside our CFRSolver and OpenSpiel's MMD.

    python benchmarks/bench_mmd.py     # ~30 s

Everything runs in this one process, after a warm-up (numba compiles on
first use), and prints time per iteration and ratios: MMD / CFR (target
<= 2x) and OpenSpiel's ``mmd_dilated.MMDDilatedEnt`` / ours.
"""

import pyspiel
from absl import app
from open_spiel.python.algorithms import mmd_dilated

from spiel_ext.algorithms import CFRSolver
from spiel_ext.algorithms.mmd import MMDSolver
from timing import seconds_per_iteration

GAMES = ("kuhn_poker", "leduc_poker")


def time_mmd(iterations: int = 500, openspiel_iterations: int = 5) -> None:
  """Prints MMD's time per iteration beside CFR's and OpenSpiel's MMD, per
  game, with the ratios.

  Args:
    iterations: timed iterations of our solvers (after 3 of warm-up).
    openspiel_iterations: timed iterations of OpenSpiel's Python MMD (after
      1 of warm-up; about 0.3 s each on leduc_poker).
  """
  print("MMD (dilated entropy, OpenSpiel's default stepsize), time per "
        "iteration")
  for name in GAMES:
    game = pyspiel.load_game(name)
    mmd = seconds_per_iteration(
        MMDSolver(game, 0.05).evaluate_and_update_policy, iterations)
    cfr = seconds_per_iteration(CFRSolver(game).evaluate_and_update_policy,
                                iterations)
    openspiel = seconds_per_iteration(
        mmd_dilated.MMDDilatedEnt(game, 0.05).update_sequences,
        openspiel_iterations, 1)
    print(f"  {name:<12} MMDSolver {mmd * 1e3:8.4f} ms  CFRSolver "
          f"{cfr * 1e3:8.4f} ms  OpenSpiel MMDDilatedEnt "
          f"{openspiel * 1e3:9.3f} ms")
    print(f"  {name:<12} ratio MMD / CFR = {mmd / cfr:5.2f}x (target <= 2x);"
          f" ratio OpenSpiel MMD / ours = {openspiel / mmd:8.1f}x")


def main(argv):
  del argv
  time_mmd()


if __name__ == "__main__":
  app.run(main)
