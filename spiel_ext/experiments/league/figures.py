"""The solver league's figures, tables and its "Which solver?" page.

One figure per game: NashConv against iterations and against the solver's
seconds (log-log; mean and 90% band over seeds where a solver has several,
external-sampling MCCFR), with the target NashConv (a fraction of the
game's payoff range) as a line. Tables: iterations and seconds to the
target, or "not reached" at the cap, or "n/a" where a solver does not apply
(:func:`.measures.league_table`); the final NashConv of
every solver; MMD's last iterate over its last decade. The page
(:func:`write_which_solver_page`) is written from a run's folder as the
reproduction report is, with its figures copied beside it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable, Sequence

import pandas as pd

from spiel_ext.experiments.league import measures as league
from spiel_ext.files import atomic_write, read_inside
from spiel_ext.results.figures import save_figure, subplots
from spiel_ext.results.tables import write_table

# (algorithm, game) -> "n/a (<reason>)", or None where the solver applies.
Applicability = Callable[[str, str], "str | None"]


def _palette(names: Sequence[str]) -> dict[str, tuple]:
  """A distinct colour per line (matplotlib's tab20, then tab20b)."""
  import matplotlib  # pylint: disable=g-import-not-at-top
  colors = (list(matplotlib.colormaps["tab20"].colors) +
            list(matplotlib.colormaps["tab20b"].colors))
  return {name: colors[index % len(colors)]
          for index, name in enumerate(names)}


def game_figure(frame: pd.DataFrame, game: str, algorithms: Sequence[str],
                labels: dict[str, str], path: Path, *,
                dashed: Sequence[str] = (),
                fraction: float = league.TARGET_FRACTION) -> list[Path]:
  """One game's figure: NashConv vs iterations (left) and vs solver seconds
  (right), log-log, a line per algorithm that ran (mean over seeds; the
  90% band where there are several), the target as a dotted line."""
  figure, axes = subplots(1, 2, squeeze=False, figsize=(13.0, 4.6))
  colors = _palette(algorithms)
  goal = league.target(game, fraction)
  for axis, x in zip(axes[0], ("iteration", "seconds")):
    for name in algorithms:
      curve = league.mean_curve(frame, game, name)
      if curve.empty:
        continue
      xs = curve.index if x == "iteration" else curve["seconds"]
      seeds = int(curve["seeds"].max())
      style = dict(linestyle="--") if name in dashed else {}
      label = labels.get(name, name) + (f" ({seeds} seeds)" if seeds > 1
                                        else "")
      axis.plot(xs, curve["value"].clip(lower=1e-16), color=colors[name],
                label=label, linewidth=1.3, **style)
      if seeds > 1:
        axis.fill_between(xs, curve["low"].clip(lower=1e-16),
                          curve["high"].clip(lower=1e-16),
                          color=colors[name], alpha=0.2, linewidth=0)
    axis.axhline(goal, color="black", linewidth=0.8, linestyle=":",
                 label=f"target {fraction:g} x payoff range")
    axis.set_xscale("log")
    axis.set_yscale("log")
    axis.set_xlabel("iterations" if x == "iteration"
                    else "solver seconds (evaluation excluded)")
    axis.set_ylabel("NashConv")
    axis.grid(True, which="major", alpha=0.3)
  axes[0, 1].legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))
  figure.suptitle(f"{league.game_name(game)}: NashConv vs iterations and vs "
                  "solver seconds", fontsize=11)
  return save_figure(figure, path)


def not_applicable_cells(algorithms: Sequence[str], games: Sequence[str],
                         applicability: Applicability
                         ) -> dict[tuple[str, str], str]:
  """{(algorithm, game): "n/a (...)"} for the pairs that do not apply."""
  cells = {}
  for algorithm in algorithms:
    for game in games:
      reason = applicability(algorithm, game)
      if reason is not None:
        cells[(algorithm, game)] = reason
  return cells


