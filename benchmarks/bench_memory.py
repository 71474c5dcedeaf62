"""Memory benchmark: the admission's forecast beside the measured peak.

    python benchmarks/bench_memory.py           # the default games, ~5 min
    python benchmarks/bench_memory.py --game=kuhn_poker --game=leduc_poker
    python benchmarks/bench_memory.py --large   # adds 14.8M and 52M-history
                                                # battleships (~9 GB, ~8 min)
    python benchmarks/bench_memory.py --large --fit --save=rows.json
    python benchmarks/bench_memory.py --measured=rows.json --fit

Each game runs in a fresh process that first warms up (numba kernels loaded,
one small game compiled and solved), then resets its peak resident set size
(``/proc/self/clear_refs``) and compiles the game (disk cache off), runs two
CFR iterations and computes NashConv of the average policy. The measured
peak is the growth of the peak resident set size (VmHWM) over the resident
set size before compiling; the forecast is
:func:`spiel_ext.engine.admission.estimate_tree_bytes` of the compiled
tree's shape. Prints, per game, the shape, the peak after each phase, the
forecast, the measured peak and the error in percent.

With ``--fit`` it also fits the coefficients of ``admission.PEAK_BYTES``
(those with the least largest relative error over the games measured, see
:func:`fit`) and prints them with each game's error: re-calibrate by pasting
them into that table when the compiler's or the passes' arrays change (the
walk's buffers, the tree's arrays, the passes' scratch arrays), then re-run
this script to check the errors. ``--save`` keeps the measurements, and
``--measured`` fits them again without measuring.
"""

import gc
import json
import os
import subprocess
import sys

import numpy as np
from absl import app, flags

FLAGS = flags.FLAGS
flags.DEFINE_multi_string("game", None,
                          "A game to measure (repeat the flag for more; "
                          "default: GAMES).")
flags.DEFINE_bool("large", False, "Also measure LARGE_GAMES.")
flags.DEFINE_bool("fit", False, "Fit admission.PEAK_BYTES to the games.")
flags.DEFINE_integer("iterations", 2, "CFR iterations per game.")
flags.DEFINE_string("save", None, "Write the measured rows to this JSON file.")
flags.DEFINE_string("measured", None, "Read the rows from this JSON file "
                    "(written by --save) instead of measuring.")
flags.DEFINE_string("child", None, "(internal) measure this game and print "
                    "one JSON line.")

GAMES = [
    "kuhn_poker(players=4)",
    "kuhn_poker(players=6)",
    "leduc_poker",
    "liars_dice(numdice=1)",
    "tic_tac_toe",
    "leduc_poker(players=3)",
    "battleship(board_height=3,board_width=2,ship_sizes=[2],ship_values=[1],"
    "num_shots=3)",
    "turn_based_simultaneous_game(game=goofspiel(num_cards=5))",
    "universal_poker(betting=limit,numPlayers=2,blind=1 1,stack=50 50,"
    "numHoleCards=1,numRounds=3,firstPlayer=1 1 1,numSuits=2,numRanks=4,"
    "numBoardCards=0 1 1,raiseSize=2 4 4,maxRaises=2 2 2)",
]
LARGE_GAMES = [
    "battleship(board_height=4,board_width=4,ship_sizes=[1],ship_values=[1],"
    "num_shots=2)",
    "battleship(board_height=3,board_width=3,ship_sizes=[1;2],"
    "ship_values=[1;1],num_shots=2)",
]


def _status_bytes(field: str) -> int:
  """A field of /proc/self/status (VmRSS, VmHWM) in bytes."""
  with open("/proc/self/status") as status:
    for line in status:
      if line.startswith(field + ":"):
        return int(line.split()[1]) * 1024
  raise RuntimeError(f"/proc/self/status has no {field}")


def _reset_peak() -> None:
  """Sets VmHWM to the current VmRSS (Linux >= 4.0)."""
  with open("/proc/self/clear_refs", "w") as clear_refs:
    clear_refs.write("5")


def measure(game_string: str, iterations: int) -> dict:
  """The shape of ``game_string``'s tree and the peak memory of compiling
  and solving it, in this process (see the module docstring)."""
  os.environ["SPIEL_EXT_CACHE_DIR"] = ""
  # pylint: disable=import-outside-toplevel
  from spiel_ext import eval as spiel_eval
  from spiel_ext.algorithms.cfr import CFRSolver
  from spiel_ext.engine import compile_game

  def solve(game):
    tree = compile_game(game, use_cache=False)
    solver = CFRSolver(tree)
    for _ in range(iterations):
      solver.iteration()
    peak = _status_bytes("VmHWM")
    spiel_eval.nash_conv(tree, solver.average_policy())
    return tree, solver, peak

  # Warm-up: imports, first pools and the numba kernels, the parallel
  # passes' too (a small game runs them only below the threshold).
  from spiel_ext.engine import threads
  saved_threshold = threads.PARALLEL_MIN_HISTORIES
  threads.PARALLEL_MIN_HISTORIES = 0
  solve("kuhn_poker")
  solve("leduc_poker")
  threads.PARALLEL_MIN_HISTORIES = saved_threshold
  gc.collect()
  before = _status_bytes("VmRSS")
  _reset_peak()
  tree = compile_game(game_string, use_cache=False)
  compiled = _status_bytes("VmHWM") - before
  after_compile = _status_bytes("VmRSS") - before
  tree, solver, solved = solve(tree)
  total = _status_bytes("VmHWM") - before
  key_bytes = sum(map(len, tree.infoset_keys))
  shape = {
      "histories": tree.num_histories, "players": tree.num_players,
      "infosets": tree.num_infosets, "key_bytes": key_bytes,
      "actions": tree.num_distinct_actions,
  }
  del solver
  return {
      "game": game_string, **shape,
      "terminals": int(len(tree.terminals)),
      "tree_nbytes": int(tree.nbytes),
      "compile_peak": compiled, "after_compile": after_compile,
      "cfr_peak": solved - before, "peak": total,
  }


