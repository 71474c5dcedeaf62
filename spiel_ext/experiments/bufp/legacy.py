"""The BUFP paper's experiments.

Qi Ju, Zhemei Fang, Yunfeng Luo, "Beyond Nash Equilibrium: Achieving
Bayesian Perfect Equilibrium with Belief Update Fictitious Play", DDCLS
2024, arXiv:2409.02706.

- ``bufp_convergence``: Figure 1 (NashConv vs iterations) and Figure 2 (the
  perfect-Bayesian gap, the paper's "total exploitability", vs iterations)
  on Kuhn and Leduc, 30 runs each. The paper's CFR is RLCard's CFR agent
  (chance-sampled, uniform start: "CS-CFR"); full-width CFR from the uniform
  start is the deterministic reference. BUFP(EF), BUFP(X) and XFP run from
  random starts with step 1/(t+1) and, as the authors' code does, with a
  first step of size 1 (step 1/t) and ties split evenly. From a
  full-support start BUFP(X) is XFP exactly; the first step of size 1
  leaves infosets off path, where they differ.
- ``bufp_tables``: Tables 1-2 (5-rank Leduc head-to-head at the root and
  with player 1 forced to Call) and section 5.2's percentages, on RLCard's
  rules and on the authors' later rules (no fold when checking is legal),
  at several iteration counts, mean and spread over seed pairs.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pandas as pd

from spiel_ext.experiments.spec import (Experiment, Scale, Settings,
                                        command_for, load_snapshots)
from spiel_ext.results.figures import line_figure
from spiel_ext.results.labels import game_label
from spiel_ext.results.report import (PAPER_SETTING, Choice, Claim, Variant,
                                      verdict_from)
from spiel_ext.results.tables import write_table

_PAPER = "BUFP (Ju, Fang, Luo 2024)"
_RLCARD_CFR = "CS-CFR"
_UNIFORM_CFR = "CFR (uniform)"
_FIRST_STEP = " (first step 1)"
_FP = ("BUFP(EF)", "BUFP(X)", "XFP")
_ALGORITHMS = ((_RLCARD_CFR, _UNIFORM_CFR) + _FP +
               tuple(name + _FIRST_STEP for name in _FP) +
               ("CS-CFR (independent draws)",))
_QUICK_ALGORITHMS = (_RLCARD_CFR, _UNIFORM_CFR) + _FP + tuple(
    name + _FIRST_STEP for name in _FP)
# Section 5.1: "we concentrate on Kuhn poker and Leduc poker".
_GAMES = ("kuhn_poker", "leduc_poker")

CONVERGENCE_VARIANTS = (
    Variant(f"{PAPER_SETTING} (random starts, step 1/(t+1))",
            (_RLCARD_CFR,) + _FP,
            "RLCard's CFR; BUFP and XFP from Dirichlet(1) starts with the "
            "EFFP/XFP step 1/(t+1)"),
    Variant(f"{PAPER_SETTING} (authors' first step 1)",
            (_RLCARD_CFR,) + tuple(name + _FIRST_STEP for name in _FP),
            "BUFP and XFP with the authors' step 1/t (the random start is "
            "replaced by the first decision) and ties split evenly"),
    Variant("full-width uniform CFR", (_UNIFORM_CFR,) + _FP,
            "deterministic full-width CFR from the uniform start in place "
            "of RLCard's sampled CFR"),
    Variant("independent chance draws", ("CS-CFR (independent draws)",)
            + _FP, "sampled CFR drawing every chance node independently "
            "and averaging at every infoset (our earlier sampled CFR)"),
)

CONVERGENCE_CHOICES = (
    Choice("CFR baseline",
           "\"Our simulations adhere to the rlcard framework\" (section "
           "5.1); 30 runs with a 90% band for every algorithm, CFR included",
           "RLCard's CFRAgent (rlcard/agents/cfr_agent.py), trained by the "
           "authors' prototype (rlcard_cfr_ledec.py in Zealoter/BUFP)",
           "CS-CFR: chance-sampled CFR as RLCard's agent runs it (below)",
           "full-width CFR from the uniform start (ablation: full-width "
           "uniform CFR; one run, it is deterministic)"),
    Choice("CFR iteration",
           "not stated",
           "cfr_agent.py:35-44: one traversal per player, each after "
           "env.reset() (a new deal), policy updated once after both "
           "(simultaneous); :84-95 regret += opponents' reach x (u(a) - u); "
           ":97 average += t x own reach x sigma at the infosets the deal "
           "visits; :118-119 no positive regret -> uniform; the deck is "
           "restored on each step back (games/leducholdem/game.py:190), so "
           "every branch sees the same public card",
           "the same: one draw per chance depth per traversal, average "
           "only where the deal goes, linear weights, simultaneous",
           "independent draws at every chance node and the average at "
           "every infoset (ablation: independent chance draws)"),
    Choice("CFR infosets",
           "not stated",
           "RLCard's Leduc observation is hand, public card and both chip "
           "counts (envs/leducholdem.py:60-64), not the betting history; "
           "the small blind is drawn at random each hand "
           "(games/leducholdem/game.py:69-76)",
           "ours: perfect-recall infosets of OpenSpiel's games (no "
           "abstraction; the engine's infosets)", ""),
    Choice("BUFP/XFP start and step",
           "30 runs (random starts); EFFP step t/(t+1) for BUFP(EF)",
           "SPFP.py:44,48,177,209: learning rate 1, then 1/2, 1/3, ...: the "
           "random start (SPFP.py, Node.add_son) is replaced by the first decision",
           "both readings run as paper settings: Dirichlet(1) start with "
           "step 1/(t+1), and the authors' first step 1",
           ""),
    Choice("ties",
           "not stated",
           "SPFP.py:93-99: an even split among exact maximisers",
           "lowest action (OpenSpiel's XFP) with step 1/(t+1); even split "
           "with the authors' first step 1", ""),
    Choice("games", "Kuhn and Leduc poker (section 5.1)",
           "3-card toy Leduc in the prototype", "OpenSpiel's kuhn_poker "
           "and leduc_poker", ""),
    Choice("iterations and runs",
           "30 runs; the horizon is not stated",
           "no public Figs. 1-2 code",
           "20,000 iterations (the curves are flat on a log axis by then), "
           "30 seeds, ~8 log-spaced evaluation points per decade; one "
           "worker runs it in about 30 minutes (per iteration on Leduc: "
           "0.2-0.5 ms)", ""),
    Choice("what is evaluated",
           "exploitability (Fig. 1) and total exploitability (Fig. 2) of "
           "the average strategy",
           "no public Figs. 1-2 code",
           "NashConv and the mean perfect-Bayesian gap over infosets "
           "(off-path beliefs: chance x uniform opponents), exact", ""),
)


def final_values(frame: pd.DataFrame, metrics) -> pd.DataFrame:
  """One row per game and algorithm: the iteration reached and, for each
  metric, "mean [5th, 95th percentile]" over seeds at the last iteration."""
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
  table["game"] = table["game"].map(game_label)
  return table[["game", "algorithm", "iteration"] +
               [m for m in metrics if m in table.columns]]


def summarize_convergence(frame: pd.DataFrame, settings: Settings,
                          folder: Path) -> tuple[list[Path], list[Path]]:
  order = [a for a in _ALGORITHMS if a in settings.algorithms]
  order += [a for a in settings.algorithms if a not in order]
  dashed = [a for a in order if a.startswith("XFP") or a == _UNIFORM_CFR]
  figures = line_figure(
      frame, "nash_conv", folder / "figures" / "fig1_nash_conv",
      line_order=order, dashed=dashed,
      title="NashConv vs iterations (BUFP paper, Fig. 1; mean and 90% band "
      "over runs)")
  figures += line_figure(
      frame, "sequential_gap_mean", folder / "figures" / "fig2_sequential_gap",
      line_order=order, dashed=dashed,
      title="Perfect-Bayesian gap vs iterations (BUFP paper, Fig. 2; mean "
      "over infosets)")
  tables = write_table(final_values(frame, settings.metrics),
                       folder / "tables" / "final_values",
                       caption="Final NashConv and perfect-Bayesian gap "
                       "(mean and 5-95% range over runs)")
  return figures, tables


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


def _lead_text(result, better: str, worse: str) -> str:
  mean_from, band_from, last = result
  if mean_from is None:
    return f"{better} not below {worse} at {last:,}"
  text = f"{better} below {worse} from it. {mean_from:,}"
  text += (f", 90% bands apart from {band_from:,}" if band_from is not None
           else ", bands overlap at the end")
  return text


def _relative_spread(frame, game, algorithm) -> pd.Series:
  bands = curve_bands(frame, game, algorithm, "nash_conv")
  return (bands.high - bands.low) / bands["mean"]


def convergence_claims(frame: pd.DataFrame, settings: Settings,
                       folder: Path) -> list[Claim]:
  """Section 5.1, judged over the whole curves, for every variant run."""
  del folder
  command = command_for(settings)
  games = list(dict.fromkeys(frame.game))
  horizon = int(frame.iteration.max())
  present = set(frame.algorithm)
  claims = []
  fig1 = "bufp_convergence/figures/fig1_nash_conv.png"
  fig2 = "bufp_convergence/figures/fig2_sequential_gap.png"
  runs = f"{settings.seeds} runs, {horizon:,} it."
  variants = [v for v in CONVERGENCE_VARIANTS if set(v.algorithms) <= present]
  if not variants:
    return [Claim(_PAPER, "BUFP(X) converges faster in NashConv than CFR and "
                  "BUFP(EF) (Fig. 1); BUFP(EF) reaches the lowest "
                  "perfect-Bayesian gap (Fig. 2)", "qualitative (Figs. 1-2)",
                  "no variant's algorithms all ran", "not run", fig1,
                  command)]
  for variant in variants:
    cfr = variant.algorithms[0]
    ef, x = (name for name in variant.algorithms if name.startswith("BUFP"))
    fast, fast_text, low, low_text, var, var_text = [], [], [], [], [], []
    for game in games:
      label = game_label(game)
      versus = [stays_below(frame, game, "nash_conv", x, other)
                for other in (cfr, ef)]
      fast.append(all(r[0] is not None and r[0] <= horizon // 10
                      for r in versus))
      fast_text.append(f"{label}: " + "; ".join(
          _lead_text(r, x, other) for r, other in zip(versus, (cfr, ef))))
      gaps = [stays_below(frame, game, "sequential_gap_mean", ef, other)
              for other in (x, cfr)]
      low.append(all(r[0] is not None for r in gaps))
      low_text.append(f"{label}: " + "; ".join(
          _lead_text(r, ef, other) for r, other in zip(gaps, (x, cfr))))
      ef_spread, x_spread = (_relative_spread(frame, game, name)
                             for name in (ef, x))
      shared = ef_spread.index.intersection(x_spread.index)
      wider = ef_spread[shared] > x_spread[shared]
      var.append(bool(wider.mean() > 0.5))
      var_text.append(f"{label}: wider at {int(wider.sum())}/{len(shared)} "
                      f"points, at the end {ef_spread.iloc[-1]:.2f} vs "
                      f"{x_spread.iloc[-1]:.2f}")
    claims += [
        Claim(_PAPER, "BUFP(X) converges faster in NashConv than CFR and "
              "BUFP(EF) (Fig. 1): stays below both from the first tenth of "
              "the run on", "qualitative (Fig. 1)",
              f"mean NashConv over {runs}: " + " | ".join(fast_text),
              verdict_from(fast), fig1, command, variant.label),
        Claim(_PAPER, "BUFP(EF) reaches the lowest perfect-Bayesian gap "
              "(total exploitability, Fig. 2): stays below BUFP(X) and CFR "
              "to the end", "qualitative (Fig. 2)",
              f"mean gap over infosets, {runs}: " + " | ".join(low_text),
              verdict_from(low), fig2, command, variant.label),
        Claim(_PAPER, "BUFP(EF)'s NashConv varies considerably (Fig. 1): "
              "its relative 5-95% band is wider than BUFP(X)'s at most "
              "evaluation points", "qualitative (Fig. 1)",
              "; ".join(var_text), verdict_from(var),
              "bufp_convergence/tables/final_values.md", command,
              variant.label)]
  claims += _equivalence_claims(frame, games, settings, command)
  return claims


def _final_mean(frame, game, algorithm, metric) -> float:
  rows = frame[(frame.game == game) & (frame.algorithm == algorithm) &
               (frame.metric == metric)]
  return float(rows[rows.iteration == rows.iteration.max()].value.mean())


def _equivalence_claims(frame, games, settings, command) -> list[Claim]:
  """Ours: BUFP(X) vs XFP under both starts (the paper compares neither)."""
  claims = []
  for suffix, text in (("", "random starts, step 1/(t+1)"),
                       (_FIRST_STEP, "the authors' first step 1")):
    x, xfp = "BUFP(X)" + suffix, "XFP" + suffix
    if not {x, xfp} <= set(frame.algorithm):
      continue
    rows = []
    differences = []
    for game in games:
      a, b = (frame[(frame.game == game) & (frame.algorithm == name) &
                    (frame.metric == "nash_conv")].set_index(
                        ["seed", "iteration"]).value for name in (x, xfp))
      difference = float((a - b).abs().max())
      differences.append(difference)
      rows.append(f"{game_label(game)}: largest |difference| "
                  f"{difference:.3g}; final NashConv {a.groupby(level=1).mean().iloc[-1]:.4g} "
                  f"vs {b.groupby(level=1).mean().iloc[-1]:.4g}")
    same = suffix == ""
    holds = [(d == 0.0) == same for d in differences]
    claims.append(Claim(
        "ours", f"BUFP(X) {'equals' if same else 'differs from'} XFP ({text})",
        "not in the paper (full-support starts leave no infoset off path)",
        "; ".join(rows), verdict_from(holds),
        "bufp_convergence/tables/final_values.md", command,
        next(v.label for v in CONVERGENCE_VARIANTS
             if ("first step" in v.name) == (not same))))
  return claims


BUFP_CONVERGENCE = Experiment(
    name="bufp_convergence",
    description="BUFP Figs. 1-2: NashConv and perfect-Bayesian gap vs "
                "iterations on Kuhn and Leduc: RLCard's CFR, full-width "
                "uniform CFR, BUFP(EF), BUFP(X), XFP (random starts and the "
                "authors' first step 1)",
    quick=Scale(iterations=300, seeds=3, games=_GAMES,
                algorithms=_QUICK_ALGORITHMS),
    paper=Scale(iterations=20_000, seeds=30, games=_GAMES,
                algorithms=_ALGORITHMS),
    metrics=("nash_conv", "sequential_gap_mean", "sequential_gap_max"),
    summarize=summarize_convergence,
    cost="quick: about a minute; paper (2 games x 9 algorithms x 30 runs x "
         "20,000 iterations, the uniform CFR one run): about 30 minutes "
         "with --workers=1",
    claims=convergence_claims,
    choices=CONVERGENCE_CHOICES,
    variants=CONVERGENCE_VARIANTS)


# --------------------------------------------------------------- Tables 1-2
RLCARD_LEDUC_5 = ("spiel_ext_leduc(blinds=1 2,fold_always=true,"
                  "round2_first=after_last,ranks=5)")
BIG_BLIND = 2.0
_TABLE_ALGORITHMS = ("CS-CFR", "CFR (uniform)", "BUFP(EF)", "BUFP(X)",
                     "CFR")
# The paper's exploitabilities after 100,000 iterations (mb/h), at which
# the matched-exploitability snapshots are taken.
PAPER_EXPLOITABILITY_MBH = {"CFR": 5.15, "BUFP(EF)": 5.33, "BUFP(X)": 3.16}
PAPER_TABLE_1 = {("CFR", "CFR"): 19.21, ("CFR", "BUFP(EF)"): 20.17,
                 ("CFR", "BUFP(X)"): 17.93, ("BUFP(EF)", "CFR"): 18.34,
                 ("BUFP(EF)", "BUFP(EF)"): 19.02, ("BUFP(EF)", "BUFP(X)"): 17.71,
                 ("BUFP(X)", "CFR"): 20.38, ("BUFP(X)", "BUFP(EF)"): 20.68,
                 ("BUFP(X)", "BUFP(X)"): 19.10}
PAPER_TABLE_2 = {("CFR", "CFR"): -33.86, ("CFR", "BUFP(EF)"): -44.54,
                 ("CFR", "BUFP(X)"): -22.02, ("BUFP(EF)", "CFR"): -5.15,
                 ("BUFP(EF)", "BUFP(EF)"): -20.03, ("BUFP(EF)", "BUFP(X)"): 4.49,
                 ("BUFP(X)", "CFR"): -4.89, ("BUFP(X)", "BUFP(EF)"): -22.37,
                 ("BUFP(X)", "BUFP(X)"): 3.94}


def mbh(chips: float) -> float:
  """Milli-big-blinds per hand: 1000 x chips / big blind (2 chips)."""
  return 1000.0 * chips / BIG_BLIND


def chips_from_mbh(value: float) -> float:
  return value * BIG_BLIND / 1000.0


def head_to_head_cells(game: str, policies: dict[str, list[np.ndarray]],
                       forced: bool) -> dict[tuple[str, str], np.ndarray]:
  """Player 1's (seat 0's) winnings in mb/h for every pair of algorithms,
  one value per pair of seeds; with ``forced``, player 1 is forced to Call
  at its first decision."""
  from spiel_ext import eval as se  # pylint: disable=g-import-not-at-top
  from spiel_ext.algorithms import FirstDecisions  # pylint: disable=g-import-not-at-top
  from spiel_ext.engine import compile_game  # pylint: disable=g-import-not-at-top
  from spiel_ext.eval.forced import force_actions  # pylint: disable=g-import-not-at-top
  tree = compile_game(game)
  first = FirstDecisions(player=0)
  cells = {}
  for row, row_policies in policies.items():
    seat0 = [force_actions(tree, p, first, "Call") if forced else p
             for p in row_policies]
    for column, column_policies in policies.items():
      cells[row, column] = np.array(
          [mbh(se.head_to_head(tree, a, b, seat=0))
           for a in seat0 for b in column_policies])
  return cells


def head_to_head_frame(cells, order) -> pd.DataFrame:
  """The paper's layout: rows "X P1", columns "Y P2", "mean ± sd" cells,
  and the averages over the paper's three algorithms."""
  names = [name for name in order if any(name == r for r, _ in cells)]
  paper = [name for name in names if name in PAPER_EXPLOITABILITY_MBH]
  table = []
  for row in names:
    line = {"": f"{row} P1"}
    for column in names:
      values = cells[row, column]
      line[f"{column} P2"] = f"{values.mean():.2f} ± {values.std():.2f}"
    line["P1 average"] = f"{np.mean([cells[row, c].mean() for c in paper]):.2f}"
    table.append(line)
  average = {"": "P2 average"}
  for column in names:
    average[f"{column} P2"] = (
        f"{np.mean([cells[r, column].mean() for r in paper]):.2f}")
  average["P1 average"] = ""
  table.append(average)
  return pd.DataFrame(table)[list(table[0])]


