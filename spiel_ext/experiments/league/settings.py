"""The solver league's settings as data: its games, the sizes its scales
run, the iteration caps of its slow reference, and every choice that can
change a number, as each solver's paper and its authors' code make it.

"Paper setting" here is each paper's default: PCFR+ with quadratic
averaging (Farina, Kroer, Sandholm, AAAI 2021), DCFR+ with alpha 1.5,
gamma 4 and PDCFR+ with alpha 2.3, gamma 5 (Xu et al., IJCAI 2024), DCFR
with alpha 1.5, beta 0, gamma 2 (Brown, Sandholm, AAAI 2019), MMD with
OpenSpiel's defaults (Sokota et al., ICLR 2023).
"""

from __future__ import annotations

from spiel_ext.experiments.league import measures as league
from spiel_ext.experiments.league.algorithms import (BUFP_X, CPP_CFR_PLUS,
                                                     LABELS, XFP)
from spiel_ext.results.report import Choice

KUHN = "kuhn_poker"
LEDUC = "leduc_poker"
LEDUC_5 = "spiel_ext_leduc(ranks=5)"
LIARS_DICE = "liars_dice(numdice=1)"
GOOFSPIEL = ("turn_based_simultaneous_game(game=goofspiel(imp_info=True,"
             "num_cards=4,points_order=descending))")
BATTLESHIP = ("battleship(board_height=2,board_width=2,ship_sizes=[2],"
              "ship_values=[1],num_shots=3)")
KUHN_3 = "kuhn_poker(players=3)"

GAMES = (KUHN, LEDUC, LEDUC_5, LIARS_DICE, GOOFSPIEL, BATTLESHIP, KUHN_3)
# The poker games of claim (1) (Farina et al.: DCFR is competitive or
# better on poker); the others are the "most games" it is judged on too.
POKER = (KUHN, LEDUC, LEDUC_5, KUHN_3)

# NashConv target: this fraction of the game's payoff range (max utility -
# min utility).
TARGET_FRACTION = league.TARGET_FRACTION

# (quick, paper) iterations and external-sampling seeds.
ITERATIONS = (100, 10_000)
SEEDS = (2, 5)

# Iteration caps: (algorithm, quick, paper, game), for the slow pairs.
# OpenSpiel's C++ CFR+ calls back into Python for every state of
# spiel_ext_leduc(ranks=5), a Python game (3 to 13 s per iteration), and
# takes 0.1 to 0.3 s per iteration on liars_dice and the battleship; XFP and
# BUFP(X) take 0.03 to 0.1 s per iteration on liars_dice (seconds measured
# on the quick scale, two workers on a shared machine).
CAPS = ((CPP_CFR_PLUS, 1, 10, LEDUC_5), (CPP_CFR_PLUS, 10, 1000, LIARS_DICE),
        (CPP_CFR_PLUS, 10, 1000, BATTLESHIP), (XFP, None, 3000, LIARS_DICE),
        (BUFP_X, None, 3000, LIARS_DICE))


def iteration_caps(scale: int) -> tuple[tuple[str, int, str], ...]:
  """(algorithm, iterations, game) caps of the scale (0 quick, 1 paper)."""
  return tuple((algorithm, caps[scale], game)
               for algorithm, *caps, game in CAPS if caps[scale] is not None)


def _caps_text(scale: int) -> str:
  return "; ".join(f"{LABELS[algorithm]} on {league.game_name(game)}: "
                   f"{caps[scale]:,}" for algorithm, *caps, game in CAPS
                   if caps[scale] is not None)


_BROWN = "Brown, Sandholm (AAAI 2019)"
_FARINA = "Farina, Kroer, Sandholm (AAAI 2021)"
_XU = "Xu et al. (IJCAI 2024)"
_XU_CODE = "rpSebastian/PDCFRPlus (pdcfrplus/cfr/)"
_OPENSPIEL = "OpenSpiel open_spiel/python"

