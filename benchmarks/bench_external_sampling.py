"""External-sampling MCCFR benchmark: ours beside OpenSpiel's C++ and Python.

    python benchmarks/bench_external_sampling.py     # ~1 minute

One process; each solver is warmed up (numba compiles ours on first use),
then timed over ``evaluate_and_update_policy`` / ``run_iteration`` /
``iteration`` calls only. One iteration is one sampled walk per player for
all three, so time per iteration compares like with like. The ratio lines
say how many times faster ours is.
"""

import pyspiel
from absl import app
from open_spiel.python.algorithms import external_sampling_mccfr

from spiel_ext.algorithms.external_sampling import ExternalSamplingSolver
from timing import seconds_per_iteration

# Iterations timed per game: (ours, OpenSpiel C++, OpenSpiel Python).
ITERATIONS = {
    "kuhn_poker": (200_000, 50_000, 2_000),
    "leduc_poker": (100_000, 10_000, 200),
}


def bench_external_sampling(games=("kuhn_poker", "leduc_poker"),
                            average_type="simple", repeats=3):
  """Prints, per game, seconds per iteration of our ExternalSamplingSolver,
  OpenSpiel's C++ ExternalSamplingMCCFRSolver and its Python
  ExternalSamplingSolver, and the ratios C++ / ours and Python / ours.

  Args:
    games: game strings (iteration counts from ITERATIONS, else 10,000 /
      2,000 / 100).
    average_type: "simple" or "full", for all three solvers.
    repeats: each timing is the best of this many runs.
  """
  print(f"External-sampling MCCFR, seconds per iteration ({average_type} "
        "averaging; best of "
        f"{repeats})")
  cpp_type = getattr(pyspiel.MCCFRAverageType, average_type.upper())
  python_type = external_sampling_mccfr.AverageType[average_type.upper()]
  for name in games:
    game = pyspiel.load_game(name)
    ours_n, cpp_n, python_n = ITERATIONS.get(name, (10_000, 2_000, 100))
    ours = ExternalSamplingSolver(game, average_type, seed=0)
    cpp = pyspiel.ExternalSamplingMCCFRSolver(game, seed=0,
                                              avg_type=cpp_type)
    python = external_sampling_mccfr.ExternalSamplingSolver(game, python_type)
    ours_s = min(seconds_per_iteration(ours.evaluate_and_update_policy,
                                       ours_n, 1000) for _ in range(repeats))
    cpp_s = min(seconds_per_iteration(cpp.run_iteration, cpp_n, 100)
                for _ in range(repeats))
    python_s = min(seconds_per_iteration(python.iteration, python_n, 10)
                   for _ in range(repeats))
    print(f"  {name}")
    print(f"    spiel_ext ExternalSamplingSolver       {ours_s * 1e6:10.2f} us"
          f"  ({1 / ours_s:10.0f} it/s)")
    print(f"    OpenSpiel C++ ExternalSamplingMCCFR    {cpp_s * 1e6:10.2f} us"
          f"  ({1 / cpp_s:10.0f} it/s)")
    print(f"    OpenSpiel Python ExternalSamplingSolver {python_s * 1e6:9.2f} "
          f"us  ({1 / python_s:10.0f} it/s)")
    print(f"    ratio: OpenSpiel C++ / ours    = {cpp_s / ours_s:8.1f}x")
    print(f"    ratio: OpenSpiel Python / ours = {python_s / ours_s:8.1f}x")


def main(argv):
  del argv
  bench_external_sampling()
  print()
  bench_external_sampling(average_type="full", repeats=1)


if __name__ == "__main__":
  app.run(main)