def deviation_percentages(table1, table2) -> dict[str, float]:
  """The paper's section 5.2: loss recovered by BUFP(EF) as player 1 and
  profit secured as player 2, relative to CFR, and their mean."""
  paper = list(PAPER_EXPLOITABILITY_MBH)

  def row_average(cells, name):
    return np.mean([cells[name, c].mean() for c in paper])

  def column_average(cells, name):
    return np.mean([cells[r, name].mean() for r in paper])

  drop = {n: row_average(table1, n) - row_average(table2, n)
          for n in ("CFR", "BUFP(EF)")}
  gain = {n: column_average(table1, n) - column_average(table2, n)
          for n in ("CFR", "BUFP(EF)")}
  recovered = 100 * (drop["CFR"] - drop["BUFP(EF)"]) / drop["CFR"]
  secured = 100 * (gain["BUFP(EF)"] - gain["CFR"]) / gain["CFR"]
  return {"loss drop CFR": drop["CFR"], "loss drop BUFP(EF)": drop["BUFP(EF)"],
          "recovered loss %": recovered,
          "profit gain CFR": gain["CFR"],
          "profit gain BUFP(EF)": gain["BUFP(EF)"],
          "secured profit %": secured, "mean %": (recovered + secured) / 2}


RLCARD_LEDUC_5_NO_FOLD = RLCARD_LEDUC_5.replace("fold_always=true",
                                                "fold_always=false")
