"""The BUFP paper's Figures 1-2 from the results table: NashConv and the
perfect-Bayesian gap against iterations, and the measures of section
5.1's claims (Qi Ju, Zhemei Fang, Yunfeng Luo, "Beyond Nash Equilibrium:
Achieving Bayesian Perfect Equilibrium with Belief Update Fictitious
Play", 2024).

Measures take the run (:class:`RunResults`) and, as keywords, what their
declaration binds: a variant (its algorithms: the CFR first, then
BUFP(EF) and BUFP(X) among the rest) and ``label``, the function that
names a game in the report's text.
"""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np
import pandas as pd

from spiel_ext.analysis.claims import (MAGNITUDE_FRACTION, Measurement,
                                       RunResults)
from spiel_ext.results.report import Variant

GameLabel = Callable[[str], str]

# "Converges faster": stays below from the first 1/EARLY_PART of the run.
EARLY_PART = 10
# "Varies considerably": the band is wider at more than this share of the
# evaluation points.
MOST_POINTS = 0.5
# "On par with CFR": BUFP(X)'s final NashConv at most this many times
# CFR's (a factor 1 / MAGNITUDE_FRACTION; lower is at least on par).
ON_PAR_RATIO = 1 / MAGNITUDE_FRACTION


def not_run(value: object) -> str:
  """The verdict of a row that says why nothing was judged."""
  del value
  return "not run"


def final_values(frame: pd.DataFrame, metrics: Sequence[str]) -> pd.DataFrame:
  """One row per game and algorithm: the iteration reached and, for each
  metric, "mean [5th, 95th percentile]" over seeds at the last iteration
  (games as the frame names them)."""
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
  return table[["game", "algorithm", "iteration"] +
               [m for m in metrics if m in table.columns]]


def curve_bands(frame: pd.DataFrame, game: str, algorithm: str,
                metric: str) -> pd.DataFrame:
  """[iteration] -> mean, 5th and 95th percentile over runs."""
  rows = frame[(frame.game == game) & (frame.algorithm == algorithm) &
               (frame.metric == metric)]
  return rows.groupby("iteration")["value"].agg(
      mean="mean", low=lambda v: v.quantile(0.05),
      high=lambda v: v.quantile(0.95))


def stays_below(frame: pd.DataFrame, game: str, metric: str, better: str,
                worse: str) -> tuple[int | None, int | None, int]:
  """Over the whole curve: the first iteration from which ``better``'s
  mean stays below ``worse``'s to the end, the first from which its 90%
  band stays entirely below ``worse``'s, and the last shared iteration
  (None: not at the end)."""
  ours, theirs = (curve_bands(frame, game, name, metric)
                  for name in (better, worse))
  shared = ours.index.intersection(theirs.index).sort_values()
  if not len(shared):
    return None, None, 0

  def start(below):
    if not below[-1]:
      return None
    above = np.flatnonzero(~below)
    return int(shared[above[-1] + 1] if len(above) else shared[0])
  mean_below = (ours.loc[shared, "mean"] < theirs.loc[shared, "mean"]
                ).to_numpy()
  band_below = (ours.loc[shared, "high"] < theirs.loc[shared, "low"]
                ).to_numpy()
  return start(mean_below), start(band_below), int(shared[-1])


def lead_text(result: tuple[int | None, int | None, int], better: str,
              worse: str) -> str:
  """:func:`stays_below`'s result in words."""
  mean_from, band_from, last = result
  if mean_from is None:
    return f"{better} not below {worse} at {last:,}"
  text = f"{better} below {worse} from it. {mean_from:,}"
  text += (f", 90% bands apart from {band_from:,}" if band_from is not None
           else ", bands overlap at the end")
  return text


def relative_spread(frame: pd.DataFrame, game: str,
                    algorithm: str) -> pd.Series:
  """[iteration] -> NashConv's 5-95% band width over its mean."""
  bands = curve_bands(frame, game, algorithm, "nash_conv")
  return (bands.high - bands.low) / bands["mean"]


