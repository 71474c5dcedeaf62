"""Figures from the results table: mean and a 90% band over seeds.

One panel per game (or per any column), one line per algorithm, the band
between the 5th and 95th percentiles of the seeds at each iteration, log
axes where the papers use them, written as PNG and PDF.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any, Sequence

import numpy as np
import pandas as pd

from spiel_ext.files import atomic_write
from spiel_ext.results.labels import game_label

METRIC_LABELS = {
    "nash_conv": "NashConv",
    "exploitability": "exploitability (NashConv / players)",
    "sequential_gap_mean": "perfect-Bayesian gap (mean over infosets)",
    "sequential_gap_max": "perfect-Bayesian gap (max over infosets)",
    "kuhn_alpha": "alpha = P(Bet | Jack, first decision)",
    "value_player_0": "value of the strategy pair to player 1",
}


def subplots(rows: int = 1, columns: int = 1, *, figsize=None, **options):
  """``(figure, axes)`` as ``matplotlib.pyplot.subplots`` gives them, but
  without pyplot: no global backend is chosen (a notebook keeps its own)
  and no figure is left open. matplotlib is imported on first use, so that
  importing the package stays fast."""
  from matplotlib.figure import Figure  # pylint: disable=g-import-not-at-top
  figure = Figure(figsize=figsize)
  return figure, figure.subplots(rows, columns, **options)


def color_cycle() -> list[str]:
  """The colours of matplotlib's property cycle, in order."""
  import matplotlib  # pylint: disable=g-import-not-at-top
  return matplotlib.rcParams["axes.prop_cycle"].by_key()["color"]


def save_figure(figure, path: str | Path) -> list[Path]:
  """Writes ``figure`` (from :func:`subplots`) as PNG and PDF next to each
  other, each atomically."""
  figure.tight_layout()
  path = Path(path)
  return [atomic_write(path.with_suffix(f".{suffix}"),
                       lambda handle, kind=suffix: figure.savefig(
                           handle, format=kind, dpi=150))
          for suffix in ("png", "pdf")]


def band(frame: pd.DataFrame, x: str = "iteration",
         low: float = 0.05, high: float = 0.95) -> pd.DataFrame:
  """Mean, low and high quantiles of ``value`` over seeds at each ``x``."""
  grouped = frame.groupby(x)["value"]
  return pd.DataFrame({"mean": grouped.mean(), "low": grouped.quantile(low),
                       "high": grouped.quantile(high),
                       "seeds": grouped.count()})


def metric_label(metric: str) -> str:
  """The axis label of a metric name."""
  if metric.startswith("nash_conv[eps=") and metric.endswith("]"):
    return f"NashConv, eps = {metric[len('nash_conv[eps='):-1]} perturbed game"
  return METRIC_LABELS.get(metric, metric)


def draw_lines(axis, data: pd.DataFrame, metric: str, *,
               line: str = "algorithm", x: str = "iteration",
               log_x: bool = True, log_y: bool = True,
               line_order: Sequence[str] | None = None,
               dashed: Sequence[str] = (),
               reference: dict[str, float] | None = None,
               colors: dict[str, str] | None = None,
               runs: str = "seed") -> None:
  """One line per ``line`` value of ``data`` (rows of one panel): the mean
  and 90% band of ``metric`` over seeds, on ``axis``; the legend counts
  them as ``runs`` ("seed", or "environment" where each row at an ``x`` is
  another game)."""
  data = data[data.metric == metric]
  lines = list(line_order or dict.fromkeys(data[line]))
  cycle = color_cycle()
  for index, name in enumerate(lines):
    series = data[data[line] == name]
    if series.empty:
      continue
    stats = band(series, x)
    color = (colors or {}).get(name, cycle[index % len(cycle)])
    seeds = int(stats["seeds"].max())
    style = (dict(linestyle="--", marker="o", markersize=3)
             if name in dashed else {})
    axis.plot(stats.index, stats["mean"], color=color,
              label=f"{name} ({seeds} {runs}{'s' if seeds > 1 else ''})",
              **style)
    if seeds > 1:
      axis.fill_between(stats.index, stats["low"], stats["high"],
                        color=color, alpha=0.2, linewidth=0)
  for number, (label, value) in enumerate((reference or {}).items()):
    axis.axhline(value, color="black", linewidth=0.8, label=label,
                 linestyle=("--", ":", "-.")[number % 3])
  if log_x:
    axis.set_xscale("log")
  if log_y and len(data) and (data["value"] > 0).all():
    axis.set_yscale("log")
  axis.set_xlabel(x)
  axis.set_ylabel(metric_label(metric))
  axis.grid(True, which="major", alpha=0.3)
  axis.legend(fontsize=8)


