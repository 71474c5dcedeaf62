"""The GXFP experiments' settings tables as data: every choice that can
change a number, as the paper's text (Tim P. Schulze, "A Generalized
Extensive-Form Fictitious Play Algorithm", 2023), the authors' code (none
is public) and our runs make it; and the sizes the scales run.

N, eps, the bet sizes and the iteration counts did not survive in the text
we have: the tables mark those values as ours.
"""

from __future__ import annotations

from spiel_ext.experiments.common_algorithms import GXFP_EPSILON
from spiel_ext.experiments.gxfp.shared import MIXED
from spiel_ext.results.report import Choice

# (quick, paper) scale of each experiment.
ASYMMETRIC_HANDS = ((18, 45, 90), (45, 90, 180))
ASYMMETRIC_ITERATIONS = (10_000, 30_000)
RAISE_HANDS = (38, 114)
RAISE_ITERATIONS = (5000, 25_000)
CONVERGENCE_HANDS = (19, 57)
CONVERGENCE_ITERATIONS = (2000, 20_000)
CONVERGENCE_SEEDS = (3, 4)

_NO_CODE = "no public code"


def _choices(*rows: tuple[str, ...]) -> tuple[Choice, ...]:
  return tuple(Choice(*row) for row in rows)


def _listed(sizes: tuple[int, ...]) -> str:
  return ", ".join(str(size) for size in sizes)


_SCHEDULE = (
    "update schedule", "not stated for the figures; the summary says all "
    "three algorithms converged much faster with alternating updates",
    _NO_CODE, "both readings run, each figure on one schedule: paper "
    "setting (simultaneous) and paper setting (alternating)")
_FP_START = (
    "fictitious-play start", "random initial data (section 5)", _NO_CODE,
    "ours: sigma_1 drawn Dirichlet(1) per infoset with the run's seed, "
    "weight one iteration in the average")
_EPS = (
    "perturbation eps", "every action at least eps (eq. 24); the value was "
    "lost from our copy of the text", _NO_CODE,
    f"ours: eps = {GXFP_EPSILON:g}")
_TIE = ("GXFP ties in the best decision", "not stated", _NO_CODE,
        "ours: the lowest action id")
_AVERAGE = (
    "GXFP averaging", "sigma_(t+1) = (t sigma_t + b_t) / (t + 1), float or "
    "integer counts (section 6)", _NO_CODE, "float running average")
_EVALUATED = (
    "what is evaluated", "the strategy sigma_t (fictitious play's running "
    "average)", _NO_CODE, "the average strategy; perturbed strategies read "
    "as the choice they stand for when thresholds are measured, drawn as "
    "played")
_SIZES = (
    "ante : bet : raise", "pot, bet and raise sizes lost from our copy of "
    "the text", _NO_CODE, "ours: 1 : 2 : 2, the sizes of the closed form "
    "(game value -88/1083)")


_RENORMALISATION = (
    "XFP renormalisation (eq. 18)", "used", _NO_CODE,
    "ours: off (not run here); the verdicts that read XFP name it in their "
    "setting")


def _iterations(iterations: tuple[int, int]) -> tuple[str, ...]:
  return ("iterations", "lost from our copy of the text", _NO_CODE,
          f"ours: {iterations[1]:,} (quick: {iterations[0]:,})")


def _runs(paper_text: str) -> tuple[str, ...]:
  return ("runs", paper_text, _NO_CODE,
          "ours: 2 seeds; figures draw the first, tables average both")


