"""The BUFP paper's experiments.

Qi Ju, Zhemei Fang, Yunfeng Luo, "Beyond Nash Equilibrium: Achieving
Bayesian Perfect Equilibrium with Belief Update Fictitious Play", DDCLS
2024, arXiv:2409.02706.

- ``bufp_convergence``: Figure 1 (NashConv vs iterations) and Figure 2 (the
  perfect-Bayesian gap, the paper's "total exploitability", vs iterations)
  for CFR, BUFP(EF), BUFP(X) and XFP on Kuhn, Leduc and 5-rank Leduc, from
  random initial strategies (mean and 90% band over the starts).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from spiel_ext.experiments.spec import Experiment, Scale, Settings
from spiel_ext.results.figures import line_figure
from spiel_ext.results.labels import game_label
from spiel_ext.results.tables import write_table

_ALGORITHMS = ("CFR", "BUFP(EF)", "BUFP(X)", "XFP")
_GAMES = ("kuhn_poker", "leduc_poker", "spiel_ext_leduc(ranks=5)")


def final_values(frame: pd.DataFrame, metrics) -> pd.DataFrame:
  """One row per game and algorithm: the iteration reached and, for each
  metric, "mean [5th, 95th percentile]" over seeds at the last iteration."""
  keys = ["game", "algorithm", "metric"]
  last = frame[frame.iteration == frame.groupby(keys)["iteration"]
               .transform("max")]
  last = last[last.metric.isin(metrics)]
  stats = last.groupby(keys, sort=False).agg(
      iteration=("iteration", "max"), mean=("value", "mean"),
      low=("value", lambda v: v.quantile(0.05)),
      high=("value", lambda v: v.quantile(0.95))).reset_index()
  stats["cell"] = [f"{row.mean:.4g} [{row.low:.3g}, {row.high:.3g}]"
                   for row in stats.itertuples()]
  table = stats.pivot_table(index=["game", "algorithm", "iteration"],
                            columns="metric", values="cell",
                            aggfunc="first", sort=False).reset_index()
  table.columns.name = None
  table["game"] = table["game"].map(game_label)
  return table[["game", "algorithm", "iteration"] +
               [m for m in metrics if m in table.columns]]


def summarize_convergence(frame: pd.DataFrame, settings: Settings,
                          folder: Path) -> tuple[list[Path], list[Path]]:
  order = [a for a in _ALGORITHMS if a in settings.algorithms]
  figures = line_figure(
      frame, "nash_conv", folder / "figures" / "fig1_nash_conv",
      line_order=order, dashed=["XFP"],
      title="NashConv vs iterations (BUFP paper, Fig. 1; mean and 90% band "
      "over random starts)")
  figures += line_figure(
      frame, "sequential_gap_mean", folder / "figures" / "fig2_sequential_gap",
      line_order=order, dashed=["XFP"],
      title="Perfect-Bayesian gap vs iterations (BUFP paper, Fig. 2; mean "
      "over infosets)")
  tables = write_table(final_values(frame, settings.metrics),
                       folder / "tables" / "final_values",
                       caption="Final NashConv and perfect-Bayesian gap "
                       "(mean and 5-95% range over random starts)")
  return figures, tables


BUFP_CONVERGENCE = Experiment(
    name="bufp_convergence",
    description="BUFP Figs. 1-2: NashConv and perfect-Bayesian gap vs "
                "iterations, CFR / BUFP(EF) / BUFP(X) / XFP on Kuhn, Leduc, "
                "5-Leduc",
    quick=Scale(iterations=500, seeds=3, games=_GAMES, algorithms=_ALGORITHMS),
    paper=Scale(iterations=10_000, seeds=30, games=_GAMES,
                algorithms=_ALGORITHMS),
    metrics=("nash_conv", "sequential_gap_mean", "sequential_gap_max"),
    summarize=summarize_convergence,
    cost="quick: about a minute; paper: about an hour with --workers=2")
