"""The BUFP paper's Tables 1-2 from saved strategies: 5-rank Leduc
head-to-head in mb/h, at the root and with player 1 forced to Call at its
first decision, and section 5.2's percentages (Qi Ju, Zhemei Fang, Yunfeng
Luo, "Beyond Nash Equilibrium: Achieving Bayesian Perfect Equilibrium with
Belief Update Fictitious Play", 2024).

Pure functions: strategies in, cells and numbers out; where strategies are
read from a run folder, they are its snapshots
(:func:`spiel_ext.experiments.runner.load_snapshots`).
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Sequence

import numpy as np
import pandas as pd

from spiel_ext import eval as se
from spiel_ext.algorithms import FirstDecisions
from spiel_ext.analysis.poker_units import big_blind, mbh
from spiel_ext.engine import compile_game
from spiel_ext.eval.forced import force_actions
from spiel_ext.experiments.bufp.paper_values import (MEAN, RECOVERED, ROLES,
                                                     SECURED)
from spiel_ext.experiments.declaration import Settings
from spiel_ext.experiments.runner import load_snapshots
from spiel_ext.results.report import Variant

Cells = dict[tuple[str, str], np.ndarray]

# The snapshot every algorithm keeps after its last iteration, and the one
# taken at the paper's exploitabilities.
FINAL, MATCHED = "final", "matched"


def head_to_head_cells(game: str, policies: dict[str, list[np.ndarray]],
                       forced: bool) -> Cells:
  """Player 1's (seat 0's) winnings in mb/h for every pair of algorithms,
  one value per pair of seeds; with ``forced``, player 1 is forced to Call
  at its first decision."""
  tree = compile_game(game)
  blind = big_blind(game)
  first = FirstDecisions(player=0)
  cells = {}
  for row, row_policies in policies.items():
    seat0 = [force_actions(tree, p, first, "Call") if forced else p
             for p in row_policies]
    for column, column_policies in policies.items():
      cells[row, column] = np.array(
          [mbh(se.head_to_head(tree, a, b, seat=0), blind)
           for a in seat0 for b in column_policies])
  return cells


def head_to_head_frame(cells: Cells, order: Sequence[str]) -> pd.DataFrame:
  """The paper's layout: rows "X P1", columns "Y P2", "mean ± sd" cells,
  and the averages over the paper's three algorithms."""
  names = [name for name in order if any(name == r for r, _ in cells)]
  paper = [name for name in names if name in ROLES]
  table = []
  for row in names:
    line = {"": f"{row} P1"}
    for column in names:
      values = cells[row, column]
      line[f"{column} P2"] = f"{values.mean():.2f} ± {values.std():.2f}"
    line["P1 average"] = f"{np.mean([cells[row, c].mean() for c in paper]):.2f}"
    table.append(line)
  average = {"": "P2 average"}
  for column in names:
    average[f"{column} P2"] = (
        f"{np.mean([cells[r, column].mean() for r in paper]):.2f}")
  average["P1 average"] = ""
  table.append(average)
  return pd.DataFrame(table)[list(table[0])]


def deviation_percentages(table1: Cells, table2: Cells) -> dict[str, float]:
  """The paper's section 5.2: loss recovered by BUFP(EF) as player 1 and
  profit secured as player 2, relative to CFR, and their mean."""

  def row_average(cells, name):
    return np.mean([cells[name, c].mean() for c in ROLES])

  def column_average(cells, name):
    return np.mean([cells[r, name].mean() for r in ROLES])

  drop = {n: row_average(table1, n) - row_average(table2, n)
          for n in ("CFR", "BUFP(EF)")}
  gain = {n: column_average(table1, n) - column_average(table2, n)
          for n in ("CFR", "BUFP(EF)")}
  recovered = 100 * (drop["CFR"] - drop["BUFP(EF)"]) / drop["CFR"]
  secured = 100 * (gain["BUFP(EF)"] - gain["CFR"]) / gain["CFR"]
  return {"loss drop CFR": drop["CFR"], "loss drop BUFP(EF)": drop["BUFP(EF)"],
          RECOVERED: recovered,
          "profit gain CFR": gain["CFR"],
          "profit gain BUFP(EF)": gain["BUFP(EF)"],
          SECURED: secured, MEAN: (recovered + secured) / 2}


