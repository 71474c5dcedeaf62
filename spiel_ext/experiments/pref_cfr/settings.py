"""The settings of the Pref-CFR paper's experiments (Ju, Tellier, Sun, Fang,
Luo, "Preference-CFR: Beyond Nash Equilibrium for Better Game Strategies",
ICML 2025, arXiv:2411.01217), as the paper's text, the authors' code
(Zealoter/PrefCFR) and our runs make them, and the play-styles games.

Kuhn (section 5.1). The paper setting is the authors' code: OpenSpiel's
CFR with simultaneous updates and uniform averaging, cumulative regrets and
policies drawn from U(0, 1). Our alternating updates and heavier starts run
beside it as labelled ablations.

Play styles (section 5.2). Which actions are raises: Leduc has one
("Raise"). universal_poker with ``bettingAbstraction=fcpa`` offers Fold,
Call, Bet (a pot-size raise) and AllIn; the aggressive style prefers Bet
only. The paper sets delta on "all raising actions" of an action set (fold,
call, raise to 2, raise to 3, all-in) that lists all-in apart from the
raises, and its aggressive AI moves mass into the larger raise while all-in
stays at 0.0% in both tables; a preference on AllIn would instead make
all-in the style's fallback (with no average regret above beta, Pref-CFR
plays the preferred actions in proportion to delta - 1: half Bet, half
AllIn), a shove-heavy style the paper does not describe. ``Bet<size>`` of
unabstracted no-limit games also counts as a raise (see
:func:`spiel_ext.experiments.pref_cfr.style_readouts.is_raise`).

The vulnerability's unit. The authors' code compares beta with the regret
*conditional on reaching the infoset* (cumulative regret over the
infoset's visits), in chips; that is the paper setting. Pref-CFR(BR) plays
the preferred action at an infoset until another action's conditional
regret exceeds beta, so a style gives up at most about beta chips in the
hands where it deviates. Comparing beta with the reach-weighted average
regret R / T instead (the ablation "reach-weighted beta") multiplies the
room by k at a first decision behind k private hands (6, 28, 8 and 8 in
the games below): the styles then move more and cost more. Leduc: 1 chip
= the ante = our big blind; hold'em: 0.05 chips = 0.025 big blinds.

Games (seat 0 = the paper's player 1 acts first before the flop, as the
small blind heads-up and on the button three-handed; sizes as compiled by
``spiel_ext.engine.compile_game``):

========================  =========  ========  ===================================
game                      histories  infosets  first decision (seat 0)
========================  =========  ========  ===================================
Leduc 2p (leduc_poker)        9,457       936  check (Call) / Raise, 3 cards
hold'em 2p (fcpa)           722,801     6,384  Fold / Call / Bet (pot) / AllIn
Leduc 3p (players=3)      1,831,601    25,800  check (Call) / Raise, 4 cards
hold'em 3p (fcpa)           697,937     8,864  Fold / Call / Bet (pot) / AllIn
========================  =========  ========  ===================================

hold'em 2p: ``universal_poker`` no-limit with fcpa, 4 ranks x 2 suits, two
hole cards, one board card, 2 rounds, blinds 1/2, stacks 20 (10 big
blinds), seat 0 the small blind acting first before the flop. hold'em 3p:
the same deck with one hole card, blinds 0/1/2 (seat 0 the button),
stacks 20. Each compiles in under 10 seconds.
"""

from __future__ import annotations

import functools

from spiel_ext.engine import load_game
from spiel_ext.results.labels import game_label
from spiel_ext.results.report import Choice

# ------------------------------------------------ Kuhn, Figs. 3-4
SCHEDULE = Choice(
    "CFR update schedule", "not stated",
    "simultaneous: OpenSpiel's _CFRSolver(alternating_updates=False, "
    "regret_matching_plus=False, linear_averaging=False) (algorithm/"
    "CFR.py:25-30)", "simultaneous", "alternating (OpenSpiel's default)")
START = Choice(
    "random start", "\"a random distribution\"",
    "cumulative regrets and cumulative policy U(0, 1) per (infoset, "
    "action) (CFR.py:7-8,16-17); first iterate OpenSpiel's uniform current "
    "policy", "U(0, 1) regrets and policy; first iterate regret matching "
    "on them (measured: no difference)", "U(0, 10), U(0, 100): \"regardless "
    "of the initial strategy\"")
AVERAGING = Choice("averaging", "not stated",
                   "uniform (linear_averaging=False)", "uniform")
ITERATIONS = Choice("iterations", "10,000", "10,000 (Kuhn)", "10,000")
ALPHA = Choice("what is evaluated", "alpha = sigma(J_, Bet) after 10,000 "
               "iterations; NashConv", "the average policy",
               "alpha of the average policy; NashConv (BR0 + BR1)")
