"""Schulze's Figs. 4-5 in numbers: final NashConv, value and cost of CFR,
XFP and GXFP on the raise variant, and the claims' measures.

Tim P. Schulze, "A Generalized Extensive-Form Fictitious Play Algorithm",
2023, arXiv:2310.09658: Fig. 4 (CFR, XFP and GXFP from random initial
strategies: the value near the game's, -88/1083 in the continuum; similar
error and decay, similar cost per iteration), Fig. 5
(perturbed XFP and GXFP converge much faster in the perturbed game), and
section 6's remarks (alternating updates converge much faster; GXFP can
count in integers).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable, Sequence

import numpy as np
import pandas as pd

from spiel_ext.analysis.claims import (MAGNITUDE_FRACTION, Measurement,
                                       RunResults, Threshold, table,
                                       within_factor_verdict)
from spiel_ext.analysis.common import final_means
from spiel_ext.experiments.gxfp.shared import (ALTERNATING, SIMULTANEOUS,
                                               GXFPLabels, hands_of, ran)
from spiel_ext.files import read_inside
from spiel_ext.games import vnm_solution as continuum
from spiel_ext.results.report import Variant

FINAL_VALUES = table("final_values")
COST_TABLE = table("cost_alone")
# The timing taken after the run, beside the cost table.
TIMING_FILE = f"{COST_TABLE.name}.json"
# How the cost is timed alone: TIMING_WARMUP iterations each, then
# TIMING_ROUNDS interleaved rounds, TIMING_ITERATIONS in all per solver.
TIMING_ITERATIONS, TIMING_ROUNDS, TIMING_WARMUP = 600, 3, 5
MAIN_ROLES = ("CFR", "XFP", "GXFP")  # Fig. 4's.
# Largest / smallest ms per iteration of Fig. 4's three algorithms.
COST_SIMILAR = Threshold(2, partly_at=4)
# Largest / smallest final NashConv of Fig. 4's three algorithms.
ERROR_SIMILAR = Threshold(3, partly_at=10)
# "Much faster": a final NashConv below MUCH_FASTER times the other's.
MUCH_FASTER = 0.5
# Integer and float GXFP agree: their NashConvs differ by at most AGREE
# times the float one's.
AGREE = 0.1
# (game) -> {label: seconds per iteration} of Fig. 4's algorithms on every
# schedule, timed now in this process.
Timer = Callable[[str], dict[str, float]]


def perturbed_roles(labels: GXFPLabels) -> tuple[str, str]:
  """Fig. 5's roles: perturbed XFP and GXFP."""
  return (labels.xfp_eps, labels.gxfp_eps)


def main_labels(labels: GXFPLabels) -> list[str]:
  """Fig. 4's labels on every schedule (the ones timed alone)."""
  return list(labels.ordered(MAIN_ROLES))


def per_iteration_seconds(frame: pd.DataFrame) -> pd.Series:
  """Solver seconds per iteration at the last evaluation, mean over seeds."""
  data = frame[frame.metric == "nash_conv"]
  last = data[data.iteration == data.groupby("algorithm")["iteration"]
              .transform("max")]
  return (last.wall_time / last.iteration).groupby(last.algorithm).mean()


def perturbed_column(labels: GXFPLabels) -> str:
  """The convergence table's column of NashConv in the perturbed game."""
  return f"NashConv (eps={labels.epsilon:g} game)"


def convergence_table(frame: pd.DataFrame,
                      labels: GXFPLabels) -> pd.DataFrame:
  """Per algorithm (in ``labels.order``): schedule, final NashConv, the
  perturbed game's NashConv (perturbed runs only), value to player 1 and ms
  per iteration in the run; means over seeds."""
  means = final_means(frame).reset_index(level="game", drop=True)
  perturbed = perturbed_column(labels)
  result = pd.DataFrame({
      "NashConv": means["nash_conv"],
      perturbed: means[labels.perturbed_metric],
      "value to player 1": means["value_player_0"],
      "ms per iteration (run)": 1000 * per_iteration_seconds(frame)})
  # The perturbed game's NashConv means something for its strategies only
  # (a strategy outside it can beat the restricted best responses).
  result.loc[[name for name in result.index if not labels.eps_of(name)],
             perturbed] = np.nan
  result = result.reindex([name for name in labels.order
                           if name in result.index])
  result.insert(0, "schedule", [labels.schedule_of(name)
                                for name in result.index])
  return result.reset_index(names="algorithm")