def _ran(frame: pd.DataFrame, variant: Variant) -> bool:
  return set(variant.algorithms) <= set(frame.algorithm)


def _roles(variant: Variant) -> tuple[str, str, str]:
  """The variant's CFR, BUFP(EF) and BUFP(X)."""
  ef, x = (name for name in variant.algorithms if name.startswith("BUFP"))
  return variant.algorithms[0], ef, x


def _games(frame: pd.DataFrame) -> list[str]:
  return list(dict.fromkeys(frame.game))


def _runs(results: RunResults) -> str:
  horizon = int(results.frame.iteration.max())
  return f"{results.settings.seeds} runs, {horizon:,} it."


def no_variant(results: RunResults, *, variants: Sequence[Variant]
               ) -> Measurement | None:
  """A "not run" row when no variant's algorithms all ran."""
  if any(_ran(results.frame, variant) for variant in variants):
    return None
  return Measurement("no variant's algorithms all ran")


def _leads(results: RunResults, metric: str, lead: str,
           others: Sequence[str], label: GameLabel
           ) -> tuple[list[list[tuple[int | None, int | None, int]]], str]:
  """Per game, :func:`stays_below` of ``lead`` against each of ``others``
  on ``metric``, and those results in words (games split by " | ")."""
  frame = results.frame
  found, texts = [], []
  for game in _games(frame):
    versus = [stays_below(frame, game, metric, lead, other)
              for other in others]
    found.append(versus)
    texts.append(f"{label(game)}: " + "; ".join(
        lead_text(r, lead, other) for r, other in zip(versus, others)))
  return found, " | ".join(texts)


def faster_nash_conv(results: RunResults, *, variant: Variant,
                     label: GameLabel) -> Measurement | None:
  """Fig. 1: per game, whether BUFP(X)'s mean NashConv stays below CFR's
  and BUFP(EF)'s from the first 1/EARLY_PART of the run on."""
  if not _ran(results.frame, variant):
    return None
  cfr, ef, x = _roles(variant)
  horizon = int(results.frame.iteration.max())
  found, text = _leads(results, "nash_conv", x, (cfr, ef), label)
  holds = [all(r[0] is not None and r[0] <= horizon // EARLY_PART
               for r in versus) for versus in found]
  return Measurement(f"mean NashConv over {_runs(results)}: {text}", holds,
                     variant.label)


def lowest_gap(results: RunResults, *, variant: Variant,
               label: GameLabel) -> Measurement | None:
  """Fig. 2: per game, whether BUFP(EF)'s mean perfect-Bayesian gap ends
  below BUFP(X)'s and CFR's (and from when)."""
  if not _ran(results.frame, variant):
    return None
  cfr, ef, x = _roles(variant)
  found, text = _leads(results, "sequential_gap_mean", ef, (x, cfr), label)
  holds = [all(r[0] is not None for r in versus) for versus in found]
  return Measurement(f"mean gap over infosets, {_runs(results)}: {text}",
                     holds, variant.label)


def wider_spread(results: RunResults, *, variant: Variant,
                 label: GameLabel) -> Measurement | None:
  """Fig. 1: per game, whether BUFP(EF)'s relative NashConv band is wider
  than BUFP(X)'s at more than MOST_POINTS of the evaluation points."""
  frame = results.frame
  if not _ran(frame, variant):
    return None
  _, ef, x = _roles(variant)
  holds, texts = [], []
  for game in _games(frame):
    ef_spread, x_spread = (relative_spread(frame, game, name)
                           for name in (ef, x))
    shared = ef_spread.index.intersection(x_spread.index)
    wider = ef_spread[shared] > x_spread[shared]
    holds.append(bool(wider.mean() > MOST_POINTS))
    texts.append(f"{label(game)}: wider at {int(wider.sum())}/{len(shared)} "
                 f"points, at the end {ef_spread.iloc[-1]:.2f} vs "
                 f"{x_spread.iloc[-1]:.2f}")
  return Measurement("; ".join(texts), holds, variant.label)


