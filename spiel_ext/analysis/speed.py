"""Solver speed from a results table: iterations per second between the
first and the last evaluation point, beside the final value of a metric."""

from __future__ import annotations

import pandas as pd


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