def line_figure(frame: pd.DataFrame, metric: str, path: str | Path, *,
                panel: str = "game", line: str = "algorithm",
                x: str = "iteration", log_x: bool = True, log_y: bool = True,
                title: str | None = None,
                line_order: Sequence[str] | None = None,
                dashed: Sequence[str] = (),
                reference: dict[str, float] | None = None,
                runs: str = "seed") -> list[Path]:
  """Draws ``metric`` vs ``x``: a panel per ``panel`` value, a line per
  ``line`` value, mean and 90% band over seeds. Returns the files written.

  Args:
    reference: optional {label: y} horizontal reference lines.
    dashed: lines drawn dashed with markers (references that other lines
      may cover).
    runs: what the band is over, as the legend counts it (see
      :func:`draw_lines`).
  """
  data = frame[frame.metric == metric]
  if data.empty:
    raise ValueError(f"no rows with metric {metric!r} to plot.")
  panels = list(dict.fromkeys(data[panel]))
  figure, axes = subplots(1, len(panels), squeeze=False,
                              figsize=(max(6.4, 4.6 * len(panels)), 4.2))
  for axis, panel_value in zip(axes[0], panels):
    draw_lines(axis, data[data[panel] == panel_value], metric, line=line,
               x=x, log_x=log_x, log_y=log_y, line_order=line_order,
               dashed=dashed, reference=reference, runs=runs)
    axis.set_title(game_label(str(panel_value)) if panel == "game"
                   else str(panel_value), fontsize=10)
  figure.suptitle(title or f"{metric_label(metric)} "
                  "(mean, 90% band over seeds)", fontsize=11)
  return save_figure(figure, path)


def stacked_figure(frame: pd.DataFrame, metrics: Sequence[str],
                   path: str | Path, *, title: str,
                   line_order: Sequence[str] | None = None,
                   dashed: Sequence[str] = (),
                   log_y: Sequence[bool] | None = None,
                   references: dict[str, dict[str, float]] | None = None
                   ) -> list[Path]:
  """One row per metric (the papers' top/bottom panels) and one line per
  algorithm, for the rows of one game; mean and 90% band over seeds.

  Args:
    log_y: per metric, a log y axis (default: all).
    references: {metric: {label: y}} horizontal reference lines.
  """
  missing = [m for m in metrics if frame[frame.metric == m].empty]
  if missing:
    raise ValueError(f"no rows with metric(s) {missing} to plot.")
  figure, axes = subplots(len(metrics), 1, squeeze=False,
                              figsize=(7.0, 3.4 * len(metrics)))
  colors = color_cycle()
  names = list(line_order or dict.fromkeys(frame.algorithm))
  palette = {name: colors[i % len(colors)] for i, name in enumerate(names)}
  for number, (axis, metric) in enumerate(zip(axes[:, 0], metrics)):
    draw_lines(axis, frame, metric, line_order=names, dashed=dashed,
               log_y=True if log_y is None else log_y[number],
               reference=(references or {}).get(metric), colors=palette)
  figure.suptitle(title, fontsize=11)
  return save_figure(figure, path)


@dataclasses.dataclass
class CurvePanel:
  """One panel of :func:`curves_figure`.

  Attributes:
    curves: {label: (x, y, style)}, style a dict of matplotlib line options.
    vlines: (x, label or "", style) vertical reference lines.
  """
  title: str
  xlabel: str
  ylabel: str
  curves: dict[str, tuple[Any, Any, dict]]
  vlines: list[tuple[float, str, dict]] = dataclasses.field(
      default_factory=list)