ASYMMETRIC_CHOICES = _choices(
    ("hands N", "N uniformly distributed hands; N lost from our copy of the "
     "text", _NO_CODE, f"ours: N = {_listed(ASYMMETRIC_HANDS[1])} "
     "(multiples of 9, so a = 1/9, b = 7/9, c = 5/9 fall between hands); "
     f"quick: {_listed(ASYMMETRIC_HANDS[0])}"),
    ("ante, bet", "ante and bet sizes lost from our copy of the text",
     _NO_CODE, "ours: ante 1, bet 2 (continuous solution a = 1/9, b = 7/9, "
     "c = 5/9)"),
    _EPS, _iterations(ASYMMETRIC_ITERATIONS), _runs("one realization drawn"),
    _SCHEDULE, _FP_START, _AVERAGE, _TIE, _EVALUATED,
    ("player 2 mixing", "drawn, not measured", _NO_CODE,
     "ours: share of player 2's hands at least 2/N from c whose call "
     f"probability is in ({MIXED[0]:g}, {MIXED[1]:g})"))

RAISE_CHOICES = _choices(
    ("hands N", "lost from our copy of the text", _NO_CODE,
     f"ours: N = {RAISE_HANDS[1]} (6 x 19: the closed form's thresholds "
     f"have denominator 19); quick: {RAISE_HANDS[0]}"),
    _SIZES, _EPS, _iterations(RAISE_ITERATIONS),
    _runs("a single realization (section 5)"),
    _SCHEDULE, _FP_START, _AVERAGE, _TIE, _EVALUATED,
    ("player 1's panel", "check-fold, check-call, check-raise add to one; "
     "bet-call, bet-fold add to one (section 5)", _NO_CODE,
     "drawn so: conditional on the first action; masses and mixing in the "
     "table use shares of the hand's play"),
    ("player 1's movable thresholds", "two thresholds roughly fit to the "
     "graphs", _NO_CODE, "ours: drawn dotted at one member of the "
     "continuum; compared as sequence masses, equal for every member"),
    ("hands mixing", "drawn, not measured; near the thresholds it "
     "diminishes as N grows (section 5)", _NO_CODE,
     f"ours: share of (hand, panel) pairs with no sequence >= {MIXED[1]:g}; "
     "one N per scale, so the shrinking with N is not tested"),
    _RENORMALISATION)

CONVERGENCE_CHOICES = _choices(
    ("hands N", "lost from our copy of the text", _NO_CODE,
     f"ours: N = {CONVERGENCE_HANDS[1]} (3 x 19); quick: "
     f"{CONVERGENCE_HANDS[0]}"),
    _SIZES, _EPS,
    ("iterations and evaluation points", "iterations lost; evaluated at "
     "fixed intervals (the interval lost)", _NO_CODE,
     f"ours: {CONVERGENCE_ITERATIONS[1]:,} (quick: "
     f"{CONVERGENCE_ITERATIONS[0]:,}), evaluated at about 8 log-spaced "
     "points per decade"),
    ("runs", "one sample per algorithm drawn, from random initial data",
     _NO_CODE, f"ours: {CONVERGENCE_SEEDS[1]} seeds (quick: "
     f"{CONVERGENCE_SEEDS[0]}; the uniform CFR start is deterministic: one "
     "run), mean and 90% band"),
    _SCHEDULE,
    ("CFR's start", "random initial data (section 5)", _NO_CODE,
     "ours: random regrets and policy U(0, 0.02), about one iteration's "
     f"regret at N = {CONVERGENCE_HANDS[1]} (half one at N = "
     f"{CONVERGENCE_HANDS[0]}), as fictitious play's random start weighs "
     "one iteration",
     "heavy CFR start: U(0, 1), worth ~N iterations of regret; uniform CFR "
     "start: the uniform strategy"),
    _FP_START,
    ("GXFP averaging", "float, or integer counts free of round-off (section "
     "6)", _NO_CODE, "float running average",
     "integer counting (a consistency check: the two must agree)"),
    _RENORMALISATION,
    _TIE,
    ("what is evaluated", "the value of the current strategy pair and total "
     "exploitability (NashConv)", _NO_CODE, "the average strategy of all "
     "three (fictitious play's current strategy is its average); NashConv "
     "of the eps-perturbed game for Fig. 5"),
    ("cost per iteration", "similar for all three (section 5)", _NO_CODE,
     "timed after the run in one process, one solver at a time on the "
     "experiment's game (not from the run's workers)"))
