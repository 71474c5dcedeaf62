"""The measures of the BUFP paper's Tables 1-2 claims (Qi Ju, Zhemei Fang,
Yunfeng Luo, "Beyond Nash Equilibrium: Achieving Bayesian Perfect
Equilibrium with Belief Update Fictitious Play", 2024) and the rules that
judge them.

Each measure takes the run (:class:`RunResults`) and, as keywords, what
its declaration binds: the table variants (their algorithms name the
algorithm of each role) and the row's statement, a template whose
``{case}`` the measure fills in (iterations and rules); strategies are
read from the run's snapshots (:mod:`.head_to_head`).
"""

from __future__ import annotations

import dataclasses
from typing import Sequence

import numpy as np

from spiel_ext.analysis.claims import (MAGNITUDE_FRACTION, Measurement,
                                       RunResults, Threshold, magnitude_text,
                                       magnitude_verdict,
                                       mean_of_parts_verdict, same_direction,
                                       within_factor_verdict)
from spiel_ext.analysis.poker_units import big_blind, mbh
from spiel_ext.experiments.bufp.head_to_head import (
    FINAL, MATCHED, Cells, deviation_percentages, pair_percentages,
    role_policies, rules_name, snapshot_labels, spread, table_cells,
    variants_run)
from spiel_ext.experiments.bufp.paper_values import (
    MEAN, PAPER_EXPLOITABILITY_MBH, PAPER_PERCENTAGES, RECOVERED, ROLES,
    SECURED)
from spiel_ext.experiments.declaration import Settings
from spiel_ext.results.report import PAPER_SETTING, Variant

# The paper's cell is one pair of runs: CFR vs CFR holds when it lies
# where one pair of ours could, within ROOM_SDS sd of our pairs' mean (and
# never closer than MIN_ROOM_MBH).
ROOM_SDS = 2.0
MIN_ROOM_MBH = 0.5
# Tables 1-2: the largest |ours - paper| over the paper's nine cells.
CELLS_WITHIN_MBH = Threshold(holds_at=2.0, partly_at=5.0)
# A percentage holds within this many points of the paper's; partly when
# it has the paper's sign and reaches MAGNITUDE_FRACTION of it.
PERCENT_POINTS = 10.0


def _detail_label(settings: Settings, snapshot: str) -> str:
  return {FINAL: f"after {settings.iterations:,} it.",
          MATCHED: "at matched exploitability"}[snapshot]


def _first(results: RunResults,
           variants: Sequence[Variant]) -> Variant | None:
  """The first table variant run, or None."""
  run = variants_run(results.settings, variants)
  return run[0] if run else None


def no_variant(results: RunResults, *, variants: Sequence[Variant]
               ) -> Measurement | None:
  """A "not run" row when no variant's algorithms all ran."""
  if variants_run(results.settings, variants):
    return None
  return Measurement("no variant's algorithms all ran")


def missing_tables(results: RunResults, *, snapshot: str,
                   variants: Sequence[Variant],
                   statement: str) -> Measurement | None:
  """A "not run" row when the first variant has no strategies at
  ``snapshot`` for every role (on the first game)."""
  variant = _first(results, variants)
  if variant is None:
    return None
  settings = results.settings
  if role_policies(settings, results.folder, snapshot, settings.games[0],
                   variant) is not None:
    return None
  return Measurement(
      "not every algorithm reached this point", setting=variant.label,
      claim=statement.format(case=_detail_label(settings, snapshot)))


def _detail(results: RunResults, snapshot: str, variants: Sequence[Variant]
            ) -> tuple[Variant, str, tuple[Cells, Cells]] | None:
  """(variant, case label, (table1, table2)) for the first variant on the
  first game at ``snapshot``, or None."""
  variant = _first(results, variants)
  if variant is None:
    return None
  settings = results.settings
  game = settings.games[0]
  cells = table_cells(settings, results.folder, snapshot, game, variant)
  if cells is None:
    return None
  return (variant, f"{_detail_label(settings, snapshot)}, {rules_name(game)}",
          cells)


def within_room(value: tuple[float, float]) -> str:
  """(|ours - paper|, room) -> holds within the room."""
  distance, room = value
  return "holds" if distance <= room else "does not hold"


def cfr_vs_cfr(results: RunResults, *, snapshot: str,
               variants: Sequence[Variant], statement: str,
               paper: float) -> Measurement | None:
  """CFR against itself in Table 1 beside the paper's ``paper`` mb/h."""
  found = _detail(results, snapshot, variants)
  if found is None:
    return None
  variant, case, (table1, _) = found
  cfr = table1["CFR", "CFR"]
  room = max(MIN_ROOM_MBH, ROOM_SDS * cfr.std())
  return Measurement(
      f"{cfr.mean():.2f} ± {cfr.std():.2f} mb/h (mean ± sd over {len(cfr)} "
      f"seed pairs; holds within {room:.2f} of {paper:.2f})",
      (abs(cfr.mean() - paper), room), variant.label,
      statement.format(case=case))


