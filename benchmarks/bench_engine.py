"""Engine benchmark: our NashConv and passes beside OpenSpiel's, in one process.

    python benchmarks/bench_engine.py            # everything (~1 minute)
    python benchmarks/bench_engine.py --skip_large
    python benchmarks/bench_engine.py --only_native_compile   # ~1 minute
    python benchmarks/bench_engine.py --only_scale   # CFR at scale, ~10 min
    python benchmarks/bench_engine.py --scale_game=leduc_poker

The scale benchmark prints, per game, CFR's time per iteration on 1 and 2
threads, ns per history per iteration, the bytes per history the tree's and
solver's arrays take, and the ratio to OpenSpiel's C++ CFRSolver (timed in
this process up to 5M histories).

Prints medians and ratios. Timings are wall-clock medians over repeats; the
first call of each numba pass (compilation) is excluded, compile-from-scratch
times of the game trees are reported separately with the disk cache off.
"""

import importlib.metadata
import os
import resource
import subprocess
import sys
import tempfile
import time

import numba
import numpy as np
import pyspiel
from absl import app, flags
from open_spiel.python import policy as openspiel_policy
from open_spiel.python.algorithms import exploitability as openspiel_exploit

from spiel_ext import eval as se
from spiel_ext.algorithms.cfr import CFRPlusSolver, CFRSolver
from spiel_ext.engine import clear_compiled_trees, compile_game
from spiel_ext.engine.admission import admit
from spiel_ext.engine.compiler import compile_tree
from timing import median_seconds

FLAGS = flags.FLAGS
flags.DEFINE_bool("only_scale", False,
                  "Run only the CFR scale benchmark (bench_cfr_scale).")
flags.DEFINE_multi_string("scale_game", None,
                          "A game of the CFR scale benchmark (repeat the "
                          "flag for more; default: SCALE_GAMES).")
flags.DEFINE_bool("cpp_large", False,
                  "Also time OpenSpiel's C++ CFR on games over 5M histories "
                  "(minutes per iteration; the issue's published figure is "
                  "quoted otherwise).")
flags.DEFINE_bool("skip_large", False,
                  "Skip the 656k-history hold'em and 3-player Leduc figures.")
flags.DEFINE_bool("only_native_compile", False,
                  "Run only bench_native_compile.")

HOLDEM = ("universal_poker(betting=limit,numPlayers=2,blind=1 1,stack=50 50,"
          "numHoleCards=1,numRounds=3,firstPlayer=1 1 1,numSuits=2,numRanks=4,"
          "numBoardCards=0 1 1,raiseSize=2 4 4,maxRaises=2 2 2)")


def random_tabular(game, seed=0):
  tabular = openspiel_policy.TabularPolicy(game)
  rng = np.random.default_rng(seed)
  raw = rng.gamma(1.0, size=tabular.action_probability_array.shape)
  raw *= tabular.legal_actions_mask
  tabular.action_probability_array = raw / raw.sum(axis=1, keepdims=True)
  return tabular


def fmt(seconds):
  return f"{seconds * 1e3:10.3f} ms"


def bench_nash_conv(game_name, python_repeats, cpp_repeats):
  game = pyspiel.load_game(game_name)
  tabular = random_tabular(game)
  cpp_policy = openspiel_policy.python_policy_to_pyspiel_policy(tabular)
  compile_game(game)
  ours = median_seconds(lambda: se.nash_conv(game, tabular), 50)
  python = median_seconds(lambda: openspiel_exploit.nash_conv(game, tabular),
                          python_repeats, warmup=0)
  cpp = median_seconds(lambda: pyspiel.nash_conv(game, cpp_policy),
                       cpp_repeats, warmup=0)
  cpp_with_conversion = median_seconds(
      lambda: pyspiel.nash_conv(
          game, openspiel_policy.python_policy_to_pyspiel_policy(tabular)),
      cpp_repeats, warmup=0)
  print(f"\nNashConv of a random TabularPolicy on {game_name} "
        "(ours includes converting the TabularPolicy)")
  print(f"  spiel_ext.eval.nash_conv            {fmt(ours)}")
  print(f"  OpenSpiel Python exploitability.nash_conv {fmt(python)}")
  print(f"  OpenSpiel C++ pyspiel.nash_conv      {fmt(cpp)}"
        f"  (+ policy conversion: {fmt(cpp_with_conversion)})")
  print(f"  ratio: OpenSpiel Python / ours = {python / ours:8.1f}x")
  print(f"  ratio: OpenSpiel C++ / ours    = {cpp / ours:8.1f}x")


