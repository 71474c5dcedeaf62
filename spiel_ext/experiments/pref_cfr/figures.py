"""Figures and tables of the Pref-CFR paper's experiments (Ju, Tellier, Sun,
Fang, Luo, "Preference-CFR: Beyond Nash Equilibrium for Better Game
Strategies", 2025, arXiv:2411.01217), and the artefacts the claims cite.

``pref_cfr_kuhn_alpha`` (Fig. 3): NashConv and alpha vs iterations, a
histogram of the final alpha per variant and ``tables/final_alpha``.
``pref_cfr_kuhn_settings`` (Fig. 4): NashConv and alpha vs iterations and
``tables/final_values`` per schedule.

``pref_cfr_styles`` (section 5.2, Tables 2-3, Figures 5-6), in
``<output_dir>/pref_cfr_styles/``:

- ``tables/first_decision``: each style's action distribution at player
  1's first decisions (the reach-weighted average over those infosets:
  fold / call / raise / all-in %), the paper's Figure 5-6 summary rows;
  ``figures/hands_<game>``: the strategy per private hand, one panel per
  style (the small-game analogue of the paper's hand matrices).
- ``tables/head_to_head_<game>_seat0`` and ``..._averaged`` (two players):
  the row style's winnings in mb/h against the column style with the row
  style in seat 0, and averaged over both seat orders;
  ``tables/head_to_head_<game>_seats`` (three players): each style in each
  seat against two Normal players, and the seat average. Exact expected
  values, no sampling; mb/h = 1000 x chips per hand / big blind (Leduc:
  the ante, 1 chip; universal_poker: its largest blind).
- ``tables/style_costs``: each style's seat-averaged result against Normal
  and its NashConv, in mb/h; ``figures/nash_conv``: NashConv vs
  iterations.

The first variant's files have plain names, the others' a suffix naming
the variant. The ``summarize_*`` functions take the experiment's variants
and the run's settings.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Callable, Sequence

import numpy as np
import pandas as pd

from spiel_ext.analysis.claims import Artefact, RunResults, figure, table
from spiel_ext.experiments.declaration import Settings
from spiel_ext.experiments.pref_cfr.measures_kuhn import (PAPER_ALPHA,
                                                          alpha_statistics,
                                                          final_alphas,
                                                          final_values)
from spiel_ext.experiments.pref_cfr.shared import (variant_frame,
                                                   variants_run)
from spiel_ext.experiments.pref_cfr.style_readouts import (
    Analysed, GameResults, costs_table, distribution_table, matrix_frame,
    move_group, ordered, rounded)
from spiel_ext.results.figures import (histogram_figure, line_figure,
                                       stacked_bars_figure)
from spiel_ext.results.report import Variant
from spiel_ext.results.tables import write_table

Written = tuple[list[Path], list[Path]]


# ------------------------------------------------- pref_cfr_kuhn_alpha
FINAL_ALPHA = table("final_alpha")


def kuhn_line_name(algorithm: str) -> str:
  """How the Kuhn figures and tables name an algorithm: the ones without
  "simultaneous" in their name run alternating updates (our ablation), and
  say so ("CFR (alternating)"), so no ablation line reads as the paper's
  CFR."""
  if "simultaneous" in algorithm:
    return algorithm
  return f"{algorithm} (alternating)"


def _kuhn_lines(frame: pd.DataFrame) -> pd.DataFrame:
  """``frame`` with its algorithms named by :func:`kuhn_line_name`."""
  return frame.assign(algorithm=frame.algorithm.map(kuhn_line_name))


def summarize_alpha(frame: pd.DataFrame, settings: Settings, folder: Path,
                    *, variants: Sequence[Variant]) -> Written:
  """Fig. 3: NashConv and alpha of each variant run, the distribution of
  the final alpha, and :data:`FINAL_ALPHA`."""
  variants = variants_run(variants, settings)
  order = [kuhn_line_name(v.algorithms[0]) for v in variants]
  lines = _kuhn_lines(frame)
  figures = line_figure(lines, "nash_conv",
                        figure("nash_conv").stem(folder),
                        line_order=order, title="CFR on Kuhn from random "
                        "starts: NashConv (Pref-CFR paper, Fig. 3 left)")
  figures += line_figure(
      lines, "kuhn_alpha", figure("alpha").stem(folder), log_y=False,
      line_order=order, title="CFR on Kuhn: alpha = P(Bet | Jack, first "
      "decision) (Fig. 3 right)",
      reference={f"alpha = {PAPER_ALPHA} (the paper's claim)": PAPER_ALPHA})
  for variant in variants:
    alphas = final_alphas(variant_frame(frame, variant))
    suffix = "" if variant.is_paper_setting else f"_{variant.slug}"
    figures += histogram_figure(
        alphas, figure(f"final_alpha_histogram{suffix}").stem(folder),
        xlabel="final alpha", value_range=(0.0, 1 / 3), bins=20,
        title=f"Final alpha of {len(alphas)} CFR runs after "
        f"{int(frame.iteration.max())} iterations ({variant.label})",
        reference={f"{PAPER_ALPHA} (the paper's claim)": PAPER_ALPHA,
                   "equilibrium range [0, 1/3]": 1 / 3})
  tables = write_table(alpha_statistics(frame, variants),
                       FINAL_ALPHA.stem(folder),
                       caption="Final alpha over CFR runs from random "
                       "starts, per setting")
  return figures, tables


# ---------------------------------------------- pref_cfr_kuhn_settings
def _schedule_suffix(variant: Variant) -> str:
  return "" if variant.is_paper_setting else "_alternating"


def kuhn_nash_conv_figure(variant: Variant) -> Artefact:
  """The figure of ``variant``'s NashConv on Kuhn (Fig. 4 left)."""
  return figure(f"nash_conv{_schedule_suffix(variant)}")


