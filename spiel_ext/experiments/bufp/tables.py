"""bufp_tables: the BUFP paper's Tables 1-2 and section 5.2's percentages
(Qi Ju, Zhemei Fang, Yunfeng Luo, "Beyond Nash Equilibrium: Achieving
Bayesian Perfect Equilibrium with Belief Update Fictitious Play", DDCLS
2024, arXiv:2409.02706).

5-rank Leduc head-to-head at the root and with player 1 forced to Call, on
RLCard's rules and on the authors' later rules (no fold when checking is
legal), at several iteration counts and at the paper's exploitabilities,
mean and spread over seed pairs.
"""

from __future__ import annotations

import functools

from spiel_ext.analysis.claims import MAGNITUDE_FRACTION
from spiel_ext.analysis.poker_units import big_blind, chips_from_mbh
from spiel_ext.experiments.bufp import measures_tables as measures
from spiel_ext.experiments.bufp import settings
from spiel_ext.experiments.bufp.figures import (EXPLOITABILITY,
                                                summarize_tables,
                                                table_artefacts)
from spiel_ext.experiments.bufp.head_to_head import FINAL, MATCHED
from spiel_ext.experiments.bufp.measures_convergence import not_run
from spiel_ext.experiments.bufp.paper_values import (
    MEAN, PAPER, PAPER_EXPLOITABILITY_MBH, PAPER_PERCENTAGES,
    PAPER_PERCENTAGES_TEXT, PAPER_TABLE_1, PAPER_TABLE_2, PERCENTAGE_NOTES,
    RLCARD_LEDUC_5, RLCARD_LEDUC_5_NO_FOLD)
from spiel_ext.experiments.spec import Experiment, Scale
from spiel_ext.results.claims import ClaimSpec
from spiel_ext.results.report import verdict_from

_GAMES = (RLCARD_LEDUC_5, RLCARD_LEDUC_5_NO_FOLD)
_BLIND = big_blind(RLCARD_LEDUC_5)
_CFR_VS_CFR = PAPER_TABLE_1["CFR", "CFR"]
_ON = dict(variants=settings.TABLE_VARIANTS)


_PERCENT_RULE = (f"holds within {measures.PERCENT_POINTS:g} points of the "
                 f"paper's, partly at its sign and at least "
                 f"{MAGNITUDE_FRACTION:.0%} of it")
_MEAN_RULE = ("; a mean whose parts (recovered, secured) disagree in sign "
              "does not hold")


def _matched_snapshots():
  """Each algorithm's strategy when it first reaches the paper's
  exploitability of its role (every CFR: CFR's)."""
  return tuple((algorithm, MATCHED, "exploitability", chips_from_mbh(
      PAPER_EXPLOITABILITY_MBH.get(algorithm, PAPER_EXPLOITABILITY_MBH["CFR"]),
      _BLIND)) for algorithm in settings.TABLE_ALGORITHMS)


def _iteration_snapshots(*iterations):
  """Snapshots of every table algorithm at the given iterations (the
  metric "iteration" is the run's count)."""
  return tuple((algorithm, f"it{n}", "iteration", float(n))
               for algorithm in settings.TABLE_ALGORITHMS for n in iterations)


def _spec(statement, paper_value, measure, holds_if, evidence, **bound):
  """A claim whose measure fills the case into ``statement``."""
  return ClaimSpec(PAPER, statement, paper_value, functools.partial(
      measure, statement=statement, **_ON, **bound), holds_if, evidence)