def bufp_x_vs_xfp(results: RunResults, *, bufp_x: str, xfp: str, same: bool,
                  setting: str, variants: Sequence[Variant],
                  label: GameLabel) -> Measurement | None:
  """Ours: per game, the largest |NashConv difference| between ``bufp_x``
  and ``xfp`` over seeds and iterations; the value: whether each is zero
  exactly when ``same``. None unless both ran and some variant ran."""
  frame = results.frame
  if not ({bufp_x, xfp} <= set(frame.algorithm) and
          any(_ran(frame, variant) for variant in variants)):
    return None
  rows, holds = [], []
  for game in _games(frame):
    a, b = (frame[(frame.game == game) & (frame.algorithm == name) &
                  (frame.metric == "nash_conv")].set_index(
                      ["seed", "iteration"]).value for name in (bufp_x, xfp))
    difference = float((a - b).abs().max())
    holds.append((difference == 0.0) == same)
    rows.append(f"{label(game)}: largest |difference| {difference:.3g}; "
                f"final NashConv {a.groupby(level=1).mean().iloc[-1]:.4g} "
                f"vs {b.groupby(level=1).mean().iloc[-1]:.4g}")
  return Measurement("; ".join(rows), holds, setting)


def _final_mean(frame: pd.DataFrame, game: str, algorithm: str,
                metric: str) -> tuple[float, int]:
  """(mean over runs at the last evaluation, that iteration)."""
  bands = curve_bands(frame, game, algorithm, metric)
  return float(bands["mean"].iloc[-1]), int(bands.index[-1])


def on_par_with_cfr(results: RunResults, *, variant: Variant,
                    label: GameLabel) -> Measurement | None:
  """Section 6: per game, whether BUFP(X)'s final mean NashConv is at most
  ON_PAR_RATIO times CFR's (lower is at least on par)."""
  if not _ran(results.frame, variant):
    return None
  cfr, _, x = _roles(variant)
  holds, texts = [], []
  for game in _games(results.frame):
    (ours, at), (theirs, _) = (_final_mean(results.frame, game, name,
                                           "nash_conv") for name in (x, cfr))
    ratio = ours / theirs if theirs > 0 else float("inf")
    holds.append(bool(ratio <= ON_PAR_RATIO))
    texts.append(f"{label(game)}: {x} {ours:.3g} vs {cfr} {theirs:.3g} "
                 f"({ratio:.2g}x) at {at:,} it.")
  return Measurement(
      f"final mean NashConv over {_runs(results)}: " + "; ".join(texts) +
      f" (holds: at most {ON_PAR_RATIO:g}x CFR's)", holds, variant.label)


def slower_initially(results: RunResults, *, variant: Variant,
                     label: GameLabel) -> Measurement | None:
  """Section 5.2 on Fig. 2: per game, whether BUFP(EF)'s mean
  perfect-Bayesian gap lies above both BUFP(X)'s and CFR's at some
  evaluation point in the first 1/EARLY_PART of the run."""
  frame = results.frame
  if not _ran(frame, variant):
    return None
  cfr, ef, x = _roles(variant)
  horizon = int(frame.iteration.max())
  holds, texts = [], []
  for game in _games(frame):
    means = [curve_bands(frame, game, name, "sequential_gap_mean")["mean"]
             for name in (ef, x, cfr)]
    shared = means[0].index
    for other in means[1:]:
      shared = shared.intersection(other.index)
    early = [it for it in shared.sort_values() if it <= horizon // EARLY_PART]
    above = [it for it in early
             if means[0][it] > means[1][it] and means[0][it] > means[2][it]]
    holds.append(bool(above))
    texts.append(f"{label(game)}: {ef} above both at {len(above)} of "
                 f"{len(early)} points up to it. {horizon // EARLY_PART:,}" +
                 (f" (first at {int(above[0]):,})" if above else ""))
  return Measurement(
      f"mean gap over infosets, {_runs(results)}: " + "; ".join(texts),
      holds, variant.label)