def bench_passes(game_name):
  tree = compile_game(game_name)
  strategy = tree.uniform_policy()
  reach = tree.reach(strategy)
  rows = [
      ("edge weights", lambda: tree.edge_weights(strategy)),
      ("reach (forward)", lambda: tree.reach(strategy)),
      ("values (backward)", lambda: tree.values(strategy)),
      ("counterfactual values", lambda: tree.counterfactual_values(
          strategy, reach=reach)),
      ("best response, player 0", lambda: tree.best_response(
          strategy, 0, reach=reach)),
      ("infoset reach sums", lambda: tree.infoset_reach(reach)),
      ("NashConv (array in)", lambda: se.nash_conv(tree, strategy)),
  ]
  print(f"\nEngine passes on {tree}")
  for name, function in rows:
    print(f"  {name:<26} {fmt(median_seconds(function, 30))}")


def compile_in_subprocess(game_name):
  """(seconds, peak RSS MiB) of a cold compile in a fresh process."""
  code = (
      "import time, resource, pyspiel\n"
      "from spiel_ext.engine import compile_game, passes\n"
      "game = pyspiel.load_game(%r)\n"
      "compile_game('kuhn_poker', use_cache=False)  # numba warm-up\n"
      "base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
      "start = time.perf_counter()\n"
      "tree = compile_game(game, use_cache=False)\n"
      "took = time.perf_counter() - start\n"
      "peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
      "print(took, peak / 1024, base / 1024, tree.num_histories)\n" % game_name)
  with tempfile.TemporaryDirectory() as folder:
    env = dict(os.environ, SPIEL_EXT_CACHE_DIR=folder)
    output = subprocess.run([sys.executable, "-c", code], env=env, check=True,
                            capture_output=True, text=True).stdout.split()
  return float(output[0]), float(output[1]), float(output[2]), int(output[3])


def bench_compile(game_name, budget_seconds, budget_mib=None):
  seconds, peak, base, histories = compile_in_subprocess(game_name)
  line = (f"  compile {game_name[:60]:<60} {histories:>9} histories "
          f"{seconds:7.2f} s (target < {budget_seconds} s)  peak RSS "
          f"{peak:7.0f} MiB (process before compiling: {base:.0f} MiB)")
  if budget_mib:
    line += f" (target < {budget_mib} MiB)"
  print(line)


def bench_native_compile():
  """Native compile of our 3-player Leduc against walking its states, and
  against walking OpenSpiel's C++ 3-player Leduc (the same tree size: its
  deck has players + 1 = 4 ranks). Disk cache off, numba warm; each time
  includes admission (the size estimate) and the recall check; the native
  time is the best of 3, the walks run once."""
  os.environ["SPIEL_EXT_CACHE_DIR"] = ""
  ours = pyspiel.load_game("spiel_ext_leduc(players=3,ranks=4)")
  cpp = pyspiel.load_game("leduc_poker(players=3)")

  def timed_build(game, native):
    start = time.perf_counter()
    tree = compile_tree(game, admit(game, None), native=native)
    return time.perf_counter() - start, tree.num_histories

  timed_build(pyspiel.load_game("spiel_ext_leduc(players=3,ranks=2,suits=2)"),
              True)  # numba warm-up
  native, histories = min(timed_build(ours, True) for _ in range(3))
  walked, _ = timed_build(ours, False)
  cpp_walked, cpp_histories = timed_build(cpp, True)
  assert cpp_histories == histories

  def line(name, seconds):
    print(f"  {name:<52} {seconds:8.3f} s {seconds / histories * 1e6:8.3f} "
          "us/history")

  print(f"\nCompile of 3-player Leduc ({histories} histories; disk cache off)")
  line("native: spiel_ext_leduc(players=3,ranks=4)", native)
  line("walk:   spiel_ext_leduc(players=3,ranks=4)", walked)
  line("walk:   OpenSpiel C++ leduc_poker(players=3)", cpp_walked)
  print(f"  ratio: native / C++ walk = {native / cpp_walked:6.3f} "
        "(target <= 2)")
  print(f"  ratio: walk / native     = {walked / native:6.1f}x")