def _detailed(snapshot: str) -> tuple[ClaimSpec, ...]:
  """Every Tables 1-2 claim for the first variant run, on RLCard's rules,
  at ``snapshot``."""
  table1, table2, percentages = table_artefacts(0, 0, snapshot)
  return (
      _spec("Tables 1-2 ({case})", "see tables", measures.missing_tables,
            not_run, table1, snapshot=snapshot),
      _spec("CFR vs CFR, player 1's winnings (Table 1, {case})",
            f"{_CFR_VS_CFR:.2f} mb/h", measures.cfr_vs_cfr,
            measures.within_room, table1, snapshot=snapshot,
            paper=_CFR_VS_CFR),
      _spec("Table 1 (initial node), 3x3 head-to-head ({case})",
            "9 cells, see the paper", measures.cells_difference,
            measures.CELLS_WITHIN_MBH, table1, snapshot=snapshot,
            forced=False, paper=PAPER_TABLE_1),
      _spec("Table 2 (player 1 forced to Call), 3x3 head-to-head ({case})",
            "9 cells, see the paper", measures.cells_difference,
            measures.CELLS_WITHIN_MBH, table2, snapshot=snapshot,
            forced=True, paper=PAPER_TABLE_2),
      *(_spec(f"BUFP(EF) vs CFR after a forced Call: {key} (section 5.2, "
              "{case}); " + _PERCENT_RULE + (_MEAN_RULE if key == MEAN
                                              else ""),
              f"{value:.2f}%{PERCENTAGE_NOTES.get(key, '')}",
              measures.percentage, measures.percentage_verdict, percentages,
              snapshot=snapshot, key=key)
        for key, value in PAPER_PERCENTAGES.items()))


def _across_iterations(position: int, later_games: bool) -> ClaimSpec:
  """Section 5.2 at every snapshot, for the ``position``-th variant run,
  on RLCard's rules (or the later rules)."""
  *_, percentages = table_artefacts(position, int(later_games), FINAL)
  return _spec("BUFP(EF) recovers loss and secures profit vs CFR after a "
               "forced Call (section 5.2), {case}, across iterations",
               PAPER_PERCENTAGES_TEXT, measures.across_iterations,
               verdict_from, percentages, position=position,
               later_games=later_games)


BUFP_TABLES = Experiment(
    name="bufp_tables",
    description="BUFP Tables 1-2: 5-rank Leduc head-to-head in mb/h, at the "
                "root and with player 1 forced to Call, on RLCard's rules "
                "and the authors' later rules",
    quick=Scale(iterations=2000, seeds=2, games=_GAMES,
                algorithms=settings.TABLE_ALGORITHMS, eval_every=250,
                snapshots=_matched_snapshots() + _iteration_snapshots(500,
                                                                      1000)),
    paper=Scale(iterations=100_000, seeds=3, games=_GAMES,
                algorithms=settings.TABLE_ALGORITHMS, eval_every=10_000,
                iteration_caps=((settings.RANDOM_CFR,
                                 settings.RANDOM_CFR_CAP),),
                snapshots=_matched_snapshots() + _iteration_snapshots(
                    20_000, 50_000)),
    metrics=("exploitability", "nash_conv"),
    summarize=functools.partial(
        summarize_tables, order=settings.TABLE_ALGORITHMS,
        variants=settings.TABLE_VARIANTS),
    claims=(
        ClaimSpec(PAPER, "Tables 1-2 and the recovered loss % (section 5.2)",
                  "see tables", functools.partial(
                      measures.no_variant, variants=settings.TABLE_VARIANTS),
                  not_run, table_artefacts(0, 0, FINAL)[0]),
        ClaimSpec(PAPER, "exploitability on 5-Leduc after 100,000 "
                  "iterations (section 5.2)", "5.15 / 5.33 / 3.16 mb/h",
                  functools.partial(
                      measures.exploitability_rows,
                      variants=settings.TABLE_VARIANTS,
                      statement="Exploitability of {algorithm} on "
                      "5-Leduc after 100,000 iterations: {paper} mb/h "
                      "(section 5.2; ours after {iterations} it.), "
                      f"reproduced within {1 / MAGNITUDE_FRACTION:g}x"),
                  verdict_from, EXPLOITABILITY),
        *_detailed(FINAL), *_detailed(MATCHED),
        *(_across_iterations(position, later_games)
          for position in range(len(settings.TABLE_VARIANTS))
          for later_games in (False, True))),
    choices=settings.TABLE_CHOICES,
    variants=settings.TABLE_VARIANTS)
