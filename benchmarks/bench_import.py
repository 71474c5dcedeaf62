"""Start-up cost: importing spiel_ext and the first CFR iteration on Kuhn.

    python benchmarks/bench_import.py             # ~15 s
    python benchmarks/bench_import.py --runs=9

Each measurement is a fresh Python process that reports its own CPU time
(user + system, ``time.process_time``) from before its first import to after
its first ``evaluate_and_update_policy`` on Kuhn poker:

- ours: ``import pyspiel``, ``spiel_ext``'s ``exploitability`` and CFR
  modules (OpenSpiel's CFR example with our import), one iteration;
- OpenSpiel: ``import pyspiel`` and OpenSpiel's Python ``cfr`` and
  ``exploitability`` modules, one iteration;
- plain pyspiel: ``import pyspiel`` alone, for the floor.

The numba kernels are loaded from their cache: one untimed process runs first
to compile (or load) them and the compiled Kuhn tree. The median of
``--runs`` processes is printed; CPU time, unlike wall time, is not inflated
by other processes on a busy machine (though their cache pressure shows).
"""

import statistics
import subprocess
import sys

from absl import app, flags

_RUNS = flags.DEFINE_integer("runs", 5, "Processes timed per measurement.")

_PROLOGUE = "import time\nstart = time.process_time()\n"
_EPILOGUE = "\nprint(time.process_time() - start)\n"

SCRIPTS = {
    "spiel_ext (import + 1st Kuhn CFR iteration)": """
import pyspiel
from spiel_ext import exploitability
from spiel_ext.algorithms import cfr
solver = cfr.CFRSolver(pyspiel.load_game("kuhn_poker"))
solver.evaluate_and_update_policy()
""",
    "OpenSpiel Python CFR (import + 1st iteration)": """
import pyspiel
from open_spiel.python.algorithms import cfr, exploitability
solver = cfr.CFRSolver(pyspiel.load_game("kuhn_poker"))
solver.evaluate_and_update_policy()
""",
    "import spiel_ext": "\nimport spiel_ext\n",
    "import pyspiel": "\nimport pyspiel\n",
}


def cpu_seconds(body: str) -> float:
  """The CPU time a fresh interpreter reports for running ``body``."""
  result = subprocess.run([sys.executable, "-c", _PROLOGUE + body + _EPILOGUE],
                          capture_output=True, text=True, check=True)
  return float(result.stdout.split()[-1])


def main(argv):
  del argv
  if _RUNS.value < 1:
    raise app.UsageError(f"--runs must be >= 1, got {_RUNS.value}.")
  for body in SCRIPTS.values():  # Warm the numba and tree caches.
    cpu_seconds(body)
  medians = {}
  for name, body in SCRIPTS.items():
    times = [cpu_seconds(body) for _ in range(_RUNS.value)]
    medians[name] = statistics.median(times)
    print(f"{name:48s} median {medians[name]:.3f} s CPU "
          f"(min {min(times):.3f}, max {max(times):.3f}, {_RUNS.value} runs)")
  ours, theirs = list(medians.values())[:2]
  print(f"ratio ours / OpenSpiel: {ours / theirs:.2f}x")


if __name__ == "__main__":
  app.run(main)
