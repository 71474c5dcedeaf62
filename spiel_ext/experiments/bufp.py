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

from spiel_ext.experiments.spec import (Experiment, Scale, Settings,
                                        command_for)
from spiel_ext.results.figures import line_figure
from spiel_ext.results.labels import game_label
from spiel_ext.results.report import Claim, verdict_from
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


_PAPER = "BUFP (Ju, Fang, Luo 2024)"


def _final_means(frame: pd.DataFrame) -> pd.DataFrame:
  """[game, algorithm] x metric: mean over seeds at the last iteration,
  plus the relative 5-95% spread over seeds."""
  keys = ["game", "algorithm", "metric"]
  last = frame[frame.iteration == frame.groupby(keys)["iteration"]
               .transform("max")]
  return last.groupby(keys)["value"].agg(
      mean="mean",
      spread=lambda v: (v.quantile(0.95) - v.quantile(0.05)) / v.mean())


def convergence_claims(frame: pd.DataFrame,
                       settings: Settings) -> list[Claim]:
  """Section 5.1 of the paper, game by game."""
  final = _final_means(frame)
  games = list(dict.fromkeys(frame.game))
  command = command_for(settings)

  def value(game, algorithm, metric, field="mean"):
    return final.loc[(game, algorithm, metric), field]

  fastest, lowest_gap, variable = [], [], []
  fastest_text, gap_text, variable_text = [], [], []
  for game in games:
    label = game_label(game)
    x, ef, cfr = (value(game, a, "nash_conv")
                  for a in ("BUFP(X)", "BUFP(EF)", "CFR"))
    fastest.append(x < ef and x < cfr)
    fastest_text.append(f"{label}: BUFP(X) {x:.3g}, BUFP(EF) {ef:.3g}, "
                        f"CFR {cfr:.3g}")
    gaps = {a: value(game, a, "sequential_gap_mean")
            for a in ("BUFP(EF)", "BUFP(X)", "CFR")}
    lowest_gap.append(gaps["BUFP(EF)"] < min(gaps["BUFP(X)"], gaps["CFR"]))
    gap_text.append(f"{label}: " + ", ".join(f"{a} {g:.3g}"
                                             for a, g in gaps.items()))
    ef_spread = value(game, "BUFP(EF)", "nash_conv", "spread")
    x_spread = value(game, "BUFP(X)", "nash_conv", "spread")
    variable.append(ef_spread > x_spread)
    variable_text.append(f"{label}: BUFP(EF) {ef_spread:.2f}, BUFP(X) "
                         f"{x_spread:.2f}")
  at = f"at iteration {int(frame.iteration.max())}, {settings.seeds} starts"
  return [
      Claim(_PAPER, "BUFP(X) converges faster in NashConv than CFR and "
            "BUFP(EF) (Fig. 1)", "qualitative (Fig. 1)",
            f"final NashConv {at}: " + "; ".join(fastest_text),
            verdict_from(fastest), "bufp_convergence/figures/fig1_nash_conv.png",
            command),
      Claim(_PAPER, "BUFP(EF) reaches the lowest perfect-Bayesian gap "
            "(total exploitability, Fig. 2)", "qualitative (Fig. 2)",
            f"mean gap over infosets {at}: " + "; ".join(gap_text),
            verdict_from(lowest_gap),
            "bufp_convergence/figures/fig2_sequential_gap.png", command),
      Claim(_PAPER, "BUFP(EF)'s NashConv varies considerably (Fig. 1)",
            "qualitative (Fig. 1)",
            "relative 5-95% spread of final NashConv over starts: " +
            "; ".join(variable_text), verdict_from(variable),
            "bufp_convergence/tables/final_values.md", command),
  ]


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
    cost="quick: about a minute; paper: about an hour with --workers=2",
    claims=convergence_claims)