def cells_difference(results: RunResults, *, snapshot: str,
                     variants: Sequence[Variant], statement: str,
                     forced: bool,
                     paper: dict[tuple[str, str], float]
                     ) -> Measurement | None:
  """The largest |ours - paper| over the paper's cells of Table 1 (or, with
  ``forced``, Table 2)."""
  found = _detail(results, snapshot, variants)
  if found is None:
    return None
  variant, case, cells = found
  ours = cells[1 if forced else 0]
  worst = max(abs(ours[key].mean() - value) for key, value in paper.items())
  return Measurement(
      f"largest difference from the paper's cells {worst:.2f} mb/h", worst,
      variant.label, statement.format(case=case))


def close_percentage(ours: float, paper: float) -> str:
  """Within PERCENT_POINTS of the paper's (and of its sign) holds; the
  paper's sign and at least MAGNITUDE_FRACTION of its size holds partly;
  anything else (a smaller share, the opposite sign, NaN) does not hold."""
  if not same_direction(ours, paper):
    return "does not hold"
  if abs(ours - paper) <= PERCENT_POINTS:
    return "holds"
  return ("holds partly" if magnitude_verdict(ours, paper) == "holds"
          else "does not hold")


def percentage_rule_text(ours: float, paper: float) -> str:
  """:func:`close_percentage`'s reason, in words."""
  if same_direction(ours, paper) and abs(ours - paper) <= PERCENT_POINTS:
    return f"within {PERCENT_POINTS:g} points of the paper's"
  return magnitude_text(ours, paper, unit="%") + (
      f" (holds: within {PERCENT_POINTS:g} points; holds partly: the "
      f"paper's sign and at least {MAGNITUDE_FRACTION:.0%} of it)")


@dataclasses.dataclass(frozen=True)
class PercentageCheck:
  """A section 5.2 percentage against the paper's.

  Attributes:
    ours: from the mean cells.
    paper: the paper's.
    low, high: the smallest and largest over seed pairs.
    parts_hold: for the mean, whether both its parts hold.
    parts: for the mean, (ours, the paper's) of each of its parts.
  """
  ours: float
  paper: float
  low: float
  high: float
  parts_hold: bool = True
  parts: tuple[tuple[float, float], ...] = ()


def percentage_verdict(check: PercentageCheck) -> str:
  """:func:`close_percentage`, holding only partly when the paper's value
  lies more than PERCENT_POINTS outside our seed pairs' range, or (the
  mean) when a matching mean comes from mismatched parts; a mean one of
  whose parts has the opposite sign to the paper's does not hold."""
  verdict = close_percentage(check.ours, check.paper)
  if verdict == "holds" and not (check.low - PERCENT_POINTS <= check.paper
                                 <= check.high + PERCENT_POINTS):
    verdict = "holds partly"
  if verdict == "holds" and not check.parts_hold:
    verdict = "holds partly"
  return mean_of_parts_verdict(check.parts, verdict)


def _check(means: dict[str, float], pairs: dict[str, np.ndarray], key: str,
           parts_hold: bool = True) -> PercentageCheck:
  return PercentageCheck(means[key], PAPER_PERCENTAGES[key],
                         np.min(pairs[key]), np.max(pairs[key]), parts_hold)


def percentage(results: RunResults, *, snapshot: str,
               variants: Sequence[Variant], statement: str,
               key: str) -> Measurement | None:
  """Section 5.2's ``key`` (recovered, secured or mean %) from our tables,
  with its spread over seed pairs."""
  found = _detail(results, snapshot, variants)
  if found is None:
    return None
  variant, case, cells = found
  means, pairs = deviation_percentages(*cells), pair_percentages(*cells)
  ours = f"{means[key]:.2f}% (over seed pairs: {spread(pairs[key])})"
  if key == SECURED:
    ours += (f"; its denominator, CFR's gain, is "
             f"{means['profit gain CFR']:.1f} mb/h (over seed pairs "
             f"{spread(pairs['profit gain CFR'])})")
  check = _check(means, pairs, key)
  if key == MEAN:
    parts_hold = all(percentage_verdict(_check(means, pairs, part)) == "holds"
                     for part in (RECOVERED, SECURED))
    parts = tuple((means[part], PAPER_PERCENTAGES[part])
                  for part in (RECOVERED, SECURED))
    if percentage_verdict(check) == "holds" and not parts_hold:
      ours += (" (near the paper's only because its two parts err in "
               "opposite directions)")
    check = dataclasses.replace(check, parts_hold=parts_hold, parts=parts)
    opposite = [part for part, (value, paper) in zip((RECOVERED, SECURED),
                                                     parts)
                if not same_direction(value, paper)]
    if opposite:
      ours += (f"; does not hold: its part {', '.join(opposite)} has the "
               "opposite sign to the paper's")
      return Measurement(ours, check, variant.label,
                         statement.format(case=case))
  ours += f"; {percentage_rule_text(check.ours, check.paper)}"
  return Measurement(ours, check, variant.label, statement.format(case=case))