def final_values_table(variant: Variant) -> Artefact:
  """The table of ``variant``'s final NashConv and alpha."""
  return table(f"final_values{_schedule_suffix(variant)}")


def summarize_settings(frame: pd.DataFrame, settings: Settings,
                       folder: Path, *,
                       variants: Sequence[Variant]) -> Written:
  """Fig. 4 per schedule: NashConv and alpha vs iterations and
  :func:`final_values_table`."""
  figures, tables = [], []
  for variant in variants_run(variants, settings):
    part = _kuhn_lines(variant_frame(frame, variant))
    suffix = _schedule_suffix(variant)
    schedule = f"{variant.label}: {variant.description}"
    order = [kuhn_line_name(a) for a in variant.algorithms]
    figures += line_figure(part, "nash_conv",
                           kuhn_nash_conv_figure(variant).stem(folder),
                           line_order=order,
                           title="Pref-CFR settings on Kuhn: NashConv "
                           f"(Pref-CFR paper, Fig. 4; {schedule})")
    figures += line_figure(part, "kuhn_alpha",
                           figure(f"alpha{suffix}").stem(folder),
                           line_order=order, log_y=False,
                           title=f"Pref-CFR settings on Kuhn: alpha (Fig. 4; "
                           f"{schedule})")
    values = final_values(frame, variant).reindex(list(variant.algorithms))
    values = values.rename(index=kuhn_line_name)
    tables += write_table(values.reset_index(),
                          final_values_table(variant).stem(folder),
                          caption="Final NashConv and alpha, mean over runs "
                          f"({variant.label})")
  return figures, tables


# ---------------------------------------------------- pref_cfr_styles
STYLE_NASH_CONV = figure("nash_conv")
_COLORS = {"fold": "#3b6fb6", "call": "#3a9b48", "raise": "#d9473a",
           "all-in": "#5a0a0a"}


def variant_suffix(variant: Variant | None,
                   variants: Sequence[Variant]) -> str:
  """"" for the first of ``variants`` and for None (a run of none of
  them), "_<slug>" for the others."""
  if variant is None or variant == variants[0]:
    return ""
  return f"_{variant.slug}"


def first_decision_table(variant: Variant | None,
                         variants: Sequence[Variant]) -> Artefact:
  """The first-decision distributions of ``variant``'s styles."""
  return table(f"first_decision{variant_suffix(variant, variants)}")


def style_costs_table(variant: Variant | None,
                      variants: Sequence[Variant]) -> Artefact:
  """``variant``'s styles against Normal, NashConv and speed."""
  return table(f"style_costs{variant_suffix(variant, variants)}")