def timing_path(folder: Path) -> Path:
  """Where a run folder keeps the per-iteration timing measured after the
  run."""
  return Path(folder) / "tables" / TIMING_FILE


def read_timing(folder: Path) -> dict[str, float] | None:
  """The timing written after the run, None if missing or unreadable."""
  try:
    return json.loads(read_inside(folder, timing_path(folder)))
  except (OSError, ValueError):
    return None


def _final(results: RunResults, labels: GXFPLabels) -> pd.DataFrame:
  return convergence_table(results.frame, labels).set_index("algorithm")


def _error_ratio(final: pd.DataFrame, names: Sequence[str]) -> float:
  error = final.loc[list(names), "NashConv"]
  return float(error.max() / error.min())


def _main(results: RunResults, variant: Variant, labels: GXFPLabels
          ) -> tuple[pd.DataFrame, list[str]] | None:
  """(final values, Fig. 4's labels) of a schedule variant that ran all
  three; else None."""
  if not ran(variant, results.settings):
    return None
  final = _final(results, labels)
  main = list(labels.role_labels(labels.schedule_of_variant(variant),
                                 MAIN_ROLES).values())
  return (final, main) if set(main) <= set(final.index) else None


def cost_alone(results: RunResults, *, variant: Variant, labels: GXFPLabels,
               timer: Timer) -> Measurement | None:
  """Largest / smallest ms per iteration of Fig. 4's three algorithms,
  timed alone after the run (or now, if that timing is missing)."""
  case = _main(results, variant, labels)
  if case is None:
    return None
  _, main = case
  timing, how = read_timing(results.folder), "timed after the run"
  if timing is None:
    timing = timer(results.settings.games[0])
    how = "timed while writing the report"
  if not set(main) <= set(timing):
    return None
  cost = {label: 1000 * timing[label] for label in main}
  ratio = max(cost.values()) / min(cost.values())
  return Measurement(
      f"ms per iteration {how} in one process, one solver at a time "
      f"({COST_TABLE.relative_path}): " + ", ".join(
          f"{n} {v:.3g}" for n, v in cost.items()) +
      f"; largest / smallest {ratio:.2f} (holds: <= "
      f"{COST_SIMILAR.holds_at:g})", ratio, variant.label)


def error_similar(results: RunResults, *, variant: Variant,
                  labels: GXFPLabels) -> Measurement | None:
  """Largest / smallest final NashConv of Fig. 4's three algorithms."""
  case = _main(results, variant, labels)
  if case is None:
    return None
  final, main = case
  ratio = _error_ratio(final, main)
  return Measurement(
      "final NashConv: " + ", ".join(
          f"{n} {final.loc[n, 'NashConv']:.3g}" for n in main) +
      f"; largest / smallest {ratio:.1f} (holds: <= "
      f"{ERROR_SIMILAR.holds_at:g})", ratio, variant.label)


def value_verdict(found: tuple[tuple[float, ...], float]) -> str:
  """From (each algorithm's final value to player 1, the paper's game
  value): holds when every one is within a factor 1 / MAGNITUDE_FRACTION
  of the paper's, with its sign (the shared rule for a method's own
  number; "comparable in magnitude"), partly when some are, else does
  not hold."""
  values, paper = found
  close = [within_factor_verdict(value, paper) == "holds"
           for value in values]
  if close and all(close):
    return "holds"
  return "holds partly" if any(close) else "does not hold"