def curves_figure(panels: Sequence[Sequence[CurvePanel]], path: str | Path,
                  *, title: str, legend_outside: bool = False) -> list[Path]:
  """A grid of panels (rows of :class:`CurvePanel`) of plain curves, such as
  strategies vs hand strength with the thresholds of a closed form.

  Curve labels starting with "_" stay out of the legend; a curve with no
  points is a legend-only entry (e.g. what a line style means).
  """
  rows, columns = len(panels), max(len(row) for row in panels)
  width = 5.2 * columns + (3.0 if legend_outside else 0.0)
  figure, axes = subplots(rows, columns, squeeze=False,
                              figsize=(max(width, 8.0), 3.4 * rows))
  for row, panel_row in enumerate(panels):
    for column in range(columns):
      axis = axes[row, column]
      if column >= len(panel_row):
        axis.set_visible(False)
        continue
      panel = panel_row[column]
      for label, (xs, ys, style) in panel.curves.items():
        axis.plot(xs, ys, label=label, **style)
      for position, label, style in panel.vlines:
        axis.axvline(position, label=label or None,
                     **{"color": "tab:blue", "linewidth": 0.8, **style})
      axis.set_title(panel.title, fontsize=10)
      axis.set_xlabel(panel.xlabel)
      axis.set_ylabel(panel.ylabel)
      axis.grid(True, alpha=0.3)
      if legend_outside:
        axis.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))
      else:
        axis.legend(fontsize=7)
  figure.suptitle(title, fontsize=11)
  return save_figure(figure, path)


def histogram_figure(values, path: str | Path, *, xlabel: str, title: str,
                     bins: int = 20, reference: dict[str, float] | None = None,
                     value_range: tuple[float, float] | None = None
                     ) -> list[Path]:
  """A histogram of ``values`` with optional vertical reference lines;
  PNG and PDF. Returns the files written."""
  figure, axis = subplots(figsize=(6.4, 4.2))
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


def stacked_bars_figure(panels: dict[str, pd.DataFrame], path: str | Path,
                        *, title: str, xlabel: str, ylabel: str,
                        segments: dict[Any, tuple[str, str]] | None = None,
                        ylim: tuple[float, float] | None = (0.0, 1.0)
                        ) -> list[Path]:
  """One panel per entry of ``panels`` ({panel title: table}) side by side,
  one stacked bar per row of its table (the row labels under the bars,
  upright past 8 rows), one segment per column from the bottom up, such as
  a strategy per private hand for each of several styles; PNG and PDF.
  Returns the files written.

  Args:
    segments: {column: (legend label, color)}; columns with the same label
      share one legend entry (default: the column name, the colour cycle).
    ylim: the y range all panels share (None: matplotlib's).
  """
  tables = list(panels.values())
  width = max(3.4, 1.0 + 0.3 * len(tables[0]))
  figure, axes = subplots(1, len(tables), squeeze=False, sharey=True,
                              figsize=(width * len(tables) + 1.4, 4.4))
  handles = {}
  for axis, (panel_title, table) in zip(axes[0], panels.items()):
    bottom = np.zeros(len(table))
    for column in table.columns:
      label, color = (segments or {}).get(column, (str(column), None))
      values = table[column].to_numpy()
      handles[label] = axis.bar(range(len(table)), values, bottom=bottom,
                                width=0.85, color=color, label=label)
      bottom += values
    axis.set_xticks(range(len(table)))
    axis.set_xticklabels(table.index, rotation=90 if len(table) > 8 else 0,
                         fontsize=8)
    axis.set_title(panel_title, fontsize=9)
    axis.set_xlabel(xlabel, fontsize=9)
    if ylim is not None:
      axis.set_ylim(*ylim)
  axes[0, 0].set_ylabel(ylabel)
  axes[0, -1].legend(list(handles.values()), list(handles), fontsize=8,
                     loc="upper left", bbox_to_anchor=(1.02, 1.0))
  figure.suptitle(title, fontsize=10)
  return save_figure(figure, path)