CHOICES = tuple(Choice(*row) for row in (
    ("start", "uniform strategy (CFR family); fictitious play from a "
     "uniform strategy", "OpenSpiel's solvers start uniform",
     "every solver from the uniform strategy; deterministic solvers run "
     "once"),
    ("update schedule", "alternating updates for the CFR family "
     f"({_FARINA}, {_XU}); MMD updates both players from the same "
     "profile", f"{_XU_CODE}: alternating; {_OPENSPIEL}/algorithms/"
     "mmd_dilated.py: simultaneous",
     "CFR, CFR+, LCFR, DCFR, DCFR+, PCFR+, PDCFR+, Pref-CFR: alternating; "
     "MMD, XFP, GXFP, BUFP: simultaneous (their defaults)"),
    ("PCFR+", f"prediction m_(t+1) = r_t, quadratic averaging ({_FARINA}, "
     "section 6)", f"{_XU_CODE}: PCFR+ with gamma = 2",
     "quadratic averaging (weight t^2)"),
    ("DCFR", f"alpha 1.5, beta 0, gamma 2 ({_BROWN})",
     f"{_OPENSPIEL}/algorithms/discounted_cfr.py: 1.5, 0, 2",
     "alpha 1.5, beta 0, gamma 2; LCFR = 1, 1, 1"),
    ("DCFR+ and PDCFR+", f"DCFR+ alpha 1.5, gamma 4; PDCFR+ alpha 2.3, "
     f"gamma 5; discount (t-1)^alpha / ((t-1)^alpha + 1) ({_XU})",
     f"{_XU_CODE}: the same values, regrets discounted before r_t is added; "
     "but DCFR+ (dcfr_plus.py) divides by (t-1)^alpha + 1.5",
     "the papers' values; DCFR+ runs with the text's + 1 (paper setting) "
     "and, as its own row, the code's + 1.5"),
    ("MMD", "alpha (regularisation) and stepsize eta; the last iterate "
     "converges to the alpha-QRE (Sokota et al., ICLR 2023)",
     f"{_OPENSPIEL}/examples/mmd_example.py: alpha 0.05; mmd_dilated.py: "
     "eta = alpha / max|A|^2", "alpha 0.05, OpenSpiel's stepsize; the "
     "average and the last iterate as two rows; two-player zero-sum games "
     "only"),
    ("external-sampling MCCFR", "Lanctot et al. (NeurIPS 2009)",
     f"{_OPENSPIEL}/algorithms/external_sampling_mccfr.py: simple "
     "averaging by default",
     f"simple averaging, {SEEDS[1]} seeds (quick: {SEEDS[0]}), mean and "
     "90% band; an iteration is one walk per player"),
    ("Pref-CFR", "Pref-CFR(RM) with every degree neutral is CFR (Ju et al., "
     "ICML 2025)", "no public code", "variant RM, no preference, "
     "vulnerability 0"),
    ("reference", "OpenSpiel's C++ CFR+ on the same clock", "pyspiel."
     "CFRPlusSolver", "run in the same workers as ours; each unit in one go "
     "(OpenSpiel's restored CFR+ does not continue as CFR+)"),
    ("iteration caps", "-", "-", f"slow pairs stop early: {_caps_text(1)} "
     f"(quick: {_caps_text(0)}); their time-to-target cells say \"not "
     "reached\" at the cap"),
    ("iterations", "each paper's figures have their own horizon", "-", f"{ITERATIONS[1]:,} (quick: {ITERATIONS[0]:,}), NashConv at about "
     "8 log-spaced points per decade"),
    ("target", "-", "-", f"NashConv <= {TARGET_FRACTION:g} x the game's "
     "payoff range (max utility - min utility); the first evaluation point "
     "at or below it (so within a factor of about 1.33 in iterations)"),
    ("time", "wall-clock per solver", "-", "solver seconds only "
     "(evaluation excluded), summed over the iterations, in worker "
     "processes sharing the machine; each process loads a solver's "
     "compiled kernels before its timed iterations (two iterations on "
     "kuhn_poker)"),
    ("games", "several games per paper, poker, Goofspiel, Liar's Dice and "
     "Battleship among them, in sizes of their own", "-", "kuhn_poker, leduc_poker, 5-rank Leduc, liars_dice(numdice=1) "
     "(1 six-sided die each), goofspiel with 4 cards, imperfect information, "
     "descending prizes, win-loss returns, turn-based (1,077 histories); "
     "battleship 2 x 2, one ship of size 2 and value 1, 3 shots (58,709 "
     "histories); kuhn_poker(players=3); the payoff range is pyspiel's max "
     "utility - min utility"),
))
