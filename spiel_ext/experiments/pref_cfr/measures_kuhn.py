"""Kuhn poker analysis of the Pref-CFR paper (Ju, Tellier, Sun, Fang, Luo,
"Preference-CFR: Beyond Nash Equilibrium for Better Game Strategies", 2025,
arXiv:2411.01217), section 5.1: alpha (player 1's Bet probability with the
Jack) at the end of CFR runs from random starts (Fig. 3) and under the six
Pref-CFR settings (Fig. 4), and the measures of the claims on them.
"""

from __future__ import annotations

import functools
from typing import Sequence

import numpy as np
import pandas as pd

from spiel_ext.analysis.claims import (ClaimSpec, Measurement, RunResults,
                                       Threshold)
from spiel_ext.analysis.common import final_means
from spiel_ext.experiments.pref_cfr.paper_values import (
    PAPER, PAPER_KUHN_EXPLOITABILITY, PAPER_KUHN_ITERATIONS)
from spiel_ext.experiments.pref_cfr.shared import (variant_frame,
                                                   variants_run)
from spiel_ext.results.report import Variant

# The alpha every run ends near "regardless of the initial strategy" (Fig. 3).
PAPER_ALPHA = 0.2
NEAR = 0.02  # |alpha - PAPER_ALPHA| that counts as "near 0.2".
# The share of runs near 0.2: the paper's Fig. 3 draws a 90% band, so it
# shows 90% of its runs, not all of them; "holds partly" at half.
ALPHA_SHARE = Threshold(0.9, 0.5, direction="at least")
# Pref-CFR "converges like CFR": every setting's final NashConv within
# CONVERGENCE_RATIO x CFR's (plus CONVERGENCE_SLACK); partly: all below
# CONVERGED.
CONVERGENCE_RATIO = 3.0
CONVERGENCE_SLACK = 1e-3
CONVERGED = 0.01
# (Pref-CFR(RM), Pref-CFR(BR)) at the same delta, and the action preferred.
RM_BR_PAIRS = ((("Pref-CFR(RM) Bet x5", "Pref-CFR(BR) Bet x5"), "Bet"),
               (("Pref-CFR(RM) Pass x5", "Pref-CFR(BR) Pass x5"), "Pass"))
SIMULTANEOUS = " (simultaneous)"


# ----------------------------------------------------------- Fig. 3: alpha
def final_alphas(frame: pd.DataFrame) -> pd.Series:
  """Each run's alpha at its last iteration, indexed by seed (one
  algorithm's runs)."""
  alpha = frame[frame.metric == "kuhn_alpha"]
  last = alpha[alpha.iteration == alpha.groupby("seed")["iteration"]
               .transform("max")]
  return last.set_index("seed")["value"]


def near_share(alphas: pd.Series) -> float:
  """The share of runs whose final alpha is within NEAR of PAPER_ALPHA."""
  return float((np.abs(alphas - PAPER_ALPHA) <= NEAR).mean())


def alpha_statistics(frame: pd.DataFrame,
                     variants: Sequence[Variant]) -> pd.DataFrame:
  """One row per variant: runs, mean, sd, min, max of the final alpha and
  the share within NEAR of PAPER_ALPHA."""
  rows = []
  for variant in variants:
    alphas = final_alphas(variant_frame(frame, variant))
    rows.append({"setting": variant.label, "algorithm": variant.algorithms[0],
                 "runs": len(alphas), "mean": alphas.mean(),
                 "sd": alphas.std(), "min": alphas.min(), "max": alphas.max(),
                 f"share within {NEAR} of {PAPER_ALPHA}": near_share(alphas)})
  return pd.DataFrame(rows)


def alpha_measurements(results: RunResults, *,
                       variants: Sequence[Variant]) -> list[Measurement]:
  """Fig. 3 on each variant run (value: the share of runs near 0.2); an
  ablation says how far it moves the share from the paper setting's."""
  ran = variants_run(variants, results.settings)
  table = alpha_statistics(results.frame, ran)
  shares = table[f"share within {NEAR} of {PAPER_ALPHA}"]
  iterations = int(results.frame.iteration.max())
  measurements, paper_share = [], None
  for variant, row, share in zip(ran, table.itertuples(), shares):
    ours = (f"{share:.0%} of {row.runs} runs within {NEAR} of "
            f"{PAPER_ALPHA}; final alpha mean {row.mean:.3f}, range "
            f"[{row.min:.3f}, {row.max:.3f}] after {iterations} "
            f"iterations ({variant.description})")
    if variant.is_paper_setting:
      paper_share = share
      ours += (f" (holds: at least {ALPHA_SHARE.holds_at:.0%} of runs, the "
               "paper's 90% band; holds partly: at least half)")
    elif paper_share is not None:
      ours += (f"; moves the share by {100 * (share - paper_share):+.0f} "
               "points from the paper setting")
    measurements.append(Measurement(ours, share, variant.label))
  return measurements


# ------------------------------------------------------ Fig. 4: settings
def base_name(algorithm: str) -> str:
  """The setting's name without its schedule: "Pref-CFR(BR) Bet x5"."""
  if algorithm == f"CFR{SIMULTANEOUS}":
    return "CFR"
  return algorithm.removesuffix(SIMULTANEOUS)


