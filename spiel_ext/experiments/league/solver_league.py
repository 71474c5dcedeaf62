"""solver_league: every solver of the package on seven games, on one clock.

NashConv vs iterations and vs solver seconds for CFR, CFR+, LCFR, DCFR,
DCFR+, PCFR+, PDCFR+, MMD (average and last iterate), XFP, GXFP, BUFP(EF),
BUFP(X), Pref-CFR with neutral degrees and external-sampling MCCFR, with
OpenSpiel's C++ CFR+ as a reference; iterations and seconds to NashConv
<= 1e-3 x the payoff range; and three papers' orderings judged on the
run: Farina, Kroer, Sandholm (AAAI 2021) on PCFR+, Xu et al. (IJCAI 2024)
on PDCFR+, Sokota et al. (ICLR 2023) on MMD's last iterate.
"""

from __future__ import annotations

import functools

from spiel_ext.experiments.entries import ALGORITHMS
from spiel_ext.experiments.league import measures, settings
from spiel_ext.experiments.league.algorithms import (CFR_PLUS, CPP_CFR_PLUS,
                                                     DCFR, DCFR_PLUS,
                                                     DCFR_PLUS_CODE, LABELS,
                                                     LCFR, LEAGUE_ORDER,
                                                     MMD_AVERAGE, MMD_LAST,
                                                     PCFR_PLUS, PDCFR_PLUS)
from spiel_ext.experiments.league.figures import (summarize_league,
                                                  write_which_solver_page)
from spiel_ext.experiments.spec import Experiment, Scale
from spiel_ext.results.claims import ClaimSpec
from spiel_ext.results.report import PAPER_SETTING, Variant

_FARINA = "Farina, Kroer, Sandholm (AAAI 2021)"
_XU = "Xu et al. (IJCAI 2024)"
_SOKOTA = "Sokota et al. (ICLR 2023)"
_ON = dict(labels=LABELS, setting=PAPER_SETTING)


def applicability(algorithm: str, game: str) -> str | None:
  """"n/a (<what the solver needs> only)" where ``algorithm`` does not
  apply to ``game``, else None."""
  entry = ALGORITHMS[algorithm]
  if entry.applies_to(game):
    return None
  return f"n/a ({entry.requires} only)"


def _scale(scale: int) -> Scale:
  return Scale(iterations=settings.ITERATIONS[scale],
               seeds=settings.SEEDS[scale], games=settings.GAMES,
               algorithms=LEAGUE_ORDER,
               iteration_caps=settings.iteration_caps(scale))


SOLVER_LEAGUE = Experiment(
    name="solver_league",
    description="every solver (CFR family, PCFR+, DCFR+, PDCFR+, MMD, "
                "fictitious play, Pref-CFR, ES-MCCFR) and OpenSpiel's C++ "
                "CFR+ on seven games: NashConv vs iterations and seconds, "
                "time to 1e-3 x payoff range",
    quick=_scale(0),
    paper=_scale(1),
    metrics=("nash_conv",),
    summarize=functools.partial(
        summarize_league, order=LEAGUE_ORDER, labels=LABELS,
        applicability=applicability, mmd=(MMD_LAST, MMD_AVERAGE),
        dashed=(CPP_CFR_PLUS,)),
    claims=(
        ClaimSpec(_FARINA, "PCFR+ beats CFR+, DCFR and LCFR on most games "
                  "(final NashConv below all three)", "qualitative",
                  functools.partial(measures.beats_on_most, solver=PCFR_PLUS,
                                    baselines=(CFR_PLUS, DCFR, LCFR), **_ON),
                  measures.MOST_GAMES, measures.FINAL_NASH_CONV),
        ClaimSpec(_FARINA, "DCFR is competitive with (final NashConv within "
                  "x2 of) or better than PCFR+ on poker games",
                  "qualitative", functools.partial(
                      measures.competitive_on, solver=DCFR, other=PCFR_PLUS,
                      games=settings.POKER, **_ON),
                  measures.MOST_GAMES, measures.FINAL_NASH_CONV),
        ClaimSpec(_XU, "PDCFR+ is at least as fast as PCFR+ and DCFR+ "
                  "(final NashConv at most the better of the two)",
                  "qualitative", functools.partial(
                      measures.at_least_as_fast, solver=PDCFR_PLUS,
                      others=(PCFR_PLUS, DCFR_PLUS), **_ON),
                  measures.EVERY_GAME, measures.FINAL_NASH_CONV),
        ClaimSpec(_SOKOTA, "MMD's last iterate converges (to the "
                  "alpha-QRE: its NashConv moves, then settles)",
                  "qualitative",
                  functools.partial(measures.last_iterate_converges,
                                    last_iterate=MMD_LAST,
                                    setting=PAPER_SETTING),
                  measures.EVERY_GAME, measures.MMD_LAST_ITERATE),
        ClaimSpec(_FARINA, "On kuhn_poker PCFR+ ends with a lower NashConv "
                  "than CFR+", "qualitative", functools.partial(
                      measures.lower_on, game=settings.KUHN, solver=PCFR_PLUS,
                      other=CFR_PLUS, **_ON),
                  measures.strictly_below_one, measures.FINAL_NASH_CONV)),
    choices=settings.CHOICES,
    variants=(Variant(PAPER_SETTING, tuple(
        algorithm for algorithm in LEAGUE_ORDER if algorithm != DCFR_PLUS_CODE),
                      "each solver with its paper's defaults, from the "
                      "uniform strategy"),
              Variant("paper setting (the authors' DCFR+ code)",
                      (DCFR_PLUS_CODE,), "DCFR+ with the discount of the "
                      "authors' public code, (t-1)^1.5 / ((t-1)^1.5 + 1.5), "
                      "where the paper's text has + 1")),
    pages=(write_which_solver_page,))