# The games of the scale benchmark, smallest first.
BATTLESHIP_3X2 = ("battleship(board_height=3,board_width=2,ship_sizes=[2],"
                  "ship_values=[1],num_shots=3)")
BATTLESHIP_4X4 = ("battleship(board_height=4,board_width=4,ship_sizes=[1],"
                  "ship_values=[1],num_shots=2)")
SCALE_GAMES = ["leduc_poker", "liars_dice(numdice=1)",
               "leduc_poker(players=3)", BATTLESHIP_3X2, BATTLESHIP_4X4]
CPP_MAX_HISTORIES = 5_000_000


def array_bytes(tree):
  """The bytes of the arrays a tree holds (``GameTree.nbytes`` where it
  exists)."""
  nbytes = getattr(tree, "nbytes", None)
  if isinstance(nbytes, int):
    return nbytes
  return sum(value.nbytes for value in vars(tree).values()
             if isinstance(value, np.ndarray))


def cfr_seconds(tree, threads, iterations):
  """Median seconds per CFR iteration on ``threads`` threads."""
  saved = numba.get_num_threads()
  numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
  try:
    solver = CFRSolver(tree.game)
    return median_seconds(solver.iteration, iterations, warmup=2)
  finally:
    numba.set_num_threads(saved)


def bench_cfr_scale(games):
  """CFR per iteration on growing games: ns per history, the arrays' bytes
  per history, 1 and 2 threads, and OpenSpiel's C++ CFRSolver."""
  print("\nCFR iterations at scale (median seconds per iteration; "
        f"{numba.config.NUMBA_NUM_THREADS} numba threads available)")
  for game_name in games:
    saved_cache = os.environ.get("SPIEL_EXT_CACHE_DIR")
    os.environ["SPIEL_EXT_CACHE_DIR"] = ""
    try:
      start = time.perf_counter()
      tree = compile_game(game_name, use_cache=False)
      compile_seconds = time.perf_counter() - start
    finally:
      if saved_cache is None:
        os.environ.pop("SPIEL_EXT_CACHE_DIR")
      else:
        os.environ["SPIEL_EXT_CACHE_DIR"] = saved_cache
    histories = tree.num_histories
    iterations = max(3, min(200, int(2e7 // histories)))
    one = cfr_seconds(tree, 1, iterations)
    two = cfr_seconds(tree, 2, iterations)
    solver = CFRSolver(tree.game)  # Its arrays count too.
    solver.iteration()
    tree_bytes = array_bytes(tree)
    print(f"\n{game_name}: {histories:,} histories, compile "
          f"{compile_seconds:.2f} s (disk cache off), arrays "
          f"{tree_bytes / histories:.0f} bytes/history")
    print(f"  spiel_ext CFR, 1 thread   {fmt(one)}  "
          f"{one * 1e9 / histories:6.1f} ns/history")
    print(f"  spiel_ext CFR, 2 threads  {fmt(two)}  "
          f"{two * 1e9 / histories:6.1f} ns/history")
    print(f"  ratio: 1 thread / 2 threads = {one / two:5.2f}x")
    del solver
    if histories <= CPP_MAX_HISTORIES or FLAGS.cpp_large:
      cpp_solver = pyspiel.CFRSolver(tree.game)
      cpp_iterations = max(1, min(20, int(5e6 // histories)))
      cpp = median_seconds(cpp_solver.evaluate_and_update_policy,
                           cpp_iterations, warmup=1 if histories < 1e6
                           else 0)
      print(f"  OpenSpiel C++ CFRSolver   {fmt(cpp)}  "
            f"{cpp * 1e9 / histories:6.1f} ns/history")
      print(f"  ratio: OpenSpiel C++ / ours (2 threads) = {cpp / two:7.1f}x")
      del cpp_solver
    clear_compiled_trees()
    del tree


def bench_cfr_plus_to_target(game_name="leduc_poker", target=1e-3):
  """CFR+'s solver time to NashConv ``target``: the iterations it needs
  (checked every 10), then a fresh solver timed over that many iterations
  alone, and the time with the checks."""
  game = pyspiel.load_game(game_name)
  compile_game(game)
  CFRPlusSolver(game).iteration()  # numba warm-up
  solver = CFRPlusSolver(game)
  start = time.perf_counter()
  iterations = 0
  while True:
    for _ in range(10):
      solver.iteration()
    iterations += 10
    value = se.nash_conv(game, solver.average_policy())
    if value <= target:
      break
  with_checks = time.perf_counter() - start
  solver = CFRPlusSolver(game)
  start = time.perf_counter()
  for _ in range(iterations):
    solver.iteration()
  solver_seconds = time.perf_counter() - start
  print(f"\nCFR+ on {game_name} to NashConv {target:g}: {iterations} "
        f"iterations, solver time {fmt(solver_seconds)} (with a NashConv "
        f"every 10 iterations: {fmt(with_checks)}; NashConv {value:.2e})")


def main(argv):
  del argv
  if FLAGS.only_scale or FLAGS.scale_game:
    bench_cfr_scale(FLAGS.scale_game or SCALE_GAMES)
    bench_cfr_plus_to_target()
    return
  if FLAGS.only_native_compile:
    bench_native_compile()
    return
  print(f"spiel_ext engine benchmark; numpy {np.__version__}, open_spiel "
        f"{importlib.metadata.version('open_spiel')}")
  print("\nCold compiles (fresh process, disk cache off; numba already warm)")
  bench_compile("leduc_poker", 1)
  if not FLAGS.skip_large:
    bench_compile(HOLDEM, 5)
    bench_compile("leduc_poker(players=3)", 30, 2048)
  bench_nash_conv("kuhn_poker", 20, 20)
  bench_nash_conv("leduc_poker", 3, 5)
  bench_passes("leduc_poker")
  if not FLAGS.skip_large:
    clear_compiled_trees()
    bench_passes(HOLDEM)
    game = pyspiel.load_game(HOLDEM)
    tree = compile_game(game)
    uniform = tree.uniform_policy()
    ours = median_seconds(lambda: se.nash_conv(tree, uniform), 10)
    cpp_uniform = pyspiel.UniformRandomPolicy(game)
    start = time.perf_counter()
    cpp_value = pyspiel.nash_conv(game, cpp_uniform)
    cpp = time.perf_counter() - start
    print(f"\nNashConv of the uniform policy on the 656k-history hold'em "
          f"(target < 50 ms)")
    print(f"  spiel_ext.eval.nash_conv  {fmt(ours)}  value "
          f"{se.nash_conv(tree, uniform):.9f}")
    print(f"  OpenSpiel C++ (one run)   {fmt(cpp)}  value {cpp_value:.9f}")
    print(f"  ratio: OpenSpiel C++ / ours = {cpp / ours:8.1f}x")
  if not FLAGS.skip_large:
    bench_native_compile()
  bench_cfr_scale(SCALE_GAMES[:2] if FLAGS.skip_large else SCALE_GAMES)
  bench_cfr_plus_to_target()
  peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
  print(f"\npeak RSS of this process: {peak:.0f} MiB")


if __name__ == "__main__":
  app.run(main)
