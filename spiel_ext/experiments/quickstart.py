"""quickstart: CFR, CFR+, XFP and BUFP(EF) on Leduc, beside OpenSpiel's CFR.

NashConv vs iterations (log-log, mean and 90% band over random starts), with
OpenSpiel's own Python ``cfr.CFRSolver`` for its first iterations on the
same axes and our CFR from the same uniform start (the two lines coincide:
the solvers match iterate for iterate). The table gives each algorithm's
final NashConv and iterations per second, ours beside OpenSpiel's.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from spiel_ext.experiments.spec import Experiment, Scale, Settings
from spiel_ext.results.figures import line_figure
from spiel_ext.results.labels import game_label
from spiel_ext.results.tables import write_table

_OPENSPIEL = "OpenSpiel CFR (Python)"
_ALGORITHMS = ("CFR", "CFR+", "XFP", "BUFP(EF)", "CFR (uniform)", _OPENSPIEL)


def speed_table(frame: pd.DataFrame, metric: str,
                compare_at: int | None = None) -> pd.DataFrame:
  """Per game and algorithm: seeds, iterations, the final ``metric`` (mean
  over seeds), optionally its value at iteration ``compare_at``, and solver
  iterations per second.

  Speed is measured between the first and the last evaluation point, so a
  one-time cost in the first iteration (numba loading its compiled
  kernels) is not counted.
  """
  data = frame[frame.metric == metric]
  keys = ["game", "algorithm", "seed"]
  first = data.loc[data.groupby(keys)["iteration"].idxmin()].set_index(keys)
  last = data.loc[data.groupby(keys)["iteration"].idxmax()].set_index(keys)
  last = last.assign(
      speed=(last.iteration - first.iteration) /
      (last.wall_time - first.wall_time)).reset_index()
  table = last.groupby(["game", "algorithm"], sort=False).agg(
      seeds=("seed", "nunique"), iterations=("iteration", "max"),
      final=("value", "mean"), speed=("speed", "mean")).reset_index()
  columns = {"final": f"final {metric}", "speed": "iterations/s"}
  if compare_at is not None:
    early = data[data.iteration <= compare_at]
    early = early.loc[early.groupby(keys)["iteration"].idxmax()]
    at = early.groupby(["game", "algorithm"])["value"].mean()
    table.insert(5, f"{metric} at iteration {compare_at}",
                 [at.get((row.game, row.algorithm), float("nan"))
                  for row in table.itertuples()])
  return table.rename(columns=columns)


def summarize(frame: pd.DataFrame, settings: Settings,
              folder: Path) -> tuple[list[Path], list[Path]]:
  figures = line_figure(
      frame, "nash_conv", folder / "figures" / "nash_conv",
      line_order=[a for a in _ALGORITHMS if a in settings.algorithms],
      dashed=[_OPENSPIEL],
      title="NashConv vs iterations (mean, 90% band over random starts)")
  cap = dict(settings.iteration_caps).get(_OPENSPIEL)
  table = speed_table(frame, "nash_conv", cap)
  reference = table[table.algorithm == _OPENSPIEL].set_index("game")
  if not reference.empty:
    table["speed / OpenSpiel Python CFR"] = [
        row["iterations/s"] / reference.loc[row.game, "iterations/s"]
        if row.game in reference.index else float("nan")
        for _, row in table.iterrows()]
  table["game"] = table["game"].map(game_label)
  tables = write_table(
      table, folder / "tables" / "summary",
      caption="NashConv (final, and where OpenSpiel's Python CFR stops) "
      "and solver iterations per second")
  return figures, tables


QUICKSTART = Experiment(
    name="quickstart",
    description="CFR, CFR+, XFP, BUFP(EF) on Leduc beside OpenSpiel's CFR: "
                "NashConv figure and speed table",
    quick=Scale(iterations=2000, seeds=3, games=("leduc_poker",),
                algorithms=_ALGORITHMS, iteration_caps=((_OPENSPIEL, 30),)),
    paper=Scale(iterations=100_000, seeds=10, games=("leduc_poker",),
                algorithms=_ALGORITHMS, iteration_caps=((_OPENSPIEL, 300),)),
    metrics=("nash_conv",),
    summarize=summarize,
    cost="quick: under a minute; paper: about 15 minutes")