_TABLE_ROLES = ("CFR", "BUFP(EF)", "BUFP(X)")
_RANDOM_CFR_CAP = 20_000

TABLE_VARIANTS = (
    Variant(f"{PAPER_SETTING} (CFR = RLCard's sampled CFR)",
            (_RLCARD_CFR, "BUFP(EF)", "BUFP(X)"),
            "section 5.1's RLCard CFR agent as the CFR of the tables"),
    Variant(f"{PAPER_SETTING} (CFR = full-width uniform CFR)",
            (_UNIFORM_CFR, "BUFP(EF)", "BUFP(X)"),
            "deterministic full-width CFR from the uniform start"),
    Variant("random-start CFR", ("CFR", "BUFP(EF)", "BUFP(X)"),
            "full-width CFR from U(0, 1) regrets (our earlier setting; at "
            f"paper scale run to {_RANDOM_CFR_CAP:,} iterations only)"),
)

TABLE_CHOICES = (
    Choice("CFR baseline", "\"adhere to the rlcard framework\" (section "
           "5.1); nothing more for the tables",
           "no public code for Tables 1-2 (the public repository is a 2022 "
           "prototype)", "both readings: RLCard's sampled CFR and "
           "full-width uniform CFR",
           "random-start full-width CFR (ablation: random-start CFR)"),
    Choice("game rules", "5-Leduc (5 ranks)",
           "RLCard allows a fold when checking is legal; the authors' later "
           "engine (Zealoter/CFVFP, GAME/GameLeduc.py) does not",
           "both, as separate tables: RLCard's rules (fold always legal) "
           "and the later rules (no fold when checking is legal)", ""),
    Choice("iterations", "100,000",
           "no public code", "100,000, with snapshots at 20,000 and 50,000 "
           "and at the paper's exploitabilities (5.15 / 5.33 / 3.16 mb/h); "
           "one worker runs both rule sets in about 35 minutes (5-Leduc: "
           "0.6-1.5 ms per iteration)", ""),
    Choice("runs", "not stated (one value per cell)", "no public code",
           "3 seeds per algorithm (1 for the deterministic uniform CFR); "
           "cells are mean ± sd over seed pairs, the percentages median "
           "[min, max] over seed pairs", ""),
    Choice("BUFP start and step", "not stated for the tables",
           "SPFP.py:44,48: learning rate 1, then 1/t",
           "Dirichlet(1) start, step 1/(t+1) (the figures run both)", ""),
    Choice("what is evaluated", "player 1's winnings in mb/h, at the root "
           "and with player 1 forced to Call at its first decision",
           "no public code", "exact expected payoffs (no sampling) of the "
           "average strategies", ""),
)


