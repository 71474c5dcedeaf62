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


EXPERIMENTS: dict[str, Callable[..., None]] = {
    "quickstart": quickstart,
}