def pair_percentages(table1: Cells, table2: Cells) -> dict[str, np.ndarray]:
  """Section 5.2's percentages once per seed pair: the i-th strategy of
  every row algorithm against the j-th of every column algorithm (indices
  wrap for algorithms with fewer runs)."""
  # A diagonal cell holds n x n pairs of one algorithm's n runs.
  sizes = {row: int(round(np.sqrt(len(values))))
           for (row, column), values in table1.items() if row == column}
  longest = max(sizes.values())
  out: dict[str, list[float]] = {}
  for i, j in itertools.product(range(longest), repeat=2):
    picked = []
    for cells in (table1, table2):
      one = {}
      for (row, column), values in cells.items():
        n_column = sizes[column]
        one[row, column] = np.array(
            [values[(i % sizes[row]) * n_column + j % n_column]])
      picked.append(one)
    for key, value in deviation_percentages(*picked).items():
      out.setdefault(key, []).append(value)
  return {key: np.array(values) for key, values in out.items()}


def spread(values: np.ndarray) -> str:
  """"median m [min, max]" of per-seed-pair values."""
  return (f"median {np.median(values):.1f} [{values.min():.1f}, "
          f"{values.max():.1f}]")


def rules_name(game: str) -> str:
  """Which rules a 5-Leduc game string plays: RLCard's or the later ones."""
  return ("RLCard rules" if "fold_always=true" in game.lower() else
          "later rules (no fold when checking is legal)")


def variants_run(settings: Settings,
                 variants: Sequence[Variant]) -> list[Variant]:
  """The table variants whose algorithms all ran with ``settings``."""
  return [v for v in variants
          if set(v.algorithms) <= set(settings.algorithms)]


def snapshot_labels(settings: Settings) -> list[tuple[str, str]]:
  """(snapshot, label) of every snapshot the tables are built at: each
  iteration snapshot, then the final strategies, then the paper's
  exploitabilities."""
  names = [(f"it{int(threshold)}", f"after {int(threshold):,} it.")
           for owner, _, metric, threshold in settings.snapshots
           if metric == "iteration" and owner == "BUFP(EF)"]
  return names + [(FINAL, f"after {settings.iterations:,} it."),
                  (MATCHED, "at the paper's exploitabilities")]


def role_policies(settings: Settings, folder: Path, snapshot: str, game: str,
                  variant: Variant) -> dict[str, list[np.ndarray]] | None:
  """{role: [policies]} for the variant's CFR, BUFP(EF) and BUFP(X) at
  ``snapshot`` (a capped algorithm's last strategy stands for the snapshot
  at its cap), or None if one is missing."""
  caps = {name: cap for name, cap in settings.iteration_caps
          if cap < settings.iterations}
  roles = {}
  for role, algorithm in zip(ROLES, variant.algorithms):
    name = snapshot
    if algorithm in caps:
      if snapshot != f"it{caps[algorithm]}":
        return None
      name = FINAL
    policies = load_snapshots(settings, folder, name, game).get(algorithm)
    if not policies:
      return None
    roles[role] = policies
  return roles


def table_cells(settings: Settings, folder: Path, snapshot: str, game: str,
                variant: Variant) -> tuple[Cells, Cells] | None:
  """Table 1's and Table 2's cells for ``variant`` on ``game`` at
  ``snapshot``, or None if a role's strategies are missing."""
  policies = role_policies(settings, folder, snapshot, game, variant)
  if policies is None:
    return None
  return (head_to_head_cells(game, policies, forced=False),
          head_to_head_cells(game, policies, forced=True))