def _iteration_snapshots(*iterations):
  """Snapshots of every table algorithm at the given iterations (taken
  when the run reaches them; the metric "iteration" is the run's count)."""
  return tuple((algorithm, f"it{n}", "iteration", float(n))
               for algorithm in _TABLE_ALGORITHMS for n in iterations)


def _role_policies(settings: Settings, folder: Path, snapshot: str,
                   game: str, variant: Variant):
  """{role: [policies]} for the variant's CFR, BUFP(EF) and BUFP(X) at
  ``snapshot`` (a capped algorithm's last strategy stands for the snapshot
  at its cap), or None if one is missing."""
  caps = {name: cap for name, cap in settings.iteration_caps
          if cap < settings.iterations}
  roles = {}
  for role, algorithm in zip(_TABLE_ROLES, variant.algorithms):
    name = snapshot
    if algorithm in caps:
      if snapshot != f"it{caps[algorithm]}":
        return None
      name = "final"
    policies = load_snapshots(settings, folder, name, game).get(algorithm)
    if not policies:
      return None
    roles[role] = policies
  return roles


def _table_cells(settings: Settings, folder: Path, snapshot: str,
                 game: str | None = None, variant: Variant | None = None):
  variant = variant or next(iter(TABLE_VARIANTS_RUN(settings)), None)
  if variant is None:
    return None
  game = game or settings.games[0]
  policies = _role_policies(settings, folder, snapshot, game, variant)
  if policies is None:
    return None
  return (head_to_head_cells(game, policies, forced=False),
          head_to_head_cells(game, policies, forced=True))