def final_table(frame: pd.DataFrame, games: Sequence[str],
                algorithms: Sequence[str], labels: dict[str, str],
                cells: dict[tuple[str, str], str]) -> pd.DataFrame:
  """The final NashConv of every solver (rows) on every game (columns),
  with the iterations where a solver stopped short of the others."""
  final = league.final_nash_conv(frame)
  most = final.groupby("game")["iteration"].max()
  rows = []
  for algorithm in algorithms:
    row = {"solver": labels.get(algorithm, algorithm)}
    for game in games:
      if (algorithm, game) in cells:
        text = cells[(algorithm, game)]
      elif (game, algorithm) not in final.index:
        text = "no results"
      else:
        value = final.loc[(game, algorithm)]
        text = f"{value['nash_conv']:.3g}"
        if value["iteration"] < most.get(game, value["iteration"]):
          text += f" (at {int(value['iteration']):,} it)"
      row[league.game_name(game)] = text
    rows.append(row)
  return pd.DataFrame(rows, columns=["solver",
                                     *[league.game_name(g) for g in games]])


def summarize_league(frame: pd.DataFrame, settings, folder: Path, *,
                     order: Sequence[str], labels: dict[str, str],
                     applicability: Applicability,
                     mmd: tuple[str, str] | None = None,
                     dashed: Sequence[str] = ()
                     ) -> tuple[list[Path], list[Path]]:
  """The league's figures (one per game) and tables (time to target, final
  NashConv, MMD's last iterate); returns (figure paths, table paths).

  Args:
    order: the algorithms in table order (those the run has are shown).
    labels: {algorithm: display name}.
    applicability: (algorithm, game) -> "n/a (...)" or None.
    mmd: (last-iterate id, average id) for the MMD table, if it ran.
    dashed: lines drawn dashed (the reference).
  """
  games = list(settings.games)
  algorithms = [a for a in order if a in settings.algorithms] + [
      a for a in settings.algorithms if a not in order]
  cells = not_applicable_cells(algorithms, games, applicability)
  figures = []
  for game in games:
    figures += game_figure(frame, game, algorithms, labels,
                           league.curves_figure(game).stem(folder),
                           dashed=dashed)
  time_table = league.league_table(frame, games, algorithms, labels, cells)
  tables = write_table(
      time_table, league.TIME_TO_TARGET.stem(folder),
      caption=f"Iterations and solver seconds to NashConv <= "
      f"{league.TARGET_FRACTION:g} x the game's payoff range (first "
      "evaluation point at or below it; mean over seeds)")
  tables += write_table(
      final_table(frame, games, algorithms, labels, cells),
      league.FINAL_NASH_CONV.stem(folder),
      caption="Final NashConv (mean over seeds) at each solver's last "
      "iteration")
  tables.append(atomic_write(
      league.FASTEST.path(folder),
      "**The fastest solver per game to the target**\n\n" +
      "\n".join(fastest(time_table)) + "\n"))
  if mmd is not None and mmd[0] in algorithms:
    tables += write_table(
        league.mmd_table(frame, games, *mmd),
        league.MMD_LAST_ITERATE.stem(folder),
        caption="MMD's last iterate: NashConv at the first evaluation, at "
        "T / 10 and at T, its relative change over the last decade "
        f"(converged: moved >= {league.MOVED:.0%} from the first point, then "
        f"changed <= {league.SETTLED:.0%}; to the alpha-QRE, whose NashConv "
        "is large where alpha is large beside the game's sequence-form "
        "payoffs) and the average's NashConv at T")
  return figures, tables


def fastest(table: pd.DataFrame) -> list[str]:
  """Per game column of a :func:`league.league_table`, the solvers that
  reached the target in the fewest solver seconds and in the fewest
  iterations, as markdown list items."""
  lines = []
  for column in table.columns[1:]:
    reached = []
    for solver, cell in zip(table["solver"], table[column]):
      if cell.endswith(" s") and " it, " in cell:
        iterations, seconds = cell[:-2].split(" it, ")
        reached.append((float(seconds), int(iterations.replace(",", "")),
                        solver))
    if not reached:
      lines.append(f"- {column}: no solver reached the target.")
      continue
    by_time = min(reached)
    by_iterations = min(reached, key=lambda item: (item[1], item[0]))
    lines.append(f"- {column}: fastest in seconds {by_time[2]} "
                 f"({by_time[0]:.3g} s); fewest iterations "
                 f"{by_iterations[2]} ({by_iterations[1]:,}); "
                 f"{len(reached)} of {len(table)} solvers reached it.")
  return lines