def final_values(frame: pd.DataFrame, variant: Variant) -> pd.DataFrame:
  """[algorithm] x metric: ``variant``'s final NashConv and alpha, mean
  over runs (algorithms in sorted order)."""
  return final_means(variant_frame(frame, variant), by=("algorithm",))


def _finals(results: RunResults, variant: Variant, paper_variant: Variant
            ) -> tuple[pd.DataFrame, pd.DataFrame | None] | None:
  """(``variant``'s final means by setting name, the paper setting's when
  ``variant`` is an ablation and the paper setting ran), or None when
  ``variant`` did not run."""
  ran = variants_run((paper_variant, variant), results.settings)
  if variant not in ran:
    return None
  final = final_values(results.frame, variant).rename(index=base_name)
  paper = None
  if variant is not paper_variant and paper_variant in ran:
    paper = final_values(results.frame, paper_variant).rename(index=base_name)
  return final, paper


def preference_alpha_measurement(results: RunResults, *, variant: Variant,
                                 paper_variant: Variant) -> Measurement | None:
  """delta(Bet) raises alpha above CFR's, delta(Pass) lowers it (value:
  [every Bet setting above, every Pass setting below])."""
  finals = _finals(results, variant, paper_variant)
  if finals is None:
    return None
  final, paper = finals
  cfr_alpha = final.loc["CFR", "kuhn_alpha"]
  up = all(final.loc[n, "kuhn_alpha"] > cfr_alpha
           for n in final.index if "Bet" in n)
  down = all(final.loc[n, "kuhn_alpha"] < cfr_alpha
             for n in final.index if "Pass" in n)
  ours = "final alpha: " + ", ".join(
      f"{n} {final.loc[n, 'kuhn_alpha']:.3f}" for n in final.index)
  if paper is not None:
    shift = (final["kuhn_alpha"] - paper["kuhn_alpha"]).abs()
    ours += (f"; alpha moves by at most {shift.max():.3f} "
             f"({shift.idxmax()}) from the paper setting")
  return Measurement(ours, [up, down], variant.label)


def convergence_verdict(value: tuple[float, float]) -> str:
  """(worst setting's final NashConv, CFR's) -> the verdict."""
  worst, cfr = value
  if worst <= CONVERGENCE_RATIO * cfr + CONVERGENCE_SLACK:
    return "holds"
  return "holds partly" if worst <= CONVERGED else "does not hold"


def convergence_measurement(results: RunResults, *, variant: Variant,
                            paper_variant: Variant) -> Measurement | None:
  """Pref-CFR's final NashConv against CFR's (value: (the worst setting's,
  CFR's) for :func:`convergence_verdict`)."""
  finals = _finals(results, variant, paper_variant)
  if finals is None:
    return None
  final, paper = finals
  cfr = final.loc["CFR", "nash_conv"]
  names = ([n for n in final.index if "Bet" in n] +
           [n for n in final.index if "Pass" in n])
  conv = {n: final.loc[n, "nash_conv"] for n in names}
  worst = max(conv.values())
  ours = (f"final NashConv: CFR {cfr:.2g}, worst Pref-CFR setting "
          f"{worst:.2g}; relative to CFR: " + ", ".join(
              f"{n} {v / cfr:.1f}x" for n, v in conv.items()) +
          f" (holds: every setting within {CONVERGENCE_RATIO:g}x CFR's; "
          f"holds partly: every setting below {CONVERGED:g}, converged but "
          "slower)")
  if paper is not None:
    ours += "; NashConv relative to the paper setting's: " + ", ".join(
        f"{n} {final.loc[n, 'nash_conv'] / paper.loc[n, 'nash_conv']:.2g}x"
        for n in final.index if n in paper.index)
  return Measurement(ours, (worst, cfr), variant.label)


def rm_br_measurement(results: RunResults, *, variant: Variant,
                      paper_variant: Variant) -> Measurement | None:
  """Pref-CFR(RM) moves alpha less from CFR's than Pref-CFR(BR) at the
  same delta (value: one case per preferred action); None when a pair did
  not run."""
  finals = _finals(results, variant, paper_variant)
  if finals is None:
    return None
  final = finals[0]
  if not all(name in final.index for pair, _ in RM_BR_PAIRS for name in pair):
    return None
  cfr_alpha = final.loc["CFR", "kuhn_alpha"]
  shifts = [(action, abs(final.loc[rm, "kuhn_alpha"] - cfr_alpha),
             abs(final.loc[br, "kuhn_alpha"] - cfr_alpha))
            for (rm, br), action in RM_BR_PAIRS]
  return Measurement(
      "shift from CFR's alpha, RM vs BR at delta 5: " + "; ".join(
          f"{action} {rm:.3f} vs {br:.3f}" for action, rm, br in shifts),
      [rm < br for _, rm, br in shifts], variant.label)