def TABLE_VARIANTS_RUN(settings: Settings) -> list[Variant]:  # pylint: disable=invalid-name
  return [v for v in TABLE_VARIANTS
          if set(v.algorithms) <= set(settings.algorithms)]


def _snapshot_labels(settings: Settings) -> list[tuple[str, str]]:
  names = [(f"it{int(threshold)}", f"after {int(threshold):,} it.")
           for owner, _, metric, threshold in settings.snapshots
           if metric == "iteration" and owner == "BUFP(EF)"]
  return names + [("final", f"after {settings.iterations:,} it."),
                  ("matched", "at the paper's exploitabilities")]


def pair_percentages(table1, table2) -> dict[str, np.ndarray]:
  """Section 5.2's percentages once per seed pair: the i-th strategy of
  every row algorithm against the j-th of every column algorithm (indices
  wrap for algorithms with fewer runs)."""
  # A diagonal cell holds n x n pairs of one algorithm's n runs.
  sizes = {row: int(round(np.sqrt(len(values))))
           for (row, column), values in table1.items() if row == column}
  longest = max(sizes.values())
  out: dict[str, list[float]] = {}
  for i, j in itertools.product(range(longest), repeat=2):
    picked = []
    for cells in (table1, table2):
      one = {}
      for (row, column), values in cells.items():
        n_column = sizes[column]
        one[row, column] = np.array(
            [values[(i % sizes[row]) * n_column + j % n_column]])
      picked.append(one)
    for key, value in deviation_percentages(*picked).items():
      out.setdefault(key, []).append(value)
  return {key: np.array(values) for key, values in out.items()}