def across_iterations(results: RunResults, *, position: int,
                      later_games: bool, variants: Sequence[Variant],
                      statement: str) -> list[Measurement] | None:
  """For the ``position``-th variant run, on the first game (or, with
  ``later_games``, each other game): the percentages at every snapshot,
  judged at the last iteration snapshot (the final one, or a capped
  algorithm's cap). The value: whether the recovered and the secured
  percentages each hold."""
  settings = results.settings
  run = variants_run(settings, variants)
  if position >= len(run):
    return None
  variant = run[position]
  rows = []
  for game in (settings.games[1:] if later_games else settings.games[:1]):
    parts, finals = [], []
    for snapshot, label in snapshot_labels(settings):
      cells = table_cells(settings, results.folder, snapshot, game, variant)
      if cells is None:
        continue
      means, pairs = deviation_percentages(*cells), pair_percentages(*cells)
      parts.append(f"{label}: recovered {means[RECOVERED]:.1f}%, secured "
                   f"{means[SECURED]:.1f}% ({spread(pairs[SECURED])}), "
                   f"mean {means[MEAN]:.1f}%")
      finals.append((snapshot, means))
    if not finals:
      continue
    _, last = [f for f in finals if f[0] != MATCHED][-1]
    holds = [close_percentage(last[key], PAPER_PERCENTAGES[key]) == "holds"
             for key in (RECOVERED, SECURED)]
    rows.append(Measurement("; ".join(parts), holds, variant.label,
                            statement.format(case=rules_name(game))))
  return rows


# --------------------------------------- section 5.2: the exploitabilities
def _role(algorithm: str, variants: Sequence[Variant]) -> tuple[str, str]:
  """(the paper's role an algorithm plays: "CFR", "BUFP(EF)" or
  "BUFP(X)"; the setting label of the rows about it)."""
  if algorithm in ROLES[1:]:
    return algorithm, PAPER_SETTING
  for variant in variants:
    if variant.algorithms[0] == algorithm:
      return ROLES[0], variant.label
  return ROLES[0], ""


def exploitability_rows(results: RunResults, *, variants: Sequence[Variant],
                        statement: str) -> list[Measurement] | None:
  """Section 5.2's exploitabilities after the run: per table algorithm,
  its final exploitability (NashConv / 2) in mb/h on each rule set,
  mean over seeds, beside the paper's for its role (value: one case per
  rule set, within a factor 1 / MAGNITUDE_FRACTION of the paper's).

  Args:
    results: the run.
    variants: the table variants (their first algorithm is their CFR).
    statement: the row's claim, with ``{algorithm}``, ``{paper}`` and
      ``{iterations}`` to fill in.

  Returns:
    One measurement per algorithm that ran, or None without exploitability
    in the results.
  """
  frame = results.frame[results.frame.metric == "exploitability"]
  if frame.empty:
    return None
  rows = []
  ran = variants_run(results.settings, variants)
  paper_cfr = ran[0].algorithms[0] if ran else None
  for algorithm in dict.fromkeys(frame.algorithm):
    role, setting = _role(algorithm, variants)
    paper = PAPER_EXPLOITABILITY_MBH[role]
    cases, texts, iterations = [], [], set()
    for game in results.settings.games:
      part = frame[(frame.game == game) & (frame.algorithm == algorithm)]
      if part.empty:
        continue
      last = part[part.iteration == part.iteration.max()]
      iterations.add(int(part.iteration.max()))
      value = mbh(float(last.value.mean()), big_blind(game))
      cases.append(within_factor_verdict(value, paper) == "holds")
      texts.append(f"{rules_name(game)}: {value:.2f} mb/h "
                   f"({value / paper:.2g}x the paper's, {len(last)} "
                   f"seed{'s' if len(last) != 1 else ''})")
    if not cases:
      continue
    ours = "; ".join(texts) + (
        f" (holds: within {1 / MAGNITUDE_FRACTION:g}x of the paper's on "
        "either side)")
    if algorithm == paper_cfr:
      ours += (f". {algorithm} is the CFR behind the {ran[0].label} "
               "Tables 1-2 verdicts, so those verdicts compare BUFP with a "
               "CFR this far from the paper's")
    reached = ", ".join(f"{n:,}" for n in sorted(iterations))
    rows.append(Measurement(
        ours, cases, setting,
        statement.format(algorithm=f"{algorithm} (as the paper's {role})"
                         if algorithm != role else algorithm,
                         paper=f"{paper:g}", iterations=reached),
        f"{paper:g} mb/h after 100,000 it."))
  return rows
