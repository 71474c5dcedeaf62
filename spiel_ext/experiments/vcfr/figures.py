"""The VCFR experiments' figures and tables (Qiu, Wang, Ma, Wen, Zhang,
"Combining Counterfactual Regret Minimization with Information Gain to Solve
Extensive Games with Unknown Environments", 2023): NashConv on the true game
against episodes, one panel per base game, the band over environment seeds;
the final values; our Leduc(4) curves beside the authors' logged values.

The artefacts are named once here (:data:`FINAL`, :data:`NASH_CONV`,
:data:`AUTHORS_LOGS`): the summaries write them, the claims cite them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import pandas as pd

from spiel_ext.analysis.claims import figure, table
from spiel_ext.experiments.declaration import Settings
from spiel_ext.experiments.vcfr.comparisons import (final_table,
                                                    with_environment)
from spiel_ext.experiments.vcfr.paper_values import (AUTHORS_LEDUC4_LOGS,
                                                     AUTHORS_LEDUC4_ROUNDS,
                                                     LEDUC4)
from spiel_ext.results.figures import (draw_lines, line_figure, save_figure,
                                      subplots)
from spiel_ext.results.tables import write_table

FINAL = table("final")
NASH_CONV = figure("nash_conv_vs_episodes")
AUTHORS_LOGS = figure("authors_logs_leduc4")


def summarize(frame: pd.DataFrame, settings: Settings, folder: Path, *,
              order: Sequence[str]) -> tuple[list[Path], list[Path]]:
  """NashConv vs episodes (lines in ``order``) and the final table."""
  del settings
  data = with_environment(frame)
  figures = line_figure(
      data, "nash_conv", NASH_CONV.stem(folder), panel="environment",
      x="episodes",
      line_order=[name for name in order if name in set(data.algorithm)],
      title="NashConv on the true game vs episodes (mean, 90% band over "
      "environments)", runs="environment")
  tables = write_table(final_table(frame), FINAL.stem(folder),
                       caption="After the last iteration, mean over "
                       "environment seeds")
  return figures, tables


def summarize_information(frame: pd.DataFrame, settings: Settings,
                          folder: Path, *,
                          order: Sequence[str]
                          ) -> tuple[list[Path], list[Path]]:
  """:func:`summarize`, and our Leduc(4) curves beside the authors' logs."""
  figures, tables = summarize(frame, settings, folder, order=order)
  figures += authors_logs_figure(frame, AUTHORS_LOGS.stem(folder))
  return figures, tables


def authors_logs_figure(frame: pd.DataFrame, path: Path) -> list[Path]:
  """Our Leduc(4) curves of the authors' three logged learners (mean and
  band over environments) with their logged values as markers."""
  data = with_environment(frame[frame.metric == "nash_conv"])
  data = data[(data.environment == LEDUC4) &
              data.algorithm.isin(list(AUTHORS_LEDUC4_LOGS))]
  if data.empty:
    return []
  canvas, axis = subplots(figsize=(6.4, 4.2))
  colors = dict(zip(AUTHORS_LEDUC4_LOGS, ("C0", "C1", "C2")))
  draw_lines(axis, data, "nash_conv", line_order=list(AUTHORS_LEDUC4_LOGS),
             colors=colors, runs="environment")
  for name, values in AUTHORS_LEDUC4_LOGS.items():
    axis.plot([r + 1 for r in AUTHORS_LEDUC4_ROUNDS], values, "x",
              color=colors[name], markersize=8,
              label=f"{name}: the authors' log (one environment)")
  axis.legend(fontsize=7)
  axis.set_title("Unknown Leduc(4): our runs and the authors' logs",
                 fontsize=10)
  return save_figure(canvas, path)