def _spread(values: np.ndarray) -> str:
  return (f"median {np.median(values):.1f} [{values.min():.1f}, "
          f"{values.max():.1f}]")


def _game_name(game: str) -> str:
  return ("RLCard rules" if "fold_always=true" in game.lower() else
          "later rules (no fold when checking is legal)")


def summarize_tables(frame: pd.DataFrame, settings: Settings,
                     folder: Path) -> tuple[list[Path], list[Path]]:
  figures = line_figure(
      frame, "exploitability", folder / "figures" / "exploitability",
      line_order=[a for a in _TABLE_ALGORITHMS if a in settings.algorithms],
      title="Exploitability (NashConv / 2) on 5-rank Leduc",
      reference={f"paper, {name} after 100,000 it. ({value} mb/h)":
                 chips_from_mbh(value)
                 for name, value in PAPER_EXPLOITABILITY_MBH.items()})
  tables = []
  for v_index, variant in enumerate(TABLE_VARIANTS_RUN(settings)):
    for g_index, game in enumerate(settings.games):
      for snapshot, label in _snapshot_labels(settings):
        cells = _table_cells(settings, folder, snapshot, game, variant)
        if cells is None:
          continue
        suffix = _suffix(v_index, g_index, snapshot)
        table1, table2 = cells
        where = f"{label}, {_game_name(game)}, {variant.label}"
        tables += write_table(
            head_to_head_frame(table1, _TABLE_ROLES),
            folder / "tables" / f"table1_{suffix}",
            caption=f"Table 1 ({where}): player 1's winnings in mb/h, mean "
            "± sd over seed pairs")
        tables += write_table(
            head_to_head_frame(table2, _TABLE_ROLES),
            folder / "tables" / f"table2_{suffix}",
            caption=f"Table 2 ({where}): player 1 forced to Call at its "
            "first decision, winnings in mb/h")
        means = deviation_percentages(table1, table2)
        pairs = pair_percentages(table1, table2)
        tables += write_table(
            pd.DataFrame([{"quantity": k, "ours": v,
                           "over seed pairs": _spread(pairs[k])}
                          for k, v in means.items()]),
            folder / "tables" / f"recovered_{suffix}", float_format=".2f",
            caption=f"Section 5.2 percentages ({where}); the paper: 52.87% "
            "recovered, 44.20% secured, mean 48.53%")
  return figures, tables