def _run_child(game_string: str, iterations: int) -> dict:
  result = subprocess.run(
      [sys.executable, __file__, f"--child={game_string}",
       f"--iterations={iterations}"],
      capture_output=True, text=True, check=False)
  if result.returncode != 0:
    raise RuntimeError(f"{game_string}: {result.stderr[-2000:]}")
  return json.loads(result.stdout.strip().splitlines()[-1])


def _forecast(row: dict) -> float:
  # pylint: disable-next=import-outside-toplevel
  from spiel_ext.engine.admission import estimate_tree_bytes
  return estimate_tree_bytes(row["histories"], row["players"],
                             row["infosets"], row["key_bytes"],
                             row["actions"])


# Coefficients the fit keeps: a key's characters take a byte each, and an
# infoset at least its key's str object, its place in the keys list and its
# dictionary entries.
FIXED_BYTES = {"key_byte": 1, "infoset": 150}


def fit(rows: list[dict]) -> dict[str, int]:
  """PEAK_BYTES's coefficients fitted to the measured peaks: the
  non-negative ones (FIXED_BYTES kept) with the least largest relative
  error over the games (a linear program), rounded to whole bytes."""
  # pylint: disable=import-outside-toplevel
  from scipy.optimize import linprog
  from spiel_ext.engine.admission import PEAK_BYTES, peak_terms
  free = [name for name in PEAK_BYTES if name not in FIXED_BYTES]
  terms = [peak_terms(row["histories"], row["players"], row["infosets"],
                      row["key_bytes"], row["actions"]) for row in rows]
  peaks = np.array([row["peak"] for row in rows], dtype=float)
  fixed = np.array([sum(FIXED_BYTES[name] * term[name]
                        for name in FIXED_BYTES) for term in terms]) / peaks
  relative = np.array([[term[name] for name in free] for term in terms],
                      dtype=float) / peaks[:, None]
  # Variables: the free coefficients and the largest error e; minimise e
  # subject to -e <= relative @ coefficients + fixed - 1 <= e.
  bound = np.ones((len(rows), 1))
  solution = linprog(
      np.r_[np.zeros(len(free)), 1.0],
      A_ub=np.vstack([np.hstack([relative, -bound]),
                      np.hstack([-relative, -bound])]),
      b_ub=np.r_[1 - fixed, fixed - 1],
      bounds=[(0, None)] * (len(free) + 1))
  fitted = dict(FIXED_BYTES)
  fitted.update({name: int(round(value))
                 for name, value in zip(free, solution.x)})
  return {name: fitted[name] for name in PEAK_BYTES}


def main(argv):
  del argv
  if FLAGS.child:
    print(json.dumps(measure(FLAGS.child, FLAGS.iterations)))
    return
  games = list(FLAGS.game or GAMES) + (LARGE_GAMES if FLAGS.large else [])
  saved = {}
  if FLAGS.measured:
    with open(FLAGS.measured) as measured:
      saved = {row["game"]: row for row in json.load(measured)}
    games = list(FLAGS.game or saved)
  mib = 2**20
  print(f"{'game':44s} {'histories':>10s} {'infosets':>9s} {'keys':>6s} "
        f"{'compile':>8s} {'+cfr':>8s} {'+nashconv':>9s} {'forecast':>9s} "
        f"{'error':>7s}   (MiB; peaks after each phase)")
  rows = []
  for game_string in games:
    row = saved.get(game_string) or _run_child(game_string, FLAGS.iterations)
    # The forecast of today's table (the saved one may be older).
    row["forecast"] = _forecast(row)
    rows.append(row)
    error = 100 * (row["forecast"] - row["peak"]) / row["peak"]
    print(f"{game_string[:44]:44s} {row['histories']:10d} "
          f"{row['infosets']:9d} {row['key_bytes'] / mib:6.1f} "
          f"{row['compile_peak'] / mib:8.0f} {row['cfr_peak'] / mib:8.0f} "
          f"{row['peak'] / mib:9.0f} {row['forecast'] / mib:9.0f} "
          f"{error:+6.1f}%", flush=True)
  if FLAGS.save:
    with open(FLAGS.save, "w") as save:
      json.dump(rows, save, indent=1)
  if FLAGS.fit:
    fitted = fit(rows)
    print("fitted PEAK_BYTES:", fitted)
    # pylint: disable-next=import-outside-toplevel
    from spiel_ext.engine.admission import peak_terms
    for row in rows:
      terms = peak_terms(row["histories"], row["players"], row["infosets"],
                         row["key_bytes"], row["actions"])
      forecast = sum(fitted[name] * terms[name] for name in fitted)
      print(f"  {row['game'][:44]:44s} "
            f"{100 * (forecast - row['peak']) / row['peak']:+6.1f}%")


if __name__ == "__main__":
  app.run(main)
