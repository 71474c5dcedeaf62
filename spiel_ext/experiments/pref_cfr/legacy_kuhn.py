"""The Pref-CFR paper's experiments.

Qi Ju, Thomas Tellier, Meng Sun, Zhemei Fang, Yunfeng Luo, "Preference-CFR:
Beyond Nash Equilibrium for Better Game Strategies", ICML 2025,
arXiv:2411.01217.

- ``pref_cfr_kuhn_alpha``: Figure 3. Vanilla CFR from random initial
  cumulative regrets and policies on Kuhn poker: NashConv and alpha (player
  1's Bet probability with the Jack, the parameter of Kuhn's equilibrium
  family) vs iterations, mean and 90% band over the runs, and the
  distribution of the final alpha. The paper states that every run ends
  near alpha = 0.2 "regardless of the initial strategy".
- ``pref_cfr_kuhn_settings``: Figure 4. The six Pref-CFR settings of
  section 5.1 (BR delta(Bet) = 10 and 5, RM delta(Bet) = 5, RM delta(Pass)
  = 5, BR delta(Pass) = 5 and 10 at player 1's first decisions) from random
  starts, with plain CFR as the reference: NashConv and alpha vs
  iterations.

The paper setting is the authors' code (Zealoter/PrefCFR): OpenSpiel's CFR
with simultaneous updates and uniform averaging, cumulative regrets and
policies drawn from U(0, 1). Our alternating updates and heavier starts run
beside it as labelled ablations.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from spiel_ext.experiments.solvers import PREF_CFR_KUHN_SETTINGS
from spiel_ext.experiments.spec import (Experiment, Scale, Settings,
                                        command_for)
from spiel_ext.results.figures import histogram_figure, line_figure
from spiel_ext.results.report import PAPER_SETTING, Choice, Claim, Variant
from spiel_ext.results.tables import write_table

_PAPER = "Pref-CFR (Ju, Tellier, Sun, Fang, Luo 2025)"
_NEAR = 0.02  # |alpha - 0.2| that counts as "near 0.2".
# The share of runs within _NEAR of 0.2 for "holds": the paper's Fig. 3
# draws a 90% band, so it shows 90% of its runs, not all of them.
_HOLDS_SHARE = 0.9

# ------------------------------------------------- settings of Figs. 3-4
_SCHEDULE = Choice(
    "CFR update schedule", "not stated",
    "simultaneous: OpenSpiel's _CFRSolver(alternating_updates=False, "
    "regret_matching_plus=False, linear_averaging=False) (algorithm/"
    "CFR.py:25-30)", "simultaneous", "alternating (OpenSpiel's default)")
_START = Choice(
    "random start", "\"a random distribution\"",
    "cumulative regrets and cumulative policy U(0, 1) per (infoset, "
    "action) (CFR.py:7-8,16-17); first iterate OpenSpiel's uniform current "
    "policy", "U(0, 1) regrets and policy; first iterate regret matching "
    "on them (measured: no difference)", "U(0, 10), U(0, 100): \"regardless "
    "of the initial strategy\"")
_AVERAGING = Choice("averaging", "not stated",
                    "uniform (linear_averaging=False)", "uniform")
_ITERATIONS = Choice("iterations", "10,000", "10,000 (Kuhn)", "10,000")
_ALPHA = Choice("what is evaluated", "alpha = sigma(J_, Bet) after 10,000 "
                "iterations; NashConv", "the average policy",
                "alpha of the average policy; NashConv (BR0 + BR1)")


def _variant_frame(frame: pd.DataFrame, variant: Variant) -> pd.DataFrame:
  return frame[frame.algorithm.isin(variant.algorithms)]


def final_alphas(frame: pd.DataFrame) -> pd.Series:
  """Each run's alpha at its last iteration, indexed by seed (one
  algorithm's runs)."""
  alpha = frame[frame.metric == "kuhn_alpha"]
  last = alpha[alpha.iteration == alpha.groupby("seed")["iteration"]
               .transform("max")]
  return last.set_index("seed")["value"]


def near_share(alphas: pd.Series) -> float:
  """The share of runs whose final alpha is within 0.02 of 0.2."""
  return float((np.abs(alphas - 0.2) <= _NEAR).mean())


def final_means(frame: pd.DataFrame) -> pd.DataFrame:
  """[algorithm] x metric: the mean over runs at the last iteration."""
  last = frame[frame.iteration == frame.groupby(
      ["algorithm", "metric"])["iteration"].transform("max")]
  return last.pivot_table(index="algorithm", columns="metric",
                          values="value", aggfunc="mean")