def _suffix(v_index: int, g_index: int, snapshot: str) -> str:
  """File name part: the first variant on the first game keeps the plain
  names (table1_final, ...)."""
  parts = [snapshot]
  if g_index:
    parts.append("later_rules")
  if v_index:
    parts.append(f"variant{v_index}")
  return "_".join(parts)


def _matched_snapshots():
  return tuple((algorithm, "matched", "exploitability",
                chips_from_mbh(PAPER_EXPLOITABILITY_MBH[role]))
               for algorithm in _TABLE_ALGORITHMS
               for role in [{"BUFP(EF)": "BUFP(EF)", "BUFP(X)": "BUFP(X)"}
                            .get(algorithm, "CFR")])


def _cells_verdict(cells, paper) -> tuple[str, float]:
  """Largest |ours - paper| over the paper's cells and its verdict: within
  2 mb/h holds, within 5 holds partly."""
  worst = max(abs(cells[key].mean() - value) for key, value in paper.items())
  verdict = ("holds" if worst <= 2.0 else
             "holds partly" if worst <= 5.0 else "does not hold")
  return verdict, worst


def _percentage_verdict(ours: float, paper: float) -> str:
  if abs(ours - paper) <= 10.0:
    return "holds"
  return "holds partly" if ours * paper > 0 else "does not hold"


_PAPER_PERCENTAGES = (("recovered loss %", 52.87),
                      ("secured profit %", 44.20), ("mean %", 48.53))


def _detailed_claims(table1, table2, label, evidence_suffix, command,
                     setting) -> list[Claim]:
  claims = []
  cfr = table1["CFR", "CFR"]
  # The paper's cell is one pair of runs: it holds when it lies where one
  # pair of ours could (within 2 sd of our pairs' mean), or within 0.5.
  room = max(0.5, 2 * cfr.std())
  claims.append(Claim(
      _PAPER, f"CFR vs CFR, player 1's winnings (Table 1, {label})",
      "19.21 mb/h", f"{cfr.mean():.2f} ± {cfr.std():.2f} mb/h (mean ± sd "
      f"over {len(cfr)} seed pairs; holds within {room:.2f} of 19.21)",
      "holds" if abs(cfr.mean() - 19.21) <= room else "does not hold",
      f"bufp_tables/tables/table1_{evidence_suffix}.md", command, setting))
  for name, ours, paper, table in (
      ("Table 1 (initial node)", table1, PAPER_TABLE_1, "table1"),
      ("Table 2 (player 1 forced to Call)", table2, PAPER_TABLE_2, "table2")):
    verdict, worst = _cells_verdict(ours, paper)
    claims.append(Claim(
        _PAPER, f"{name}, 3x3 head-to-head ({label})",
        "9 cells, see the paper",
        f"largest difference from the paper's cells {worst:.2f} mb/h",
        verdict, f"bufp_tables/tables/{table}_{evidence_suffix}.md", command,
        setting))
  percentages = deviation_percentages(table1, table2)
  pairs = pair_percentages(table1, table2)
  verdicts = {}
  for key, paper in _PAPER_PERCENTAGES:
    note = (" (its own tables give 51.97%: the text's CFR drop of 53.57 "
            "should be 52.57)" if key == "recovered loss %" else
            " (48.07% from its own tables)" if key == "mean %" else "")
    verdict = _percentage_verdict(percentages[key], paper)
    ours = (f"{percentages[key]:.2f}% (over seed pairs: "
            f"{_spread(pairs[key])})")
    if key == "secured profit %":
      ours += (f"; its denominator, CFR's gain, is "
               f"{percentages['profit gain CFR']:.1f} mb/h (over seed pairs "
               f"{_spread(pairs['profit gain CFR'])})")
    low, high = np.min(pairs[key]), np.max(pairs[key])
    if verdict == "holds" and not low - 10.0 <= paper <= high + 10.0:
      verdict = "holds partly"
    if key == "mean %" and verdict == "holds" and not all(
        v == "holds" for v in verdicts.values()):
      # A matching mean of two mismatched parts is a coincidence.
      verdict = "holds partly"
      ours += (" (near the paper's only because its two parts err in "
               "opposite directions)")
    verdicts[key] = verdict
    claims.append(Claim(
        _PAPER, f"BUFP(EF) vs CFR after a forced Call: {key} "
        f"(section 5.2, {label})", f"{paper:.2f}%{note}", ours, verdict,
        f"bufp_tables/tables/recovered_{evidence_suffix}.md", command,
        setting))
  return claims