PAGE_INTRO = """\
# Which solver?

Generated by `spiel-ext --experiment=report` from the `solver_league` run
on disk; do not edit by hand.

Every full-width solver of the package, external-sampling MCCFR and
OpenSpiel's C++ CFR+ ran on the same machine from the uniform strategy,
each with its paper's default settings, on seven games. The table gives
the iterations and the solver's own seconds (evaluation excluded) until
NashConv first fell to 1/1000 of the game's payoff range, or "not
reached" with the NashConv at the last iteration. Times come from worker
processes sharing the machine: read them as orders of magnitude, and the
iterations as the solver's convergence rate. The claims judged on this run
(PCFR+, PDCFR+ and MMD's papers' orderings) are in the
[reproduction report](reproduction.md), section `solver_league`.

Two rows need a word. MMD runs with alpha 0.05 and OpenSpiel's stepsize:
its iterates converge to the alpha-regularised equilibrium (a QRE), not
to a Nash equilibrium, so its NashConv stops where that QRE's is; where
alpha is large beside the game's sequence-form payoffs (which chance
probabilities scale down, as in Leduc or Liar's dice) that QRE is close to
the uniform strategy. DCFR+ runs twice, with the paper's discount
(t-1)^1.5 / ((t-1)^1.5 + 1) and with the authors' code's + 1.5.
"""


def write_which_solver_page(folder: Path, report: Path) -> Path | None:
  """``which-solver.md`` next to ``report``, from the league's run in
  ``folder``: the time-to-target table, the fastest solver per game, the
  final NashConv table, MMD's last iterate and each game's figure (copied
  to ``which-solver_files/``). Returns the page, or None (leaving any
  existing page as it is) when the run has not written its tables."""
  sections = (("Time to NashConv <= 1e-3 x payoff range",
               league.TIME_TO_TARGET), ("", league.FASTEST),
              ("Final NashConv", league.FINAL_NASH_CONV),
              ("MMD's last iterate", league.MMD_LAST_ITERATE))
  if not all(artefact.path(folder).exists() for _, artefact in sections[:3]):
    return None
  page = report.parent / "which-solver.md"
  files = report.parent / "which-solver_files"
  scale = _scale_of(folder)
  lines = [PAGE_INTRO, f"Scale of the run shown: **{scale}**"
           " (`spiel-ext --experiment=solver_league"
           f"{' --scale=paper' if scale == 'paper' else ''}`).", ""]
  if scale != "paper":
    lines += ["The quick scale stops long before the papers' horizons; "
              "`spiel-ext --experiment=solver_league --scale=paper "
              "--workers=2` runs 10,000 iterations, and "
              "`spiel-ext --experiment=report` then writes this page next to "
              "the report.", ""]
  for heading, artefact in sections:
    if artefact.path(folder).exists():
      lines += ([f"## {heading}", ""] if heading else []) + [
          read_inside(folder, artefact.path(folder)).decode().rstrip("\n"),
          ""]
  lines += ["## NashConv vs iterations and vs seconds", ""]
  for source in sorted((folder / "figures").glob("*.png")):
    copy = atomic_write(files / source.name, read_inside(folder, source))
    lines += [f"![{source.stem}]({copy.relative_to(page.parent).as_posix()})",
              ""]
  return atomic_write(page, "\n".join(lines))


def _scale_of(folder: Path) -> str:
  """The scale recorded in the run's config.json ("unknown" if none)."""
  try:
    return json.loads(read_inside(folder, folder / "config.json"))["scale"]
  except (OSError, ValueError, KeyError, TypeError):
    return "unknown"


__all__ = ["fastest", "final_table", "game_figure", "not_applicable_cells",
           "summarize_league", "write_which_solver_page"]
