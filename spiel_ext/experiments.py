"""The named experiments ``run_experiments.py --experiment=NAME`` offers."""

from __future__ import annotations

import time
from typing import Callable

import numpy as np
import pyspiel


def quickstart(output_dir: str, seed: int = 0) -> None:
  """Our NashConv of Leduc policies beside OpenSpiel's Python and C++ numbers."""
  del output_dir  # Prints only.
  from open_spiel.python import policy as openspiel_policy  # pylint: disable=g-import-not-at-top
  from open_spiel.python.algorithms import exploitability  # pylint: disable=g-import-not-at-top

  from spiel_ext import eval as se  # pylint: disable=g-import-not-at-top
  from spiel_ext.engine import compile_game  # pylint: disable=g-import-not-at-top
  from spiel_ext.policy import to_tabular_policy  # pylint: disable=g-import-not-at-top

  game = pyspiel.load_game("leduc_poker")
  start = time.perf_counter()
  tree = compile_game(game)
  print(f"compiled {tree} in {time.perf_counter() - start:.3f} s")
  rng = np.random.default_rng(seed)
  raw = np.where(tree.infoset_legal, rng.gamma(1.0, size=tree.infoset_legal.shape),
                 0.0)
  policies = {
      "uniform": openspiel_policy.TabularPolicy(game),
      f"dirichlet(seed={seed})": to_tabular_policy(
          tree, raw / raw.sum(axis=1, keepdims=True)),
  }
  print(f"{'policy':<18} {'NashConv (ours)':>16} {'OpenSpiel Python':>17} "
        f"{'OpenSpiel C++':>14} {'exploitability':>15}")
  for name, policy in policies.items():
    ours = se.nash_conv(game, policy)
    python_value = exploitability.nash_conv(game, policy)
    cpp_value = pyspiel.nash_conv(
        game, openspiel_policy.python_policy_to_pyspiel_policy(policy))
    print(f"{name:<18} {ours:>16.10f} {python_value:>17.10f} "
          f"{cpp_value:>14.10f} {se.exploitability(game, policy):>15.10f}")
  print("exploitability = NashConv / 2 players (OpenSpiel's convention).")

  from spiel_ext.algorithms import (BUFPSolver, CFRPlusSolver,  # pylint: disable=g-import-not-at-top
                                    PrefCFRSolver, FirstDecisions)
  import spiel_ext.games  # pylint: disable=g-import-not-at-top,unused-import
  print("\nSolvers, 300 iterations on leduc_poker and spiel_ext_leduc(ranks=5):")
  print(f"{'game':<26} {'solver':<28} {'NashConv':>10} {'PB gap (mean)':>14} "
        f"{'solver s':>8}")
  for game_name in ["leduc_poker", "spiel_ext_leduc(ranks=5)"]:
    compile_game(game_name)  # Time the solvers, not the first compile.
    solvers = {
        "CFR+": lambda g=game_name: CFRPlusSolver(g),
        "Pref-CFR(BR) Raise x5": lambda g=game_name: PrefCFRSolver(
            g, preference={"Raise": 5}, where=FirstDecisions(0), base="cfr+"),
        "BUFP(EF)": lambda g=game_name: BUFPSolver(g, seed=seed),
    }
    for name, make in solvers.items():
      start = time.perf_counter()
      solver = make()
      for _ in range(300):
        solver.evaluate_and_update_policy()
      took = time.perf_counter() - start
      average = solver.average_policy()
      print(f"{game_name:<26} {name:<28} {se.nash_conv(solver.tree, average):>10.5f} "
            f"{se.sequential_gap(solver.tree, average).mean:>14.5f} "
            f"{took:>8.2f}")


EXPERIMENTS: dict[str, Callable[..., None]] = {
    "quickstart": quickstart,
}
