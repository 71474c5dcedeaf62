"""The GXFP paper's figures and tables on von Neumann-Morgenstern poker.

Tim P. Schulze, "A Generalized Extensive-Form Fictitious Play Algorithm",
2023, arXiv:2310.09658: Fig. 1 (asymmetric game, strategies and action
values vs hand), Figs. 2-3 (raise variant, strategies vs hand), Figs. 4-5
(value and NashConv vs iterations), each on both update schedules. The
numbers come from :mod:`.measures_asymmetric`, :mod:`.measures_raise` and
:mod:`.measures_convergence`. :func:`summarize_hands` draws Figs. 1-3
(:data:`ASYMMETRIC`, :data:`RAISE`: what each draws and tabulates),
:func:`summarize_convergence` Figs. 4-5; both take the run's results,
settings and folder, and the labels.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Callable, Sequence

import numpy as np
import pandas as pd

from spiel_ext.analysis.claims import Artefact
from spiel_ext.eval import vnm
from spiel_ext.experiments.declaration import Settings
from spiel_ext.experiments.gxfp import measures_asymmetric as asymmetric
from spiel_ext.experiments.gxfp import measures_convergence as convergence
from spiel_ext.experiments.gxfp import measures_raise as raise_variant
from spiel_ext.experiments.gxfp.shared import (ALTERNATING, MIXED,
                                               SIMULTANEOUS, GXFPLabels,
                                               final_snapshots, hands_of,
                                               sequences)
from spiel_ext.files import atomic_write
from spiel_ext.games import vnm_solution as continuum
from spiel_ext.results.figures import (CurvePanel, curves_figure, line_figure,
                                       stacked_figure)
from spiel_ext.results.tables import write_table

Outputs = tuple[list[Path], list[Path]]
_VALUE = float(continuum.RAISE_VALUE)


def _nash_conv_figure(frame: pd.DataFrame, folder: Path, order,
                      labels: GXFPLabels) -> list[Path]:
  return line_figure(frame, "nash_conv", folder / "figures" / "nash_conv",
                     line_order=[a for a in order
                                 if a in set(frame.algorithm)],
                     dashed=[a for a in order
                             if labels.schedule_of(a) == ALTERNATING],
                     title="NashConv of the average strategy "
                     "(dashed: alternating updates)")


# ----------------------------------------------------------- Figure 1
def _asymmetric_figure(game: str, snapshots: dict[str, list[np.ndarray]],
                       schedule: str, labels: GXFPLabels,
                       folder: Path) -> list[Path]:
  hands = hands_of(game)
  strengths = continuum.hand_strengths(hands)
  lines = continuum.asymmetric_thresholds(continuum.asymmetric_solution())
  styles = {"GXFP": {"color": "tab:purple"},
            labels.gxfp_eps: {"color": "tab:green", "linestyle": "--"}}
  top = [CurvePanel("Player 1: P(bet)", "hand strength", "probability", {}),
         CurvePanel("Player 2: P(call | bet)", "hand strength",
                    "probability", {})]
  bottom = [CurvePanel("Player 1: value(bet) - value(check)",
                       "hand strength", "value difference", {}),
            CurvePanel("Player 2: value(call) - value(fold)",
                       "hand strength", "value difference", {})]
  for role, algorithm in labels.role_labels(
      schedule, asymmetric.roles(labels)).items():
    if algorithm not in snapshots:
      continue
    strategy = snapshots[algorithm][0]
    probabilities = sequences(game, strategy)
    differences = vnm.action_value_differences(game, strategy)
    style = styles[role]
    top[0].curves[role] = (strengths, probabilities["P1"]["bet"], style)
    top[1].curves[role] = (strengths, probabilities["P2"]["call"], style)
    bottom[0].curves[role] = (strengths, differences["P1"], style)
    bottom[1].curves[role] = (strengths, differences["P2"], style)
  if not top[0].curves:
    return []
  for panels in (top, bottom):
    panels[0].vlines = [(x, "continuous thresholds" if i == 0 else "", {})
                        for i, x in enumerate(lines["P1"])]
    panels[1].vlines = [(lines["P2"][0], "continuous threshold", {})]
  return curves_figure(
      [top, bottom],
      folder / "figures" / f"fig1_strategies_N{hands}_{schedule}",
      title=f"Asymmetric vN&M poker, N = {hands}, {schedule} updates: GXFP "
      f"unperturbed and perturbed (eps = {labels.epsilon:g}), first seed "
      "(Schulze, Fig. 1)")


# -------------------------------------------------------- Figures 2-3
_SEQUENCE_COLORS = {
    "check-fold": "tab:purple", "check-call": "tab:green",
    "check-raise": "tab:cyan", "bet-fold": "goldenrod",
    "bet-call": "tab:blue", "check": "tab:green", "fold": "goldenrod",
    "call": "tab:red", "raise": "tab:blue"}
_PANEL_TITLES = {"P1": "Player 1's sequences given the first action "
                       "(check-*: add to one; bet-*: add to one)",
                 "P2 after check": "Player 2 after a check",
                 "P2 facing bet": "Player 2 facing a bet"}


def _raise_vlines(panel: str) -> list[tuple[float, str, dict]]:
  """The panel's thresholds; player 1's movable ones dotted."""
  free = ({float(x) for x in continuum.RAISE_FREE_THRESHOLDS}
          if panel == "P1" else set())
  lines = []
  for number, x in enumerate(continuum.raise_thresholds(panel)):
    movable = any(abs(x - f) < 1e-12 for f in free)
    label = ("continuous thresholds" + (" (dotted: movable)" if free else "")
             if number == 0 else "")
    lines.append((x, label,
                  {"color": "gray", "linewidth": 0.8,
                   "linestyle": ":" if movable else "-"}))
  return lines


def _raise_panels(game: str, runs: dict[str, tuple[np.ndarray, dict]]
                  ) -> list[list[CurvePanel]]:
  """``runs``: {name in the legend: (strategy, style)}. Colour = sequence,
  line style = run (first run labelled by sequence, the styles explained
  by legend-only entries). Player 1's panel is conditional on the first
  action, as the paper draws it."""
  strengths = continuum.hand_strengths(hands_of(game))
  rows = []
  for panel in continuum.RAISE_SEQUENCES:
    curves = {}
    for number, (name, (strategy, style)) in enumerate(runs.items()):
      probabilities = sequences(game, strategy, conditional=True)[panel]
      for sequence, values in probabilities.items():
        label = sequence if number == 0 else f"_{sequence}, {name}"
        curves[label] = (strengths, values, {
            "color": _SEQUENCE_COLORS[sequence], **style})
    if len(runs) > 1:
      for name, (_, style) in runs.items():
        curves[name] = ([], [], {"color": "black", **style})
    rows.append([CurvePanel(_PANEL_TITLES[panel], "hand strength",
                            "probability", curves, _raise_vlines(panel))])
  return rows


def _raise_figures(game: str, snapshots: dict[str, list[np.ndarray]],
                   schedule: str, labels: GXFPLabels,
                   folder: Path) -> list[Path]:
  """Figs. 2 and 3 of one game and schedule (those whose runs it holds)."""
  hands = hands_of(game)
  roles = labels.role_labels(schedule, raise_variant.roles(labels))
  figures = []
  if roles["GXFP"] in snapshots:
    figures += curves_figure(
        _raise_panels(game, {"GXFP": (snapshots[roles["GXFP"]][0], {})}),
        folder / "figures" / f"fig2_gxfp_N{hands}_{schedule}",
        legend_outside=True,
        title=f"Raise variant, N = {hands}, {schedule} updates: "
        "unperturbed GXFP, first seed\n(Schulze, Fig. 2)")
  runs = {role: (snapshots[roles[role]][0], style)
          for role, style in (
              (labels.xfp_eps, {}), (labels.gxfp_eps, {"linestyle": "--"}),
              ("GXFP", {"alpha": 0.35, "linewidth": 0.8}))
          if roles[role] in snapshots}
  if runs:
    figures += curves_figure(
        _raise_panels(game, runs),
        folder / "figures" / f"fig3_perturbed_N{hands}_{schedule}",
        legend_outside=True,
        title=f"Raise variant, N = {hands}, {schedule} updates: "
        f"perturbed XFP and GXFP (eps = {labels.epsilon:g}),\nunperturbed "
        "GXFP faint; first seed (Schulze, Fig. 3)")
  return figures


# ------------------------------------------- Figures 1-3 and their tables
@dataclasses.dataclass(frozen=True)
class HandFigures:
  """A figure of strategies against hand strength, drawn per game and
  schedule, with its table.

  Attributes:
    draw: (game, its final strategies by algorithm, schedule, labels, run
      folder) -> the figures written.
    roles: the labels -> the roles the figure draws.
    table: (settings, run folder, labels) -> the table's rows.
    evidence: the table's artefact.
    caption: the table's caption.
  """
  draw: Callable[[str, dict[str, list[np.ndarray]], str, GXFPLabels, Path],
                 list[Path]]
  roles: Callable[[GXFPLabels], Sequence[str]]
  table: Callable[[Settings, Path, GXFPLabels], pd.DataFrame]
  evidence: Artefact
  caption: str


ASYMMETRIC = HandFigures(
    _asymmetric_figure, asymmetric.roles, asymmetric.threshold_table,
    asymmetric.THRESHOLDS,
    caption="Measured thresholds vs the continuous solution (a = 1/9, "
    "b = 7/9, c = 5/9), mean over seeds; P2 hands mixing: share of player "
    "2's hands at least 2/N from c whose call probability is in "
    f"({MIXED[0]:g}, {MIXED[1]:g}); the bottom row on the hands between a "
    "and b (2/N or more from both), the strategies as played: player 1's "
    "mean bet - check value, and player 2's largest |call - fold| as a "
    "share of its curve's range")
RAISE = HandFigures(
    _raise_figures, raise_variant.roles, raise_variant.raise_table,
    raise_variant.THRESHOLDS,
    caption="Fit to the continuous solution, mean over seeds: per panel "
    "the largest sequence-mass error and (player 2) the share of hands "
    "2/N or more from a threshold played as the continuum; hands mixing: "
    f"share of (hand, panel) with no sequence >= {MIXED[1]:g} (player 1's "
    "sequences as shares of the hand's play)")


def summarize_hands(frame: pd.DataFrame, settings: Settings, folder: Path,
                    *, labels: GXFPLabels, figures: HandFigures) -> Outputs:
  """A figure against hand strength per game and schedule (Fig. 1,
  :data:`ASYMMETRIC`; Figs. 2-3, :data:`RAISE`), NashConv vs iterations,
  the figure's table.

  Args:
    frame: the run's results.
    settings: the settings it ran with.
    folder: the run folder.
    labels: the algorithm labels by schedule and role.
    figures: what to draw and tabulate.

  Returns:
    (figures, tables) written.
  """
  written = []
  for game in settings.games:
    snapshots = final_snapshots(settings, folder, game)
    for schedule in labels.schedules:
      written += figures.draw(game, snapshots, schedule, labels, folder)
  written += _nash_conv_figure(frame, folder,
                               labels.ordered(figures.roles(labels)), labels)
  tables = write_table(figures.table(settings, folder, labels),
                       figures.evidence.path(folder), caption=figures.caption)
  return written, tables


# -------------------------------------------------------- Figures 4-5
def _schedule_figures(frame: pd.DataFrame, folder: Path, hands: int,
                      labels: GXFPLabels) -> list[Path]:
  """Figs. 4 and 5 on each schedule: value and NashConv vs iterations."""
  figures = []
  present = set(frame.algorithm)
  for schedule in labels.schedules:
    for name, roles, metrics, label in (
        ("fig4_cfr_xfp_gxfp", convergence.MAIN_ROLES,
         ("value_player_0", "nash_conv"), "Fig. 4"),
        ("fig5_perturbed", convergence.perturbed_roles(labels),
         ("value_player_0", labels.perturbed_metric),
         f"Fig. 5, eps = {labels.epsilon:g}")):
      drawn = [algorithm for algorithm in labels.role_labels(
          schedule, roles).values() if algorithm in present]
      if not drawn:
        continue
      figures += stacked_figure(
          frame[frame.algorithm.isin(drawn)], metrics,
          folder / "figures" / f"{name}_{schedule}",
          title=f"Raise variant, N = {hands}, {schedule} updates: value to "
          f"player 1 and NashConv from random starts (Schulze, {label})",
          line_order=drawn, log_y=(False, True),
          references={"value_player_0": {
              "continuous game value -88/1083": _VALUE}})
  return figures


def _comparison_figures(frame: pd.DataFrame, folder: Path, hands: int,
                        labels: GXFPLabels) -> list[Path]:
  """NashConv vs iterations: the schedules, CFR's starts, the counting."""
  present = set(frame.algorithm)
  starts = [algorithm for schedule in labels.schedules for algorithm in (
      labels.roles[schedule]["CFR"], labels.heavy_cfr[schedule],
      labels.uniform_cfr[schedule])]
  figures = []
  for name, algorithms, title in (
      ("updates", convergence.main_labels(labels), "simultaneous (solid) vs "
       "alternating (dashed) updates"),
      ("cfr_start", starts, "CFR's start: light random, heavy random "
       "U(0, 1), uniform; simultaneous (solid) vs alternating (dashed)"),
      ("counting", (labels.roles[SIMULTANEOUS]["GXFP"], labels.integer_gxfp),
       "GXFP: float averaging vs integer counting")):
    drawn = [a for a in algorithms if a in present]
    if not drawn:
      continue
    figures += line_figure(
        frame[frame.algorithm.isin(drawn)], "nash_conv",
        folder / "figures" / name, line_order=drawn,
        dashed=[a for a in drawn if labels.schedule_of(a) == ALTERNATING or
                a == labels.integer_gxfp],
        title=f"Raise variant, N = {hands}: {title}")
  return figures


