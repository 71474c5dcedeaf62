"""The VCFR experiments' measures: from a run's results to the numbers each
claim is judged on (Qiu, Wang, Ma, Wen, Zhang, "Combining Counterfactual
Regret Minimization with Information Gain to Solve Extensive Games with
Unknown Environments", 2023).

Each measure gives one :class:`Measurement` (or None when the run holds
nothing to judge) whose ``value`` is a list of per-case booleans (an
environment, a learner): the claim holds if every case does, partly if
some do.
"""

from __future__ import annotations

import functools

import numpy as np

from spiel_ext.analysis.claims import Measure, Measurement, RunResults
from spiel_ext.experiments.vcfr.comparisons import (at_logged_rounds,
                                                    clearly_below,
                                                    final_table, interval,
                                                    lead, level, mean_curves,
                                                    noise_floor,
                                                    paired_difference)
from spiel_ext.experiments.vcfr.paper_values import (AUTHORS_LEDUC4_LOGS,
                                                     AUTHORS_VCFR, LEDUC5,
                                                     PAPER_EPISODES,
                                                     PAPER_LEDUC5, listing)

# "Reproduces" for a log10 value: within a factor 10^LEDUC5_CLOSE.
LEDUC5_CLOSE = 0.1


def _ranking(results: RunResults, *, better: str, worse: str, setting: str,
             replicates: dict[str, str]) -> Measurement | None:
  frame = results.frame
  curves = mean_curves(frame).set_index(["environment", "algorithm",
                                         "iteration"]).sort_index()
  flat = curves.reset_index()
  replicates = {base: copy for base, copy in replicates.items()
                if copy in set(frame.algorithm)}
  rows, wins = [], []
  for environment in sorted(set(flat.environment)):
    try:
      ours, theirs = (curves.loc[(environment, algorithm)]
                      for algorithm in (better, worse))
    except KeyError:
      continue
    last = ours.index.intersection(theirs.index).max()
    ours_log, theirs_log = (np.log10(curve.loc[last, "value"])
                            for curve in (ours, theirs))
    mean, error, count = paired_difference(frame, environment, better,
                                           worse, last)
    head = (f"{environment} at {ours.loc[last, 'episodes']:,.0f} episodes: "
            f"{ours_log:.3f} vs {theirs_log:.3f} (paired difference "
            f"{interval(mean, error)} over {count} environments: ")
    if replicates.get(better) == worse:
      # A noise-floor row holds where the two seeds are level.
      wins.append(level(mean, error, count))
      rows.append(head + f"{'level' if wins[-1] else 'apart'})")
      continue
    wins.append(clearly_below(mean, error, count))
    rows.append(head + ("clearly below" if wins[-1] else "not clearly below")
                + noise_floor(frame, environment, better, worse, last,
                              replicates)
                + f"; {lead(flat, environment, better, worse)})")
  if not rows:
    return None
  return Measurement(
      f"log10 NashConv (of the mean over environments), {better} vs "
      f"{worse}: " + "; ".join(rows), wins, setting)


def ranking(better: str, worse: str, setting: str,
            replicates: dict[str, str] | None = None) -> Measure:
  """``better`` against ``worse`` in each environment, at the last
  evaluation point both reached (runs capped at fewer iterations are
  compared where they stopped): a case holds where the paired difference
  of log10 NashConv is clearly below 0, with the noise floor beside it
  (the same comparison between a learner and its replicate, from
  ``replicates`` {learner: replicate}). A pair of a learner and its
  replicate holds where they are level."""
  return functools.partial(_ranking, better=better, worse=worse,
                           setting=setting, replicates=dict(replicates or {}))


def _leduc5(results: RunResults, *, setting: str) -> Measurement | None:
  table = final_table(results.frame).set_index(["environment", "algorithm"])
  rows, close = [], []
  for algorithm, paper in PAPER_LEDUC5.items():
    key = (LEDUC5, algorithm)
    if key in table.index and table.loc[key, "episodes"] >= PAPER_EPISODES:
      ours = table.loc[key, "log10 NashConv"]
      close.append(bool(abs(ours - paper) <= LEDUC5_CLOSE))
      rows.append(f"{algorithm} {ours:.3f} ({ours - paper:+.3f})")
  if not rows:
    return None
  return Measurement(
      "log10 NashConv, mean over environments (difference to the paper): "
      + ", ".join(rows) + f"; within {LEDUC5_CLOSE} for {sum(close)} of "
      f"{len(close)}", close, setting)


def leduc5(setting: str) -> Measure:
  """Each learner's final log10 NashConv on unknown Leduc(5) (mean over
  environments) beside the paper's; a case holds within
  :data:`LEDUC5_CLOSE`. Only runs of the paper's length count."""
  return functools.partial(_leduc5, setting=setting)


def _authors_logs(results: RunResults, *,
                  setting: str) -> Measurement | None:
  ours = at_logged_rounds(results.frame)
  if ours is None:
    return None
  above = [ours[AUTHORS_VCFR][-1] > ours[name][-1]
           for name in AUTHORS_LEDUC4_LOGS if name != AUTHORS_VCFR]
  return Measurement(
      "NashConv, mean over environments, at the nearest evaluation "
      f"points: {listing(ours)}", above, setting)


def authors_logs(setting: str) -> Measure:
  """Our Leduc(4) curves at the authors' logged rounds; the cases are
  their logs' ordering at the last round: their VCFR above each PSRLCFR
  type."""
  return functools.partial(_authors_logs, setting=setting)
