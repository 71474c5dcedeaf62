"""The BUFP experiments' figures and tables (Qi Ju, Zhemei Fang, Yunfeng
Luo, "Beyond Nash Equilibrium: Achieving Bayesian Perfect Equilibrium with
Belief Update Fictitious Play", 2024): Figures 1-2 (NashConv and the
perfect-Bayesian gap against iterations) with the final values, and
Tables 1-2 (5-rank Leduc head-to-head) with section 5.2's percentages.

The artefacts are named once here: the summaries write them, the claims
cite them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import pandas as pd

from spiel_ext.analysis.claims import Artefact, figure, table
from spiel_ext.analysis.poker_units import big_blind, chips_from_mbh
from spiel_ext.experiments.bufp import head_to_head as tables_analysis
from spiel_ext.experiments.bufp.measures_convergence import final_values
from spiel_ext.experiments.bufp.paper_values import (PAPER_EXPLOITABILITY_MBH,
                                                     PAPER_PERCENTAGES_TEXT,
                                                     RLCARD_LEDUC_5, ROLES)
from spiel_ext.experiments.declaration import Settings
from spiel_ext.results.figures import line_figure
from spiel_ext.results.labels import game_label
from spiel_ext.results.report import Variant
from spiel_ext.results.tables import write_table

FIG1 = figure("fig1_nash_conv")
FIG2 = figure("fig2_sequential_gap")
FINAL_VALUES = table("final_values")
EXPLOITABILITY = figure("exploitability")


def summarize_convergence(frame: pd.DataFrame, settings: Settings,
                          folder: Path, *,
                          order: Sequence[str], dashed: Sequence[str],
                          dashed_prefix: str
                          ) -> tuple[list[Path], list[Path]]:
  """Figs. 1-2 (lines in ``order``, then any others run; those in
  ``dashed`` or starting with ``dashed_prefix`` drawn dashed, as references
  other lines may cover) and the final values."""
  lines = [a for a in order if a in settings.algorithms]
  lines += [a for a in settings.algorithms if a not in lines]
  dashes = [a for a in lines if a.startswith(dashed_prefix) or a in dashed]
  figures = line_figure(
      frame, "nash_conv", FIG1.stem(folder), line_order=lines,
      dashed=dashes, title="NashConv vs iterations (BUFP paper, Fig. 1; mean "
      "and 90% band over runs)")
  figures += line_figure(
      frame, "sequential_gap_mean", FIG2.stem(folder), line_order=lines,
      dashed=dashes, title="Perfect-Bayesian gap vs iterations (BUFP paper, "
      "Fig. 2; mean over infosets)")
  values = final_values(frame, settings.metrics)
  values["game"] = values["game"].map(game_label)
  tables = write_table(values, FINAL_VALUES.stem(folder),
                       caption="Final NashConv and perfect-Bayesian gap "
                       "(mean and 5-95% range over runs)")
  return figures, tables


def table_artefacts(position: int, game_index: int, snapshot: str
                    ) -> tuple[Artefact, Artefact, Artefact]:
  """Table 1, Table 2 and the percentages of the ``position``-th table
  variant run, on the ``game_index``-th game, at ``snapshot``: the first
  variant on the first game keeps the plain names (table1_final, ...)."""
  parts = [snapshot]
  if game_index:
    parts.append("later_rules")
  if position:
    parts.append(f"variant{position}")
  suffix = "_".join(parts)
  return (table(f"table1_{suffix}"), table(f"table2_{suffix}"),
          table(f"recovered_{suffix}"))


def summarize_tables(frame: pd.DataFrame, settings: Settings, folder: Path,
                     *, order: Sequence[str], variants: Sequence[Variant]
                     ) -> tuple[list[Path], list[Path]]:
  """The exploitability figure (lines in ``order``, the paper's values as
  references) and, for every variant run, rule set and snapshot, Tables
  1-2 and the percentages (strategies read from the run's snapshots)."""
  blind = big_blind(RLCARD_LEDUC_5)
  figures = line_figure(
      frame, "exploitability", EXPLOITABILITY.stem(folder),
      line_order=[a for a in order if a in settings.algorithms],
      title="Exploitability (NashConv / 2) on 5-rank Leduc",
      reference={f"paper, {name} after 100,000 it. ({value} mb/h)":
                 chips_from_mbh(value, blind)
                 for name, value in PAPER_EXPLOITABILITY_MBH.items()})
  tables = []
  for position, variant in enumerate(
      tables_analysis.variants_run(settings, variants)):
    for game_index, game in enumerate(settings.games):
      for snapshot, label in tables_analysis.snapshot_labels(settings):
        cells = tables_analysis.table_cells(settings, folder, snapshot, game,
                                            variant)
        if cells is None:
          continue
        table1, table2 = cells
        first, second, recovered = table_artefacts(position, game_index,
                                                   snapshot)
        where = (f"{label}, {tables_analysis.rules_name(game)}, "
                 f"{variant.label}")
        tables += write_table(
            tables_analysis.head_to_head_frame(table1, ROLES),
            first.stem(folder),
            caption=f"Table 1 ({where}): player 1's winnings in mb/h, mean "
            "± sd over seed pairs")
        tables += write_table(
            tables_analysis.head_to_head_frame(table2, ROLES),
            second.stem(folder),
            caption=f"Table 2 ({where}): player 1 forced to Call at its "
            "first decision, winnings in mb/h")
        means = tables_analysis.deviation_percentages(table1, table2)
        pairs = tables_analysis.pair_percentages(table1, table2)
        tables += write_table(
            pd.DataFrame([{"quantity": k, "ours": v,
                           "over seed pairs": tables_analysis.spread(pairs[k])}
                          for k, v in means.items()]),
            recovered.stem(folder), float_format=".2f",
            caption=f"Section 5.2 percentages ({where}); the paper: "
            f"{PAPER_PERCENTAGES_TEXT}")
  return figures, tables