def table_claims(frame: pd.DataFrame, settings: Settings,
                 folder: Path) -> list[Claim]:
  """Tables 1-2 and section 5.2: every claim for the first paper setting
  on RLCard's rules after all iterations and at matched exploitability;
  then, for every variant and rule set, one row with the percentages at
  each snapshot (how much the reading, the rules and the length move
  them)."""
  del frame
  command = command_for(settings)
  claims = []
  variants = TABLE_VARIANTS_RUN(settings)
  if not variants:
    return [Claim(_PAPER, "Tables 1-2 and the recovered loss % (section "
                  "5.2)", "see tables", "no variant's algorithms all ran",
                  "not run", "bufp_tables/tables/table1_final.md", command)]
  first = variants[0]
  for snapshot, label in (("final", f"after {settings.iterations:,} it."),
                          ("matched", "at matched exploitability")):
    cells = _table_cells(settings, folder, snapshot, settings.games[0],
                         first)
    if cells is None:
      claims.append(Claim(_PAPER, f"Tables 1-2 ({label})", "see tables",
                          "not every algorithm reached this point",
                          "not run", f"bufp_tables/tables/table1_{snapshot}.md",
                          command, first.label))
      continue
    claims += _detailed_claims(*cells, f"{label}, {_game_name(settings.games[0])}",
                               snapshot, command, first.label)
  for v_index, variant in enumerate(variants):
    for g_index, game in enumerate(settings.games):
      parts, finals = [], []
      for snapshot, label in _snapshot_labels(settings):
        cells = _table_cells(settings, folder, snapshot, game, variant)
        if cells is None:
          continue
        percentages = deviation_percentages(*cells)
        pairs = pair_percentages(*cells)
        parts.append(f"{label}: recovered {percentages['recovered loss %']:.1f}%"
                     f", secured {percentages['secured profit %']:.1f}% "
                     f"({_spread(pairs['secured profit %'])}), mean "
                     f"{percentages['mean %']:.1f}%")
        finals.append((snapshot, percentages))
      if not finals:
        continue
      # The verdict: the last iteration snapshot (final, or the cap).
      _, last = [f for f in finals if f[0] != "matched"][-1]
      holds = [_percentage_verdict(last[key], paper) == "holds"
               for key, paper in _PAPER_PERCENTAGES[:2]]
      claims.append(Claim(
          _PAPER, f"BUFP(EF) recovers loss and secures profit vs CFR after "
          f"a forced Call (section 5.2), {_game_name(game)}, across "
          "iterations", "52.87% recovered, 44.20% secured, mean 48.53%",
          "; ".join(parts), verdict_from(holds),
          f"bufp_tables/tables/recovered_{_suffix(v_index, g_index, 'final')}.md",
          command, variant.label))
  return claims


BUFP_TABLES = Experiment(
    name="bufp_tables",
    description="BUFP Tables 1-2: 5-rank Leduc head-to-head in mb/h, at the "
                "root and with player 1 forced to Call, on RLCard's rules "
                "and the authors' later rules",
    quick=Scale(iterations=2000, seeds=2,
                games=(RLCARD_LEDUC_5, RLCARD_LEDUC_5_NO_FOLD),
                algorithms=_TABLE_ALGORITHMS, eval_every=250,
                snapshots=_matched_snapshots() + _iteration_snapshots(500,
                                                                      1000)),
    paper=Scale(iterations=100_000, seeds=3,
                games=(RLCARD_LEDUC_5, RLCARD_LEDUC_5_NO_FOLD),
                algorithms=_TABLE_ALGORITHMS, eval_every=10_000,
                iteration_caps=(("CFR", _RANDOM_CFR_CAP),),
                snapshots=_matched_snapshots() + _iteration_snapshots(
                    20_000, 50_000)),
    metrics=("exploitability", "nash_conv"),
    summarize=summarize_tables,
    cost="quick: about 2 minutes; paper (2 rule sets, 3 seeds, 100,000 "
         "iterations, random-start CFR capped at 20,000): about 35 minutes "
         "with --workers=1",
    claims=table_claims,
    choices=TABLE_CHOICES,
    variants=TABLE_VARIANTS)