def game_value(results: RunResults, *, variant: Variant,
               labels: GXFPLabels) -> Measurement | None:
  """Fig. 4's top panel: the final value to player 1 of CFR, XFP and GXFP
  beside the continuous game's, -88/1083; and where the discrete game's
  own value lies, from what the run records: each algorithm's value v and
  NashConv e bracket it (the game's value is within [v - e, v + e] for
  any strategy pair, and so for means over seeds)."""
  case = _main(results, variant, labels)
  if case is None:
    return None
  final, main = case
  paper = float(continuum.RAISE_VALUE)
  values = final.loc[main, "value to player 1"]
  errors = final.loc[main, "NashConv"]
  low, high = float((values - errors).max()), float((values + errors).min())
  close = sum(within_factor_verdict(value, paper) == "holds"
              for value in values)
  text = ("final value to player 1: " + ", ".join(
      f"{name} {value:.4f}" for name, value in values.items()) +
          f" (continuous -88/1083 = {paper:.4f}; within a factor "
          f"{1 / MAGNITUDE_FRACTION:g} for {close} of {len(values)}); the "
          f"discrete game's value (N = {hands_of(results.settings.games[0])}) "
          f"lies in "
          f"[{low:.4f}, {high:.4f}] (each value +- its NashConv)")
  if not low <= paper <= high:
    gap = low - paper if paper < low else paper - high
    text += f", {gap:.4f} or more from the continuous value"
  return Measurement(text, (tuple(float(v) for v in values), paper),
                     variant.label)


def perturbed_faster_verdict(found: tuple[pd.Series, pd.Series]) -> str:
  """From the final NashConvs (perturbed runs in the perturbed game, plain
  runs in the unperturbed one, in the same role order): "much faster" is a
  size, below :data:`MUCH_FASTER` times the plain one's; holds when every
  perturbed run is below that of every plain run, partly when some
  perturbed run is below it for its own plain twin; a smaller gain does
  not hold."""
  perturbed, plain = found
  if perturbed.max() < MUCH_FASTER * plain.min():
    return "holds"
  return ("holds partly" if np.any(perturbed.to_numpy() <
                                   MUCH_FASTER * plain.to_numpy())
          else "does not hold")


def perturbed_faster(results: RunResults, *, variant: Variant,
                     labels: GXFPLabels) -> Measurement | None:
  """Final NashConv of perturbed XFP and GXFP in the perturbed game beside
  plain XFP and GXFP's in the unperturbed one."""
  case = _main(results, variant, labels)
  if case is None:
    return None
  final, _ = case
  roles = labels.roles[labels.schedule_of_variant(variant)]
  perturbed_labels = [roles[role] for role in perturbed_roles(labels)]
  if not set(perturbed_labels) <= set(final.index):
    return None
  perturbed = final.loc[perturbed_labels, perturbed_column(labels)]
  plain = final.loc[[roles["XFP"], roles["GXFP"]], "NashConv"]
  return Measurement(
      "final NashConv, perturbed game (perturbed runs): " + ", ".join(
          f"{n} {v:.3g}" for n, v in perturbed.items()) +
      "; unperturbed game (plain runs): " + ", ".join(
          f"{n} {v:.3g}" for n, v in plain.items()) +
      f" (holds: perturbed below {MUCH_FASTER:g}x the plain)",
      (perturbed, plain), variant.label)


def _speedups(final: pd.DataFrame, pairs: Sequence[tuple[str, str, str]]
              ) -> tuple[str, list[bool]]:
  """For (role, alternating label, simultaneous label) pairs that ran: the
  text, and whether alternating is much faster, per pair."""
  pairs = [(r, a, s) for r, a, s in pairs if {a, s} <= set(final.index)]
  error = final["NashConv"]
  faster = [error[a] < MUCH_FASTER * error[s] for _, a, s in pairs]
  return "; ".join(
      f"{role} {error[a]:.3g} vs {error[s]:.3g} ({error[s] / error[a]:.1f}x)"
      for role, a, s in pairs), faster