def _cost_table(timing: dict[str, float], folder: Path, hands: int,
                labels: GXFPLabels) -> list[Path]:
  """The cost per iteration timed alone, and its numbers beside the table
  for the claims."""
  atomic_write(convergence.timing_path(folder), json.dumps(timing, indent=1))
  rounds = convergence.TIMING_ROUNDS
  return write_table(
      pd.DataFrame({"algorithm": list(timing),
                    "schedule": [labels.schedule_of(a) for a in timing],
                    "ms per iteration (alone)": [1000 * s
                                                 for s in timing.values()]}),
      convergence.COST_TABLE.path(folder),
      caption=f"Cost per iteration on N = {hands}, timed after the run in "
      f"one process, one solver at a time ({rounds} interleaved rounds of "
      f"{convergence.TIMING_ITERATIONS // rounds} iterations, median)")


def summarize_convergence(frame: pd.DataFrame, settings: Settings,
                          folder: Path, *, labels: GXFPLabels,
                          timer: convergence.Timer) -> Outputs:
  """Figs. 4 and 5 per schedule, the schedule, CFR-start and counting
  comparisons, the final values and the cost per iteration timed alone.

  Args:
    frame: the run's results.
    settings: the settings it ran with.
    folder: the run folder.
    labels: the algorithm labels by schedule and role.
    timer: times Fig. 4's solvers alone on a game (its numbers are
      written beside the cost table for the claims).

  Returns:
    (figures, tables) written.
  """
  game = settings.games[0]
  hands = hands_of(game)
  figures = (_schedule_figures(frame, folder, hands, labels) +
             _comparison_figures(frame, folder, hands, labels))
  tables = write_table(
      convergence.convergence_table(frame, labels),
      convergence.FINAL_VALUES.path(folder),
      caption=f"After {settings.iterations} iterations, mean over seeds "
      f"(N = {hands}; continuous game value {_VALUE:.5f}); ms per iteration "
      "(run): solver time in the run, workers sharing the machine")
  tables += _cost_table(dict(timer(game)), folder, hands, labels)
  return figures, tables
