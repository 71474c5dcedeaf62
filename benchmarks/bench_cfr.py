"""CFR-family benchmark: our solvers beside OpenSpiel's (and LiteEFG's).

    python benchmarks/bench_cfr.py               # ~2 minutes
    python benchmarks/bench_cfr.py --skip_large  # leave out 3-player Leduc

It also times today's baselines on the same engine: PCFR+, DCFR+ and PDCFR+
per iteration relative to our CFR (target <= 1.3x), MMD relative to our CFR
(target <= 2x, beside OpenSpiel's MMD; bench_mmd.py) and external-sampling
MCCFR beside OpenSpiel's C++ and Python ones (bench_external_sampling.py).

Everything runs in this one process and prints ratios. Solver time counts
only ``evaluate_and_update_policy`` calls; the NashConv checks that decide
when CFR+ has converged are timed separately and excluded for every solver
alike. LiteEFG's CFR uses simultaneous updates, so only its time per
iteration is compared with our (alternating) CFR; convergence is compared
between like algorithms (CFR+ with alternating updates and linear averaging).
"""

import importlib.util
import time

import numpy as np
import pyspiel
from absl import app, flags
from open_spiel.python.algorithms import cfr as openspiel_cfr

from spiel_ext import eval as se
from spiel_ext.algorithms import (CFRPlusSolver, CFRSolver, DCFRPlusSolver,
                                  DCFRSolver, FirstDecisions, PCFRPlusSolver,
                                  PDCFRPlusSolver, PrefCFRSolver)
from spiel_ext.policy import policy_to_array
from bench_external_sampling import bench_external_sampling
from bench_mmd import time_mmd
from timing import seconds_per_iteration

FLAGS = flags.FLAGS
flags.DEFINE_bool("skip_large", False, "Skip leduc_poker(players=3).")

FIVE_RANK_LEDUC = (
    "universal_poker(betting=limit,numPlayers=2,numRounds=2,blind=1 1,"
    "raiseSize=2 4,firstPlayer=1 1,maxRaises=2 2,numSuits=2,numRanks=5,"
    "numHoleCards=1,numBoardCards=0 1,stack=20 20,bettingAbstraction=fcpa)")


def time_to_nash_conv(step, nash_conv, target, check_every=10,
                      max_iterations=100_000):
  """(solver seconds, iterations) until nash_conv() <= target."""
  solver_time = 0.0
  for iteration in range(1, max_iterations + 1):
    start = time.perf_counter()
    step()
    solver_time += time.perf_counter() - start
    if iteration % check_every == 0 and nash_conv() <= target:
      return solver_time, iteration
  return solver_time, max_iterations


def liteefg_solver(game, module_name):
  """(step, nash_conv) for a LiteEFG baseline graph, or None if absent."""
  if importlib.util.find_spec("LiteEFG") is None:
    return None
  import LiteEFG as leg  # pylint: disable=g-import-not-at-top
  import importlib as _importlib  # pylint: disable=g-import-not-at-top
  module = _importlib.import_module(f"LiteEFG.baselines.{module_name}")
  env = leg.OpenSpielEnv(game, traverse_type="Enumerate", regenerate=False)
  graph = module.graph()
  env.set_graph(graph)

  def step():
    graph.update_graph(env)
    env.update_strategy(graph.current_strategy())

  def nash_conv(kind="linear-avg-iterate"):
    return float(sum(env.exploitability(graph.current_strategy(), kind)))

  return step, nash_conv


