"""quickstart: CFR, CFR+, XFP and BUFP(EF) on Leduc, beside OpenSpiel's CFR.

NashConv vs iterations (log-log, mean and 90% band over random starts), with
OpenSpiel's own Python ``cfr.CFRSolver`` for its first iterations on the
same axes and our CFR from the same uniform start (the two lines coincide:
the solvers match iterate for iterate). The table gives each algorithm's
final NashConv and iterations per second, ours beside OpenSpiel's.
"""

from __future__ import annotations

from pathlib import Path

from spiel_ext.experiments.spec import Experiment, Scale
from spiel_ext.results.quickstart_figures import (OPENSPIEL_CFR,
                                                  QUICKSTART_ORDER,
                                                  summarize_quickstart)

QUICKSTART = Experiment(
    name="quickstart",
    description="CFR, CFR+, XFP, BUFP(EF) on Leduc beside OpenSpiel's CFR: "
                "NashConv figure and speed table",
    quick=Scale(iterations=2000, seeds=3, games=("leduc_poker",),
                algorithms=QUICKSTART_ORDER,
                iteration_caps=((OPENSPIEL_CFR, 30),)),
    paper=Scale(iterations=100_000, seeds=10, games=("leduc_poker",),
                algorithms=QUICKSTART_ORDER,
                iteration_caps=((OPENSPIEL_CFR, 300),)),
    metrics=("nash_conv",),
    summarize=summarize_quickstart)


def result_table(folder: Path) -> str:
  """The quickstart's result as the command prints it: per algorithm its
  iterations, NashConv at the last iteration (mean over its random starts)
  and its solver speed against OpenSpiel's Python CFR, per game.

  Args:
    folder: the run folder holding ``results.parquet``.

  Returns:
    The table as aligned text lines.
  """
  from spiel_ext.analysis.speed import speed_table  # pylint: disable=g-import-not-at-top
  from spiel_ext.results.labels import game_label  # pylint: disable=g-import-not-at-top
  from spiel_ext.results.store import load_results  # pylint: disable=g-import-not-at-top
  table = speed_table(load_results(folder), "nash_conv")
  order = {label: index for index, label in enumerate(QUICKSTART_ORDER)}
  lines = []
  for game, rows in table.groupby("game", sort=False):
    rows = rows.sort_values("algorithm", key=lambda labels: labels.map(
        lambda label: order.get(label, len(order))))
    reference = rows.loc[rows.algorithm == OPENSPIEL_CFR, "iterations/s"]
    width = max(len("algorithm"), *(len(label) for label in rows.algorithm))
    lines.append(f"{game_label(game)}: NashConv at the last iteration (mean "
                 "over random starts); speed: iterations per second over "
                 f"{OPENSPIEL_CFR}'s")
    lines.append(f"  {'algorithm':<{width}}  {'iterations':>10}  "
                 f"{'NashConv':>9}  {'speed':>8}")
    for _, row in rows.iterrows():
      speed = ("-" if reference.empty else
               f"{row['iterations/s'] / reference.iloc[0]:,.0f}x")
      lines.append(f"  {row.algorithm:<{width}}  {row.iterations:>10,}  "
                   f"{row['final nash_conv']:>9.4g}  {speed:>8}")
  return "\n".join(lines) + "\n"