_ALPHA_VARIANTS = (
    Variant(PAPER_SETTING, ("CFR (simultaneous)",),
            "simultaneous updates, U(0, 1) start (the authors' code)"),
    Variant("alternating updates", ("CFR",), "U(0, 1) start"),
    Variant("U(0, 10) start", ("CFR (simultaneous, U(0,10))",),
            "simultaneous updates"),
    Variant("U(0, 100) start", ("CFR (simultaneous, U(0,100))",),
            "simultaneous updates"),
)


def alpha_statistics(frame: pd.DataFrame,
                     variants: list[Variant]) -> pd.DataFrame:
  """One row per variant: runs, mean, sd, min, max of the final alpha and
  the share within 0.02 of 0.2."""
  rows = []
  for variant in variants:
    alphas = final_alphas(_variant_frame(frame, variant))
    rows.append({"setting": variant.label, "algorithm": variant.algorithms[0],
                 "runs": len(alphas), "mean": alphas.mean(),
                 "sd": alphas.std(), "min": alphas.min(), "max": alphas.max(),
                 f"share within {_NEAR} of 0.2": near_share(alphas)})
  return pd.DataFrame(rows)


def summarize_alpha(frame: pd.DataFrame, settings: Settings,
                    folder: Path) -> tuple[list[Path], list[Path]]:
  variants = PREF_CFR_KUHN_ALPHA.variants_run(settings)
  order = [v.algorithms[0] for v in variants]
  figures = line_figure(frame, "nash_conv", folder / "figures" / "nash_conv",
                        line_order=order, title="CFR on Kuhn from random "
                        "starts: NashConv (Pref-CFR paper, Fig. 3 left)")
  figures += line_figure(
      frame, "kuhn_alpha", folder / "figures" / "alpha", log_y=False,
      line_order=order, title="CFR on Kuhn: alpha = P(Bet | Jack, first "
      "decision) (Fig. 3 right)",
      reference={"alpha = 0.2 (the paper's claim)": 0.2})
  for variant in variants:
    alphas = final_alphas(_variant_frame(frame, variant))
    suffix = "" if variant.is_paper_setting else f"_{variant.slug}"
    figures += histogram_figure(
        alphas, folder / "figures" / f"final_alpha_histogram{suffix}",
        xlabel="final alpha", value_range=(0.0, 1 / 3), bins=20,
        title=f"Final alpha of {len(alphas)} CFR runs after "
        f"{int(frame.iteration.max())} iterations ({variant.label})",
        reference={"0.2 (the paper's claim)": 0.2,
                   "equilibrium range [0, 1/3]": 1 / 3})
  tables = write_table(alpha_statistics(frame, variants),
                       folder / "tables" / "final_alpha",
                       caption="Final alpha over CFR runs from random "
                       "starts, per setting")
  return figures, tables


def _alpha_verdict(share: float) -> str:
  return ("holds" if share >= _HOLDS_SHARE else
          "holds partly" if share >= 0.5 else "does not hold")


def alpha_claims(frame: pd.DataFrame, settings: Settings,
                 folder: Path) -> list[Claim]:
  """Fig. 3 on the paper setting, then each ablation with how far it
  moves the share of runs near 0.2."""
  del folder
  command = command_for(settings)
  iterations = int(frame.iteration.max())
  claims, paper_share = [], None
  for variant in PREF_CFR_KUHN_ALPHA.variants_run(settings):
    alphas = final_alphas(_variant_frame(frame, variant))
    share = near_share(alphas)
    ours = (f"{share:.0%} of {len(alphas)} runs within {_NEAR} of 0.2; "
            f"final alpha mean {alphas.mean():.3f}, range "
            f"[{alphas.min():.3f}, {alphas.max():.3f}] after {iterations} "
            f"iterations ({variant.description})")
    if variant.is_paper_setting:
      paper_share = share
      ours += (f" (holds: at least {_HOLDS_SHARE:.0%} of runs, the paper's "
               "90% band; holds partly: at least half)")
    elif paper_share is not None:
      ours += (f"; moves the share by {100 * (share - paper_share):+.0f} "
               "points from the paper setting")
    claims.append(Claim(
        _PAPER, "CFR from any initial strategy converges to alpha = 0.2 on "
        "Kuhn poker (Fig. 3)", "all 100 runs near 0.2", ours,
        _alpha_verdict(share),
        "pref_cfr_kuhn_alpha/tables/final_alpha.md", command,
        variant.label))
  return claims


