"""Figures from the results table: mean and a 90% band over seeds.

One panel per game (or per any column), one line per algorithm, the band
between the 5th and 95th percentiles of the seeds at each iteration, log
axes where the papers use them, written as PNG and PDF.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # pylint: disable=g-import-not-at-top,wrong-import-position
import pandas as pd  # pylint: disable=g-import-not-at-top,wrong-import-position

from spiel_ext.results.labels import game_label  # pylint: disable=g-import-not-at-top,wrong-import-position

METRIC_LABELS = {
    "nash_conv": "NashConv",
    "exploitability": "exploitability (NashConv / players)",
    "sequential_gap_mean": "perfect-Bayesian gap (mean over infosets)",
    "sequential_gap_max": "perfect-Bayesian gap (max over infosets)",
    "kuhn_alpha": "alpha = P(Bet | Jack, first decision)",
}


def save_figure(figure, path: str | Path) -> list[Path]:
  """Writes ``figure`` as PNG and PDF next to each other; closes it."""
  figure.tight_layout()
  path = Path(path)
  path.parent.mkdir(parents=True, exist_ok=True)
  written = []
  for suffix in (".png", ".pdf"):
    target = path.with_suffix(suffix)
    figure.savefig(target, dpi=150)
    written.append(target)
  plt.close(figure)
  return written


def band(frame: pd.DataFrame, x: str = "iteration",
         low: float = 0.05, high: float = 0.95) -> pd.DataFrame:
  """Mean, low and high quantiles of ``value`` over seeds at each ``x``."""
  grouped = frame.groupby(x)["value"]
  return pd.DataFrame({"mean": grouped.mean(), "low": grouped.quantile(low),
                       "high": grouped.quantile(high),
                       "seeds": grouped.count()})


def line_figure(frame: pd.DataFrame, metric: str, path: str | Path, *,
                panel: str = "game", line: str = "algorithm",
                x: str = "iteration", log_x: bool = True, log_y: bool = True,
                title: str | None = None,
                line_order: Sequence[str] | None = None,
                dashed: Sequence[str] = (),
                reference: dict[str, float] | None = None) -> list[Path]:
  """Draws ``metric`` vs ``x``: a panel per ``panel`` value, a line per
  ``line`` value, mean and 90% band over seeds. Returns the files written.

  Args:
    reference: optional {label: y} horizontal reference lines.
    dashed: lines drawn dashed with markers (references that other lines
      may cover).
  """
  data = frame[frame.metric == metric]
  if data.empty:
    raise ValueError(f"no rows with metric {metric!r} to plot.")
  panels = list(dict.fromkeys(data[panel]))
  figure, axes = plt.subplots(1, len(panels), squeeze=False,
                              figsize=(max(6.4, 4.6 * len(panels)), 4.2))
  lines = list(line_order or dict.fromkeys(data[line]))
  colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
  for axis, panel_value in zip(axes[0], panels):
    subset = data[data[panel] == panel_value]
    for index, name in enumerate(lines):
      series = subset[subset[line] == name]
      if series.empty:
        continue
      stats = band(series, x)
      color = colors[index % len(colors)]
      seeds = int(stats["seeds"].max())
      style = (dict(linestyle="--", marker="o", markersize=3)
               if name in dashed else {})
      axis.plot(stats.index, stats["mean"], color=color,
                label=f"{name} ({seeds} seed{'s' if seeds > 1 else ''})",
                **style)
      if seeds > 1:
        axis.fill_between(stats.index, stats["low"], stats["high"],
                          color=color, alpha=0.2, linewidth=0)
    for number, (label, value) in enumerate((reference or {}).items()):
      axis.axhline(value, color="black", linewidth=0.8, label=label,
                   linestyle=("--", ":", "-.")[number % 3])
    if log_x:
      axis.set_xscale("log")
    if log_y and (subset["value"] > 0).all():
      axis.set_yscale("log")
    axis.set_title(game_label(str(panel_value)) if panel == "game"
                   else str(panel_value), fontsize=10)
    axis.set_xlabel(x)
    axis.set_ylabel(METRIC_LABELS.get(metric, metric))
    axis.grid(True, which="major", alpha=0.3)
    axis.legend(fontsize=8)
  figure.suptitle(title or f"{METRIC_LABELS.get(metric, metric)} "
                  "(mean, 90% band over seeds)", fontsize=11)
  return save_figure(figure, path)



def histogram_figure(values, path: str | Path, *, xlabel: str, title: str,
                     bins: int = 20, reference: dict[str, float] | None = None,
                     value_range: tuple[float, float] | None = None
                     ) -> list[Path]:
  """A histogram of ``values`` with optional vertical reference lines;
  PNG and PDF. Returns the files written."""
  figure, axis = plt.subplots(figsize=(6.4, 4.2))
  axis.hist(list(values), bins=bins, range=value_range, color="#4c72b0",
            edgecolor="white")
  for number, (label, value) in enumerate((reference or {}).items()):
    axis.axvline(value, color="black", linewidth=1.0, label=label,
                 linestyle=("--", ":", "-.")[number % 3])
  axis.set_xlabel(xlabel)
  axis.set_ylabel("runs")
  axis.set_title(title, fontsize=11)
  if reference:
    axis.legend(fontsize=8)
  return save_figure(figure, path)