def _segment(move: str) -> tuple[str, str]:
  """(legend label, colour) of a move's bars: its group's."""
  group = move_group(move)
  return ("raise (pot)" if move == "Bet" else group), _COLORS[group]


def hands_figure(result: GameResults, path: Path) -> list[Path]:
  """Stacked bars of the strategy per private hand, one panel per style
  (the paper's Figures 5-6 at the size of our games)."""
  panels = {}
  for name, hands in result.hands.items():
    mix = result.distribution[name]
    panels[f"{name}\n" + ", ".join(
        f"{group} {100 * mix[group]:.0f}%" for group in result.offered)] = (
            hands.drop(columns="weight"))
  return stacked_bars_figure(
      panels, path, xlabel="private hand (strongest first)",
      ylabel="probability at the first decision",
      segments={move: _segment(move) for hands in panels.values()
                for move in hands.columns},
      title=textwrap.fill(
          f"{result.name}: player 1's first decision per private hand "
          "(Pref-CFR paper, Figs. 5-6)", 110))


def _game_tables(result: GameResults, folder: Path, suffix: str,
                 label: str) -> list[Path]:
  """The head-to-head tables of one game."""
  tables = []
  if result.seat0 is not None:
    tables += write_table(
        matrix_frame(result.seat0, "(seat 0)", "(seat 1)"),
        table(f"head_to_head_{result.slug}_seat0{suffix}").stem(folder),
        float_format=".2f", caption=f"{result.name}: the row style's "
        "winnings in mb/h, row in seat 0 (player 1), column in seat 1"
        f"{label}")
    tables += write_table(
        matrix_frame(result.averaged),
        table(f"head_to_head_{result.slug}_averaged{suffix}").stem(folder),
        float_format=".2f", caption=f"{result.name}: the row style's "
        "winnings in mb/h against the column style, averaged over both "
        f"seat orders (Table 2{label})")
  elif result.seats is not None:
    tables += write_table(
        rounded(result.seats).reset_index(names="style"),
        table(f"head_to_head_{result.slug}_seats{suffix}").stem(folder),
        float_format=".2f", caption=f"{result.name}: each style's "
        f"winnings in mb/h in each seat, every other seat Normal (Table "
        f"3{label})")
  return tables


def summarize_styles(frame: pd.DataFrame, settings: Settings,
                     folder: Path, *, variants: Sequence[Variant],
                     analysed: Analysed,
                     names: Callable[[Sequence[str]],
                                     dict[str, tuple[str, str]]]) -> Written:
  """Figures and tables of the run (see the module docstring).

  Args:
    frame: the run's results.
    settings: the settings it ran with.
    folder: the run folder.
    variants: the experiment's variants, in order.
    analysed: the run's results -> {variant: [GameResults]} (see
      :func:`.style_readouts.analyse`).
    names: games -> {game: (display name, file name)}.

  Returns:
    (figures, tables) written.
  """
  analysed_variants = analysed(RunResults(frame, settings, Path(folder)))
  game_names = names(settings.games)
  rank = {game: number for number, game in enumerate(settings.games)}
  named = frame.assign(game_name=frame.game.map(lambda g: game_names[g][0]))
  named = named.iloc[np.argsort(named.game.map(rank).to_numpy(),
                                kind="stable")]
  figures = line_figure(named, "nash_conv", STYLE_NASH_CONV.stem(folder),
                        panel="game_name",
                        line_order=ordered(settings.algorithms),
                        title="NashConv of each style (Pref-CFR paper, "
                        "section 5.2)")
  tables = []
  for variant, results in analysed_variants.items():
    suffix = variant_suffix(variant, variants)
    label = "" if variant is None else f"; {variant.label}"
    tables += write_table(
        distribution_table(results),
        first_decision_table(variant, variants).stem(folder),
        caption="Action distribution at player 1's first decisions, "
        f"reach-weighted (%; Pref-CFR paper, Figs. 5-6{label})")
    for result in results:
      figures += hands_figure(
          result, figure(f"hands_{result.slug}{suffix}").stem(folder))
      tables += _game_tables(result, folder, suffix, label)
    tables += write_table(
        costs_table(results, frame, variant),
        style_costs_table(variant, variants).stem(folder),
        float_format=".2f",
        caption="Each style against Normal players (seat average) and its "
        f"NashConv, in mb/h{label}")
  return figures, tables