PREF_CFR_KUHN_ALPHA = Experiment(
    name="pref_cfr_kuhn_alpha",
    description="Pref-CFR Fig. 3: CFR from random starts on Kuhn, NashConv "
                "and alpha vs iterations, distribution of the final alpha; "
                "the authors' simultaneous schedule, alternating updates "
                "and heavier starts beside it",
    quick=Scale(iterations=2000, seeds=20, games=("kuhn_poker",),
                algorithms=("CFR (simultaneous)", "CFR")),
    paper=Scale(iterations=10_000, seeds=100, games=("kuhn_poker",),
                algorithms=tuple(v.algorithms[0] for v in _ALPHA_VARIANTS)),
    metrics=("nash_conv", "kuhn_alpha"),
    summarize=summarize_alpha,
    cost="quick: about 30 s; paper: about 10 minutes with --workers=2",
    claims=alpha_claims,
    choices=(_SCHEDULE, _START, _AVERAGING, _ITERATIONS,
             Choice("runs", "100", "12 seeds checked (authors' code)",
                    "100 per setting"), _ALPHA),
    variants=_ALPHA_VARIANTS)


_ALTERNATING_SETTINGS = ("CFR",) + tuple(PREF_CFR_KUHN_SETTINGS)
_SIMULTANEOUS_SETTINGS = ("CFR (simultaneous)",) + tuple(
    f"{name} (simultaneous)" for name in PREF_CFR_KUHN_SETTINGS)
_SETTINGS_VARIANTS = (
    Variant(PAPER_SETTING, _SIMULTANEOUS_SETTINGS,
            "simultaneous updates, U(0, 1) start (the authors' code)"),
    Variant("alternating updates", _ALTERNATING_SETTINGS, "U(0, 1) start"),
)


def _base_name(algorithm: str) -> str:
  """The setting's name without its schedule: "Pref-CFR(BR) Bet x5"."""
  if algorithm == "CFR (simultaneous)":
    return "CFR"
  return algorithm.removesuffix(" (simultaneous)")


def summarize_settings(frame: pd.DataFrame, settings: Settings,
                       folder: Path) -> tuple[list[Path], list[Path]]:
  figures, tables = [], []
  for variant in PREF_CFR_KUHN_SETTINGS_EXPERIMENT.variants_run(settings):
    part = _variant_frame(frame, variant)
    suffix = "" if variant.is_paper_setting else "_alternating"
    schedule = variant.description.split(",")[0]
    figures += line_figure(part, "nash_conv",
                           folder / "figures" / f"nash_conv{suffix}",
                           line_order=list(variant.algorithms),
                           title="Pref-CFR settings on Kuhn: NashConv "
                           f"(Pref-CFR paper, Fig. 4; {schedule})")
    figures += line_figure(part, "kuhn_alpha",
                           folder / "figures" / f"alpha{suffix}",
                           line_order=list(variant.algorithms), log_y=False,
                           title=f"Pref-CFR settings on Kuhn: alpha (Fig. 4; "
                           f"{schedule})")
    table = final_means(part).reindex(list(variant.algorithms)).reset_index()
    tables += write_table(table, folder / "tables" / f"final_values{suffix}",
                          caption="Final NashConv and alpha, mean over runs "
                          f"({variant.label})")
  return figures, tables


