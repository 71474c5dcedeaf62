"""The quickstart's figure and table: NashConv against iterations, and
solver iterations per second beside OpenSpiel's Python CFR."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from spiel_ext.analysis.speed import speed_table
from spiel_ext.results.figures import line_figure
from spiel_ext.results.labels import game_label
from spiel_ext.results.tables import write_table

OPENSPIEL_CFR = "OpenSpiel CFR (Python)"
QUICKSTART_ORDER = ("CFR", "CFR+", "XFP", "BUFP(EF)", "CFR (uniform)",
                    OPENSPIEL_CFR)


def summarize_quickstart(frame: pd.DataFrame, settings,
              folder: Path) -> tuple[list[Path], list[Path]]:
  """The quickstart's NashConv figure and its summary table (final
  NashConv, NashConv where OpenSpiel's Python CFR stops, iterations per
  second); returns (figure paths, table paths)."""
  figures = line_figure(
      frame, "nash_conv", folder / "figures" / "nash_conv",
      line_order=[a for a in QUICKSTART_ORDER if a in settings.algorithms],
      dashed=[OPENSPIEL_CFR],
      title="NashConv vs iterations (mean, 90% band over random starts)")
  cap = dict(settings.iteration_caps).get(OPENSPIEL_CFR)
  table = speed_table(frame, "nash_conv", cap)
  reference = table[table.algorithm == OPENSPIEL_CFR].set_index("game")
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