KUHN_ALPHA_CHOICES = (SCHEDULE, START, AVERAGING, ITERATIONS,
                      Choice("runs", "100", "12 seeds checked (authors' "
                             "code)", "100 per setting"), ALPHA)
KUHN_SETTINGS_CHOICES = (
    SCHEDULE, START, AVERAGING, ITERATIONS,
    Choice("runs", "30 per setting", "-", "30 per setting"),
    Choice("preference degrees", "delta(Bet) 10, 5 (BR), 5 (RM); "
           "delta(Pass) 5 (RM), 5, 10 (BR) at player 1's first "
           "decisions; 1 elsewhere", "the same", "the same; beta = 0"),
    ALPHA)

# ------------------------------------------------ play styles, section 5.2
STYLE_CHOICES = (
    Choice("Normal", "\"standard CFR\" (hold'em)",
           "Pref-CFR(BR) with no preference (PrefCFRMain.py:151,163; Leduc)",
           "both: vanilla CFR, and Pref-CFR(BR) without preference"),
    Choice("unit of beta", "not stated",
           "cumulative sampled regret / the infoset's visit count = regret "
           "conditional on reaching the infoset (PrefCFR.py:26,80-83,96-100,"
           "135-138)", "conditional on reaching the infoset",
           "reach-weighted R / T (k x the conditional beta at a first "
           "decision behind k hands)"),
    Choice("degrees", "delta = 5 on raises (Aggressive) or call (Loose-"
           "passive), beta = 0.05, at player 1's first decision",
           "the same (Leduc)", "the same; all-in not preferred"),
    Choice("solver and length", "not stated for hold'em",
           "external-sampling MCCFR, 10M node touches (PrefCFR.py, "
           "PrefCFRMain.py:25; Leduc)",
           "full-width Pref-CFR(BR), 10,000 iterations from the uniform "
           "start (ours; alpha on Kuhn does not move with run length)"),
    Choice("games", "2p and 3p no-limit hold'em (game and chip scale of "
           "beta not public)", "Leduc",
           "Leduc 2p/3p and small fcpa hold'em 2p/3p (ours: the paper's "
           "games cannot be matched)"),
    Choice("what is evaluated", "first-decision mix (Figs. 5-6); mb/h "
           "against Normal (Tables 2-3)", "-",
           "exact first-decision mix (reach-weighted over hands); exact "
           "seat-averaged mb/h against Normal players; NashConv"),
)

LEDUC_2P = "leduc_poker"
HOLDEM_2P = ("universal_poker(betting=nolimit,bettingAbstraction=fcpa,"
             "numPlayers=2,numRounds=2,blind=1 2,firstPlayer=1 2,numSuits=2,"
             "numRanks=4,numHoleCards=2,numBoardCards=0 1,stack=20 20)")
LEDUC_3P = "leduc_poker(players=3)"
HOLDEM_3P = ("universal_poker(betting=nolimit,bettingAbstraction=fcpa,"
             "numPlayers=3,numRounds=2,blind=0 1 2,firstPlayer=1 2,"
             "numSuits=2,numRanks=4,numHoleCards=1,numBoardCards=0 1,"
             "stack=20 20 20)")
GAMES = (LEDUC_2P, HOLDEM_2P, LEDUC_3P, HOLDEM_3P)
_GAME_NAMES = {LEDUC_2P: ("Leduc 2p", "leduc_2p"),
               HOLDEM_2P: ("hold'em 2p (fcpa)", "holdem_2p"),
               LEDUC_3P: ("Leduc 3p", "leduc_3p"),
               HOLDEM_3P: ("hold'em 3p (fcpa)", "holdem_3p")}


@functools.lru_cache(maxsize=None)
def _canonical_names() -> dict[str, tuple[str, str]]:
  return {str(load_game(game)): names for game, names in _GAME_NAMES.items()}


def game_names(games) -> dict[str, tuple[str, str]]:
  """{game: (display name, file-name-safe short name)}, both unique over
  ``games``: "Leduc 3p" / "leduc_3p" for the experiment's games; for
  others the game with its non-default parameters when short, else its
  name and number of players ("universal_poker 3p")."""
  names: dict[str, tuple[str, str]] = {}
  for game in games:
    known = _canonical_names().get(str(load_game(game)))
    if known:
      display, slug = known
    else:
      loaded = load_game(game)
      short = loaded.get_type().short_name
      label = game_label(game)
      display = label if len(label) <= 40 else (
          f"{short} {loaded.num_players()}p")
      slug = f"{short}_{loaded.num_players()}p"
    unique_display, unique_slug, number = display, slug, 2
    while any(unique_display == d or unique_slug == s
              for d, s in names.values()):
      unique_display, unique_slug = f"{display} #{number}", f"{slug}_{number}"
      number += 1
    names[game] = (unique_display, unique_slug)
  return names