def _settings_claims_for(final: pd.DataFrame, variant: Variant, command: str,
                         evidence: str,
                         paper: pd.DataFrame | None = None) -> list[Claim]:
  """Section 5.1's three claims on one variant's final means (indexed by
  the settings' names without the schedule); ``paper``: the paper
  setting's, for an ablation's "how far it moves" note."""
  final = final.rename(index=_base_name)
  cfr_alpha, cfr_conv = final.loc["CFR", "kuhn_alpha"], final.loc[
      "CFR", "nash_conv"]
  bet = [n for n in final.index if "Bet" in n]
  passive = [n for n in final.index if "Pass" in n]
  up = all(final.loc[n, "kuhn_alpha"] > cfr_alpha for n in bet)
  down = all(final.loc[n, "kuhn_alpha"] < cfr_alpha for n in passive)
  alphas = ", ".join(f"{n} {final.loc[n, 'kuhn_alpha']:.3f}"
                     for n in final.index)
  conv = {n: final.loc[n, "nash_conv"] for n in bet + passive}
  worst = max(conv.values())
  ratios = ", ".join(f"{n} {v / cfr_conv:.1f}x" for n, v in conv.items())
  moved_alpha = moved_conv = ""
  if paper is not None:
    paper = paper.rename(index=_base_name)
    shift = (final["kuhn_alpha"] - paper["kuhn_alpha"]).abs()
    moved_alpha = (f"; alpha moves by at most {shift.max():.3f} "
                   f"({shift.idxmax()}) from the paper setting")
    moved_conv = ("; NashConv relative to the paper setting's: " + ", ".join(
        f"{n} {final.loc[n, 'nash_conv'] / paper.loc[n, 'nash_conv']:.2g}x"
        for n in final.index if n in paper.index))
  claims = [
      Claim(_PAPER, "delta(Bet) raises alpha and delta(Pass) lowers it "
            "(Fig. 4)", "qualitative (Fig. 4)",
            f"final alpha: {alphas}{moved_alpha}",
            "holds" if up and down else "holds partly" if up or down
            else "does not hold", evidence, command, variant.label),
      Claim(_PAPER, "Pref-CFR converges like CFR (NashConv, Fig. 4)",
            "comparable to CFR, except BR Bet x10",
            f"final NashConv: CFR {cfr_conv:.2g}, worst Pref-CFR setting "
            f"{worst:.2g}; relative to CFR: {ratios} (holds: every setting "
            "within 3x CFR's; holds partly: every setting below 0.01, "
            f"converged but slower){moved_conv}",
            "holds" if worst <= 3 * cfr_conv + 1e-3 else
            "holds partly" if worst <= 0.01 else "does not hold", evidence,
            command, variant.label)]
  pairs = [("Pref-CFR(RM) Bet x5", "Pref-CFR(BR) Bet x5"),
           ("Pref-CFR(RM) Pass x5", "Pref-CFR(BR) Pass x5")]
  if all(name in final.index for pair in pairs for name in pair):
    weaker = [abs(final.loc[rm, "kuhn_alpha"] - cfr_alpha) <
              abs(final.loc[br, "kuhn_alpha"] - cfr_alpha)
              for rm, br in pairs]
    claims.append(Claim(
        _PAPER, "Pref-CFR(RM) shifts alpha less than Pref-CFR(BR) at the "
        "same delta (section 5.1)", "qualitative",
        "shift from CFR's alpha, RM vs BR at delta 5: " + "; ".join(
            f"{action} {abs(final.loc[rm, 'kuhn_alpha'] - cfr_alpha):.3f} "
            f"vs {abs(final.loc[br, 'kuhn_alpha'] - cfr_alpha):.3f}"
            for (rm, br), action in zip(pairs, ("Bet", "Pass"))),
        "holds" if all(weaker) else "holds partly" if any(weaker)
        else "does not hold", evidence, command, variant.label))
  return claims


def settings_claims(frame: pd.DataFrame, settings: Settings,
                    folder: Path) -> list[Claim]:
  """Section 5.1 on the paper setting and on each ablation."""
  del folder
  command = command_for(settings)
  claims, paper = [], None
  for variant in PREF_CFR_KUHN_SETTINGS_EXPERIMENT.variants_run(settings):
    suffix = "" if variant.is_paper_setting else "_alternating"
    final = final_means(_variant_frame(frame, variant))
    claims += _settings_claims_for(
        final, variant, command,
        f"pref_cfr_kuhn_settings/tables/final_values{suffix}.md",
        None if variant.is_paper_setting else paper)
    if variant.is_paper_setting:
      paper = final
  return claims


PREF_CFR_KUHN_SETTINGS_EXPERIMENT = Experiment(
    name="pref_cfr_kuhn_settings",
    description="Pref-CFR Fig. 4: six preference settings at player 1's "
                "first decisions on Kuhn vs CFR, NashConv and alpha, on the "
                "authors' simultaneous schedule and with alternating updates",
    quick=Scale(iterations=2000, seeds=8, games=("kuhn_poker",),
                algorithms=_SIMULTANEOUS_SETTINGS),
    paper=Scale(iterations=10_000, seeds=30, games=("kuhn_poker",),
                algorithms=_SIMULTANEOUS_SETTINGS + _ALTERNATING_SETTINGS),
    metrics=("nash_conv", "kuhn_alpha"),
    summarize=summarize_settings,
    cost="quick: about 30 s; paper: about 10 minutes with --workers=2",
    claims=settings_claims,
    choices=(_SCHEDULE, _START, _AVERAGING,
             _ITERATIONS, Choice("runs", "30 per setting", "-",
                                 "30 per setting"),
             Choice("preference degrees", "delta(Bet) 10, 5 (BR), 5 (RM); "
                    "delta(Pass) 5 (RM), 5, 10 (BR) at player 1's first "
                    "decisions; 1 elsewhere", "the same",
                    "the same; beta = 0"), _ALPHA),
    variants=_SETTINGS_VARIANTS)