# ------------------------------------------ section 5.1: the paper's CFR
def final_exploitability(frame: pd.DataFrame) -> pd.Series:
  """Each run's exploitability at its last iteration, in the paper's
  sense (eq. 3: the mean over players of the best-response gains,
  NashConv / 2 on Kuhn), indexed by seed (one algorithm's runs)."""
  conv = frame[frame.metric == "nash_conv"]
  last = conv[conv.iteration == conv.groupby("seed")["iteration"]
              .transform("max")]
  return last.set_index("seed")["value"] / 2


def exploitability_verdict(value: tuple[float, float] | None) -> str:
  """(the largest final exploitability over runs, the mean) -> holds when
  every run is below PAPER_KUHN_EXPLOITABILITY, partly when the mean is."""
  if value is None:
    return "not run"
  largest, mean = value
  if largest < PAPER_KUHN_EXPLOITABILITY:
    return "holds"
  return ("holds partly" if mean < PAPER_KUHN_EXPLOITABILITY
          else "does not hold")


def cfr_exploitability_measurements(results: RunResults, *,
                                    variants: Sequence[Variant],
                                    cfr_of: dict[str, str] | None = None
                                    ) -> list[Measurement]:
  """Section 5.1: CFR's final exploitability on Kuhn in each variant run
  (value: (largest over runs, mean), for :func:`exploitability_verdict`).

  Args:
    results: the run.
    variants: the experiment's variants.
    cfr_of: {variant name: its CFR's algorithm} (None: each variant's
      first algorithm).

  Returns:
    One measurement per variant run.
  """
  measurements = []
  for variant in variants_run(variants, results.settings):
    algorithm = (cfr_of or {}).get(variant.name, variant.algorithms[0])
    part = results.frame[results.frame.algorithm == algorithm]
    if part.empty:
      continue
    values = final_exploitability(part)
    iterations = int(part.iteration.max())
    ours = (f"{base_name(algorithm)}: mean {values.mean():.2g}, largest "
            f"{values.max():.2g} over {len(values)} runs after "
            f"{iterations:,} iterations (the paper: {PAPER_KUHN_ITERATIONS:,}"
            f"); exploitability = NashConv / 2 (holds: every run below "
            f"{PAPER_KUHN_EXPLOITABILITY:g}; holds partly: the mean)")
    measurements.append(Measurement(
        ours, (float(values.max()), float(values.mean())), variant.label))
  return measurements


def kuhn_exploitability_claim(variants: Sequence[Variant],
                              evidence) -> ClaimSpec:
  """The claim of section 5.1 that CFR takes Kuhn's exploitability below
  PAPER_KUHN_EXPLOITABILITY in PAPER_KUHN_ITERATIONS iterations, judged on
  ``variants`` (see :func:`cfr_exploitability_measurements`).

  Args:
    variants: the variants whose CFR is judged.
    evidence: the claim's evidence (a figure).

  Returns:
    The claim.
  """
  return ClaimSpec(
      PAPER, "CFR reduces Kuhn poker's exploitability below "
      f"{PAPER_KUHN_EXPLOITABILITY:g} after {PAPER_KUHN_ITERATIONS:,} "
      "iterations (section 5.1)",
      f"< {PAPER_KUHN_EXPLOITABILITY:g} after {PAPER_KUHN_ITERATIONS:,} "
      "iterations",
      functools.partial(cfr_exploitability_measurements, variants=variants),
      exploitability_verdict, evidence)


# The (smaller, larger) preference degree pairs of Fig. 4, same action and
# rule, and the bound of alpha each pushes towards.
DEGREE_PAIRS = ((("Pref-CFR(BR) Bet x5", "Pref-CFR(BR) Bet x10"), 1 / 3),
                (("Pref-CFR(BR) Pass x5", "Pref-CFR(BR) Pass x10"), 0.0))
# Within this of alpha's bound, both settings have reached the end of the
# equilibrium family and cannot move further apart.
AT_BOUND = 0.005


def larger_degree_measurement(results: RunResults, *, variant: Variant,
                              paper_variant: Variant
                              ) -> Measurement | None:
  """Section 5.1: the larger preference degree moves alpha further from
  CFR's than the smaller, for Bet and for Pass (value: one case per pair
  not already at alpha's bound); None when a pair did not run."""
  finals = _finals(results, variant, paper_variant)
  if finals is None:
    return None
  final = finals[0]
  if not all(name in final.index for pair, _ in DEGREE_PAIRS
             for name in pair):
    return None
  cfr_alpha = final.loc["CFR", "kuhn_alpha"]
  cases, texts = [], []
  for (smaller, larger), bound in DEGREE_PAIRS:
    low, high = (abs(final.loc[name, "kuhn_alpha"] - cfr_alpha)
                 for name in (smaller, larger))
    text = f"{smaller} {low:.3f} vs {larger} {high:.3f}"
    if all(abs(final.loc[name, "kuhn_alpha"] - bound) <= AT_BOUND
           for name in (smaller, larger)):
      texts.append(text + f" (both at alpha = {bound:.3g}: not judged)")
      continue
    cases.append(high > low)
    texts.append(text)
  return Measurement("shift of the final alpha from CFR's: " +
                     "; ".join(texts), cases, variant.label)