def main(argv):
  del argv
  game = pyspiel.load_game("leduc_poker")
  print("CFR-family benchmark (leduc_poker unless named)\n")

  # --- vanilla CFR, time per iteration -------------------------------------
  ours = CFRSolver(game)
  ours_cfr = seconds_per_iteration(ours.evaluate_and_update_policy, 500)
  cpp = pyspiel.CFRSolver(game)
  cpp_cfr = seconds_per_iteration(cpp.evaluate_and_update_policy, 30)
  python = openspiel_cfr.CFRSolver(game)
  python_cfr = seconds_per_iteration(python.evaluate_and_update_policy, 5, 1)
  print("vanilla CFR, seconds per iteration")
  print(f"  spiel_ext CFRSolver           {ours_cfr * 1e3:9.4f} ms"
        f"  ({1 / ours_cfr:8.0f} it/s)")
  print(f"  OpenSpiel C++ CFRSolver       {cpp_cfr * 1e3:9.4f} ms")
  print(f"  OpenSpiel Python CFRSolver    {python_cfr * 1e3:9.4f} ms")
  print(f"  ratio: OpenSpiel C++ / ours    = {cpp_cfr / ours_cfr:8.1f}x "
        "(target >= 50x)")
  print(f"  ratio: OpenSpiel Python / ours = {python_cfr / ours_cfr:8.1f}x")
  lite = liteefg_solver(game, "CFR")
  if lite is not None:
    lite_cfr = seconds_per_iteration(lite[0], 100)
    print(f"  LiteEFG CFR (simultaneous)    {lite_cfr * 1e3:9.4f} ms")
    print(f"  ratio: LiteEFG / ours          = {lite_cfr / ours_cfr:8.1f}x "
          "(target >= 5x)")
  else:
    print("  LiteEFG not installed: skipped")

  # --- CFR+ to NashConv <= 1e-3 --------------------------------------------
  print("\nCFR+ until NashConv <= 1e-3 (solver time only)")
  ours_plus = CFRPlusSolver(game)
  ours_plus.evaluate_and_update_policy()  # numba warm-up
  ours_plus = CFRPlusSolver(game)
  seconds, iterations = time_to_nash_conv(
      ours_plus.evaluate_and_update_policy,
      lambda: se.nash_conv(ours_plus.tree, ours_plus.average_strategy()), 1e-3)
  print(f"  spiel_ext CFRPlusSolver       {seconds:8.3f} s  ({iterations} "
        "iterations; target < 0.1 s)")
  cpp_plus = pyspiel.CFRPlusSolver(game)
  cpp_seconds, cpp_iterations = time_to_nash_conv(
      cpp_plus.evaluate_and_update_policy,
      lambda: se.nash_conv(ours_plus.tree, policy_to_array(
          ours_plus.tree, cpp_plus.average_policy())), 1e-3)
  print(f"  OpenSpiel C++ CFRPlusSolver   {cpp_seconds:8.3f} s  "
        f"({cpp_iterations} iterations)")
  print(f"  ratio: OpenSpiel C++ / ours    = {cpp_seconds / seconds:8.1f}x")
  lite_plus = liteefg_solver(game, "CFRplus")
  if lite_plus is not None:
    lite_seconds, lite_iterations = time_to_nash_conv(lite_plus[0],
                                                      lite_plus[1], 1e-3)
    print(f"  LiteEFG CFR+                  {lite_seconds:8.3f} s  "
          f"({lite_iterations} iterations)")
    print(f"  ratio: LiteEFG / ours          = {lite_seconds / seconds:8.1f}x")

  # --- Pref-CFR overhead ---------------------------------------------------
  print("\nPref-CFR time per iteration relative to our CFR (target <= 1.5x)")
  for variant in ("br", "rm"):
    preferred = PrefCFRSolver(game, preference={"Raise": 5},
                              vulnerability=0.05, where=FirstDecisions(0),
                              variant=variant)
    pref_time = seconds_per_iteration(preferred.evaluate_and_update_policy,
                                      500)
    print(f"  Pref-CFR({variant.upper()})   {pref_time * 1e3:9.4f} ms   ratio "
          f"Pref-CFR / CFR = {pref_time / ours_cfr:5.2f}x")

  # --- today's baselines ----------------------------------------------------
  print("\nPCFR+, DCFR+, PDCFR+ time per iteration relative to our CFR "
        "(target <= 1.3x)")
  for solver_class in (PCFRPlusSolver, DCFRPlusSolver, PDCFRPlusSolver):
    solver = solver_class(game)
    variant_time = seconds_per_iteration(solver.evaluate_and_update_policy,
                                         500)
    cfr_time = seconds_per_iteration(ours.evaluate_and_update_policy, 500)
    print(f"  {solver_class.__name__:<16} {variant_time * 1e3:9.4f} ms   "
          f"ratio {solver_class.__name__[:-6]} / CFR = "
          f"{variant_time / cfr_time:5.2f}x")
  print()
  time_mmd()
  print()
  bench_external_sampling()

  # --- iterations per second by game ----------------------------------------
  print("\niterations per second (ours; OpenSpiel C++ CFR where quick)")
  games = ["leduc_poker", FIVE_RANK_LEDUC]
  if not FLAGS.skip_large:
    games.append("leduc_poker(players=3)")
  for name in games:
    row = []
    for solver_class in (CFRSolver, CFRPlusSolver, DCFRSolver):
      solver = solver_class(name)
      iterations = 200 if "players=3" not in name else 5
      row.append(1 / seconds_per_iteration(solver.evaluate_and_update_policy,
                                           iterations, 1))
    cpp_solver = pyspiel.CFRSolver(pyspiel.load_game(name))
    cpp_rate = 1 / seconds_per_iteration(cpp_solver.evaluate_and_update_policy,
                                         3 if "players=3" not in name else 1,
                                         0)
    label = "5-rank Leduc (universal_poker)" if name == FIVE_RANK_LEDUC else name
    print(f"  {label:<32} CFR {row[0]:9.1f}  CFR+ {row[1]:9.1f}  DCFR "
          f"{row[2]:9.1f}  | OpenSpiel C++ CFR {cpp_rate:8.2f}  ratio "
          f"{row[0] / cpp_rate:7.1f}x")


if __name__ == "__main__":
  app.run(main)