def alternating_faster(results: RunResults, *, variants: Sequence[Variant],
                       labels: GXFPLabels,
                       substitution: str = "") -> Measurement | None:
  """Final NashConv alternating vs simultaneous for CFR, XFP and GXFP;
  ``variants``: the two schedule variants; ``substitution``: what the
  runs put in place of the paper's method, named after the setting."""
  if not all(ran(variant, results.settings) for variant in variants):
    return None
  roles = labels.roles
  text, faster = _speedups(_final(results, labels), [
      (role, roles[ALTERNATING][role], roles[SIMULTANEOUS][role])
      for role in MAIN_ROLES])
  if not faster:
    return None
  return Measurement(
      "final NashConv alternating vs simultaneous (holds: alternating "
      "below half of simultaneous for all three): " + text, faster,
      " vs ".join(variant.label for variant in variants[::-1]) +
      (f", {substitution}" if substitution else ""))


def start_verdict(ratios: Sequence[float]) -> str:
  """From Fig. 4's largest / smallest error with CFR's start changed, on
  each schedule: holds if it holds on every one, does not if on none."""
  verdicts = [ERROR_SIMILAR.verdict(ratio) for ratio in ratios]
  if all(v == "holds" for v in verdicts):
    return "holds"
  return ("does not hold" if all(v == "does not hold" for v in verdicts)
          else "holds partly")


def cfr_start(results: RunResults, *, variant: Variant,
              labels: GXFPLabels) -> Measurement | None:
  """How far another CFR start (the ablation ``variant``, one label per
  schedule) moves CFR and Fig. 4's error ratio, and CFR's alternating
  speed-up from it."""
  if not ran(variant, results.settings):
    return None
  final = _final(results, labels)
  cfr = {labels.schedule_of(label): label for label in variant.algorithms}
  moves, ratios = [], []
  for schedule in labels.schedules:
    roles = labels.roles[schedule]
    light, others = roles["CFR"], [roles["XFP"], roles["GXFP"]]
    if not {light, cfr[schedule], *others} <= set(final.index):
      continue
    before = _error_ratio(final, [light, *others])
    after = _error_ratio(final, [cfr[schedule], *others])
    moves.append(f"{schedule}: CFR's final NashConv "
                 f"{final.loc[light, 'NashConv']:.3g} -> "
                 f"{final.loc[cfr[schedule], 'NashConv']:.3g}, Fig. 4's "
                 f"largest / smallest error {before:.1f} -> {after:.1f}")
    ratios.append(after)
  if not moves:
    return None
  text, _ = _speedups(final, [("CFR", cfr[ALTERNATING], cfr[SIMULTANEOUS])])
  return Measurement(
      "; ".join(moves) + (f"; CFR alternating vs simultaneous: {text}"
                          if text else ""), ratios, variant.label)


def consistency_verdict(found: tuple[float, float]) -> str:
  """From (|integer - float| final NashConv, the float one's): the two
  implementations of one algorithm must agree, within :data:`AGREE`
  times the float one's; disagreeing, the check does not hold."""
  difference, plain = found
  return "holds" if difference <= AGREE * plain else "does not hold"


def integer_counting(results: RunResults, *, variant: Variant,
                     labels: GXFPLabels) -> Measurement | None:
  """Final NashConv of integer-counting GXFP beside float GXFP's."""
  final = _final(results, labels)
  plain_label = labels.roles[SIMULTANEOUS]["GXFP"]
  if not {labels.integer_gxfp, plain_label} <= set(final.index):
    return None
  integer, plain = (final.loc[labels.integer_gxfp, "NashConv"],
                    final.loc[plain_label, "NashConv"])
  difference = abs(integer - plain)
  return Measurement(
      f"final NashConv integer {integer:.3g} vs float {plain:.3g} "
      f"(difference {difference:.2g})", (difference, plain), variant.label)
