"""Play styles from Pref-CFR: the Pref-CFR paper's section 5.2, Tables 2-3.

Qi Ju, Thomas Tellier, Meng Sun, Zhemei Fang, Yunfeng Luo, "Preference-CFR:
Beyond Nash Equilibrium for Better Game Strategies", ICML 2025,
arXiv:2411.01217, section 5.2 (Tables 2-3, Figures 5-6).

``pref_cfr_styles`` trains three styles on two-player and three-player
poker and compares them:

- **Normal**: vanilla CFR (the paper's hold'em text: "standard CFR"), or
  Pref-CFR(BR) with no preference (the authors' Leduc code,
  Zealoter/PrefCFR ``PrefCFRMain.py``): both readings run, as two paper
  settings.
- **Aggressive**: Pref-CFR(BR) with preference degree delta = 5 on the
  raises and vulnerability beta = 0.05 at player 1's (seat 0's) first
  decisions only (delta = 1, beta = 0 everywhere else).
- **Loose-passive**: the same with delta(Call) = 5 (a check is OpenSpiel's
  Call).

All start from the uniform strategy (deterministic: one run each).

Which actions are raises. Leduc has one ("Raise"). universal_poker with
``bettingAbstraction=fcpa`` offers Fold, Call, Bet (a pot-size raise) and
AllIn; the aggressive style prefers Bet only. The paper sets delta on "all
raising actions" of an action set (fold, call, raise to 2, raise to 3,
all-in) that lists all-in apart from the raises, and its aggressive AI
moves mass into the larger raise while all-in stays at 0.0% in both
tables; a preference on AllIn would instead make all-in the style's
fallback (with no average regret above beta, Pref-CFR plays the preferred
actions in proportion to delta - 1: half Bet, half AllIn), a shove-heavy
style the paper does not describe. ``Bet<size>`` of unabstracted no-limit
games also counts as a raise (see :func:`solvers.is_raise`).

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

Outputs (``<output_dir>/pref_cfr_styles/``):

- ``tables/first_decision``: each style's action distribution at player
  1's first decisions (the reach-weighted average over those infosets:
  fold / call / raise / all-in %), the paper's Figure 5-6 summary rows;
  ``figures/hands_<game>``: the strategy per private hand, one panel per
  style (the small-game analogue of the paper's hand matrices).
- ``tables/head_to_head_<game>_seat0`` and ``..._averaged`` (two players):
  the row style's winnings in mb/h against the column style with the row
  style in seat 0, and averaged over both seat orders;
  ``tables/head_to_head_<game>_seats`` (three players): each style in each
  seat against two Normal players, and the seat average. Exact expected
  values, no sampling; mb/h = 1000 x chips per hand / big blind (Leduc:
  the ante, 1 chip; universal_poker: its largest blind).
- ``tables/style_costs``: each style's seat-averaged result against Normal
  and its NashConv, in mb/h; ``figures/nash_conv``: NashConv vs
  iterations.

Scales: quick, 300 iterations per style and game (about 2 minutes on one
core from cold caches); paper, 10,000 (about 40 to 60 minutes on one core,
half of it or more Leduc 3p; the two 2-player games alone took 11 minutes;
about 25 to 35 minutes with ``--workers=2``).
"""

from __future__ import annotations

import dataclasses
import functools
import textwrap
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from spiel_ext.engine import load_game
from spiel_ext.experiments.solvers import (STYLE_ALGORITHMS, game_string,
                                           is_raise)
from spiel_ext.experiments.spec import (Experiment, Scale, Settings,
                                        command_for, load_snapshots)
from spiel_ext.results.figures import line_figure, stacked_bars_figure
from spiel_ext.results.labels import game_label
from spiel_ext.results.report import (PAPER_SETTING, Choice, Claim, Variant,
                                      verdict_from)
from spiel_ext.results.tables import write_table

_PAPER = "Pref-CFR (Ju, Tellier, Sun, Fang, Luo 2025)"
NAME = "pref_cfr_styles"
STYLES = tuple(STYLE_ALGORITHMS)  # Normal, Aggressive, Loose-passive.
REFERENCE = "Normal"
_REACH_WEIGHTED = " (reach-weighted beta)"
VARIANTS = (
    Variant(f"{PAPER_SETTING} (hold'em text)", STYLES,
            "Normal = vanilla CFR (\"standard CFR\"); beta compared with "
            "the regret conditional on reaching the infoset (the authors' "
            "unit)"),
    Variant(f"{PAPER_SETTING} (authors' Leduc code)",
            ("Normal (BR)", "Aggressive", "Loose-passive"),
            "Normal = Pref-CFR(BR) without preference; the authors' unit"),
    Variant("reach-weighted beta",
            ("Normal",) + tuple(f"{style}{_REACH_WEIGHTED}"
                                for style in STYLES[1:]),
            "beta = 0.05 compared with R / T, k times the authors' beta at "
            "a first decision behind k private hands; Normal = vanilla CFR"),
    Variant("reach-weighted beta, Normal = BR",
            ("Normal (BR)",) + tuple(f"{style}{_REACH_WEIGHTED}"
                                     for style in STYLES[1:]),
            "the same styles against Pref-CFR(BR) without preference"),
)
# A style is "visible" when some first-decision action group moves by at
# least this much from Normal (our threshold; the paper's figures move by
# 10 to 24 points).
_VISIBLE_SHIFT = 0.05


def style_name(algorithm: str) -> str:
  """The style an algorithm label plays: "Normal (BR)" -> "Normal"."""
  return algorithm.split(" (", 1)[0]

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

# The paper's numbers (section 5.2 and 6 text; Tables 2-3 are images whose
# cells the text summarises as "within 10 mBB/h").
PAPER_COST_MBH = 10.0
# Two-player hold'em, player 1's first decision, %: fold, call, raise to 2,
# raise to 3, all-in.
PAPER_2P = {"Normal": (5.4, 52.7, 42.0, 0.0, 0.0),
            "Loose-passive": (0.3, 73.3, 21.7, 4.7, 0.0),
            "Aggressive": (4.2, 64.8, 9.8, 21.1, 0.0)}
PAPER_3P_NORMAL = (61.4, 0.0, 38.6, 0.0)  # fold, call, raise, all-in.
PAPER_3P_LOOSE_CALL = 23.9
PAPER_3P_AGGRESSIVE_RAISE_TO_3 = 16.0
PAPER_3P_LOOSE_GAIN_MBH = 0.2

# Table columns: our move names -> the paper's action groups.
_COLUMNS = ("fold", "call", "raise", "all-in")
_TIMED_SECONDS = 0.005  # Iterations timed for the training-speed claim.
_COLORS = {"fold": "#3b6fb6", "call": "#3a9b48", "raise": "#d9473a",
           "all-in": "#5a0a0a"}


def move_group(move: str) -> str:
  """The paper's action group of a move: fold, call, raise or all-in.

  Raises:
    ValueError: a move that is none of them (naming it).
  """
  if move == "Fold":
    return "fold"
  if move in ("Call", "Check"):
    return "call"
  if is_raise(move):
    return "raise"
  if move == "AllIn":
    return "all-in"
  raise ValueError(f"move {move!r} is not a fold, call, raise or all-in.")


# ----------------------------------------------------------------- games
@functools.lru_cache(maxsize=None)
def _canonical_names() -> dict[str, tuple[str, str]]:
  return {game_string(game): names for game, names in _GAME_NAMES.items()}


def game_names(games) -> dict[str, tuple[str, str]]:
  """{game: (display name, file-name-safe short name)}, both unique over
  ``games``: "Leduc 3p" / "leduc_3p" for the experiment's games; for
  others the game with its non-default parameters when short, else its
  name and number of players ("universal_poker 3p")."""
  names: dict[str, tuple[str, str]] = {}
  for game in games:
    known = _canonical_names().get(game_string(game))
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


def big_blind(game) -> float:
  """The chips of one big blind, the unit of mb/h.

  universal_poker: its largest blind; spiel_ext_leduc: its big blind, or
  the ante without blinds; leduc_poker and kuhn_poker: the ante, 1 chip.

  Raises:
    ValueError: another game.
  """
  loaded = load_game(game)
  name = loaded.get_type().short_name
  parameters = loaded.get_parameters()
  if name == "universal_poker":
    return float(max(int(x) for x in str(parameters["blind"]).split()))
  if name == "spiel_ext_leduc":
    blinds = str(parameters.get("blinds", "")).split()
    return float(max(int(x) for x in blinds)) if blinds else float(
        parameters["ante"])
  if name in ("leduc_poker", "kuhn_poker"):
    return 1.0
  raise ValueError(f"big_blind: no big blind known for {name!r}; mb/h is "
                   "defined for universal_poker, spiel_ext_leduc, "
                   "leduc_poker and kuhn_poker.")


def mbh(chips: float, blind: float) -> float:
  """Milli-big-blinds per hand: 1000 x chips / big blind."""
  return 1000.0 * chips / blind


# --------------------------------------------------------- head-to-head
def seat_values(game, style: Any, reference: Any) -> np.ndarray:
  """[seats]: the payoff of ``style`` in each seat, the others all playing
  ``reference`` (exact, in chips)."""
  from spiel_ext.engine import compile_game  # pylint: disable=g-import-not-at-top
  from spiel_ext.eval import profile_values  # pylint: disable=g-import-not-at-top
  tree = compile_game(game)
  values = []
  for seat in range(tree.num_players):
    seats = [reference] * tree.num_players
    seats[seat] = style
    values.append(profile_values(tree, seats)[seat])
  return np.array(values)


def two_player_matrices(game, strategies: dict[str, Any]
                        ) -> tuple[pd.DataFrame, pd.DataFrame]:
  """(seat 0, seat-averaged) matrices in chips of a two-player game:
  cell [row, column] is the row style's payoff with the row style in seat
  0 and the column style in seat 1, and the mean of that and the row
  style's payoff in seat 1 against the column style in seat 0.

  Raises:
    ValueError: not a two-player game.
  """
  from spiel_ext.engine import compile_game  # pylint: disable=g-import-not-at-top
  from spiel_ext.eval.metrics import head_to_head_matrix  # pylint: disable=g-import-not-at-top
  tree = compile_game(game)
  if tree.num_players != 2:
    raise ValueError(f"two_player_matrices needs a two-player game; "
                     f"{tree.game_string} has {tree.num_players}.")
  names, seat0 = head_to_head_matrix(tree, strategies, seat=0)
  _, seat1 = head_to_head_matrix(tree, strategies, seat=1)
  return (pd.DataFrame(seat0, index=names, columns=names),
          pd.DataFrame((seat0 + seat1) / 2, index=names, columns=names))


@dataclasses.dataclass
class GameResults:
  """What the experiment reads off one game's final strategies.

  Attributes:
    distribution: {style: {group: probability}} at player 1's first
      decisions (groups of :func:`move_group`).
    offered: the groups the first decisions offer.
    hands: {style: hand_strategies table}.
    seat0, averaged: two players: the head-to-head matrices in mb/h.
    seats: the styles' mb/h in each seat against Normal players, with a
      "seat average" column (every game, when Normal ran).
    cost: {style: seat-averaged mb/h minus Normal's}, when Normal ran.
  """
  game: str
  name: str
  slug: str
  players: int
  blind: float
  distribution: dict[str, dict[str, float]]
  offered: tuple[str, ...]
  hands: dict[str, pd.DataFrame]
  seat0: pd.DataFrame | None
  averaged: pd.DataFrame | None
  seats: pd.DataFrame | None
  cost: dict[str, float]


def _ordered(names) -> list[str]:
  names = list(names)
  return [s for s in STYLES if s in names] + [n for n in names
                                               if n not in STYLES]


def analyse_game(game: str, strategies: dict[str, np.ndarray],
                 name: str | None = None,
                 slug: str | None = None) -> GameResults:
  """Distributions, hands and head-to-head values of one game's styles.

  Args:
    game: the game string.
    strategies: {style: final average strategy array}.
    name, slug: the game's display and file names (default: from
      :func:`game_names`).
  """
  from spiel_ext.engine import compile_game  # pylint: disable=g-import-not-at-top
  from spiel_ext.eval import (first_decision_distribution,  # pylint: disable=g-import-not-at-top
                              hand_strategies)
  if name is None or slug is None:
    name, slug = game_names([game])[game]
  tree = compile_game(game)
  blind = big_blind(game)
  strategies = {style: strategies[style] for style in _ordered(strategies)}
  distribution, offered = {}, []
  for style, strategy in strategies.items():
    grouped = {}
    for move, probability in first_decision_distribution(tree,
                                                         strategy).items():
      group = move_group(move)
      grouped[group] = grouped.get(group, 0.0) + probability
    distribution[style] = grouped
    offered = [g for g in _COLUMNS if g in grouped or g in offered]
  hands = {style: hand_strategies(tree, strategy)
           for style, strategy in strategies.items()}
  seat0 = averaged = seats = None
  if tree.num_players == 2:
    seat0, averaged = (frame * 1000.0 / blind
                       for frame in two_player_matrices(tree, strategies))
  cost = {}
  if REFERENCE in strategies:
    reference = strategies[REFERENCE]
    rows = {style: seat_values(tree, strategy, reference) * 1000.0 / blind
            for style, strategy in strategies.items()}
    seats = pd.DataFrame(rows, index=[f"seat {s}" for s in
                                      range(tree.num_players)]).T
    seats["seat average"] = seats.mean(axis=1)
    cost = {style: float(seats.loc[style, "seat average"] -
                         seats.loc[REFERENCE, "seat average"])
            for style in strategies}
  return GameResults(game, name, slug, tree.num_players, blind,
                     distribution, tuple(offered), hands, seat0, averaged,
                     seats, cost)


def analyse(settings: Settings, folder: Path
            ) -> dict[Variant, list[GameResults]]:
  """{variant: :func:`analyse_game` of every game of the run} for each
  variant whose algorithms ran, from the "final" snapshots (the first seed
  of each algorithm: the styles are deterministic). Within a variant the
  strategies go by their style's name (:func:`style_name`)."""
  names = game_names(settings.games)
  variants = PREF_CFR_STYLES.variants_run(settings)
  if not variants:  # A run of other algorithms: analyse them as given.
    variants = [Variant("as run", tuple(settings.algorithms))]
  policies = {game: load_snapshots(settings, folder, "final", game=game)
              for game in settings.games}
  results: dict[Variant, list[GameResults]] = {}
  for variant in variants:
    results[variant] = []
    for game in settings.games:
      chosen = {style_name(name) if variant.name != "as run" else name:
                policies[game][name][0] for name in variant.algorithms
                if name in policies[game]}
      if chosen:
        results[variant].append(analyse_game(game, chosen, *names[game]))
  return results


def _suffix(variant: Variant, variants: list[Variant]) -> str:
  """"" for the first variant's files, "_<name>" for the others'."""
  if variant is variants[0]:
    return ""
  return f"_{variant.slug}"


# ------------------------------------------------------------- outputs
def _percent(value: float | None) -> str:
  return "—" if value is None else f"{100 * value:.1f}"


def distribution_table(results: list[GameResults]) -> pd.DataFrame:
  """Rows game x style; fold / call / raise / all-in % at player 1's first
  decisions ("—": not offered there)."""
  table = []
  for result in results:
    for name, grouped in result.distribution.items():
      table.append({"game": result.name, "style": name, **{
          f"{group} %": _percent(grouped.get(group)) for group in _COLUMNS}})
  return pd.DataFrame(table)


def _rounded(frame: pd.DataFrame) -> pd.DataFrame:
  """Rounded far below the printed digits, without negative zeros."""
  return frame.round(9) + 0.0


def _matrix_frame(matrix: pd.DataFrame, row_label: str = "",
                  column_label: str = "") -> pd.DataFrame:
  frame = _rounded(matrix)
  frame.columns = [f"{c} {column_label}".strip() for c in frame.columns]
  frame.index = [f"{r} {row_label}".strip() for r in frame.index]
  return frame.reset_index(names="")


def nash_conv_final(frame: pd.DataFrame) -> pd.DataFrame:
  """[game, algorithm]: the last iteration, the NashConv there (mean over
  seeds) and the solver's seconds per iteration between the first and the
  last evaluation (so a one-time compilation in the first iteration is not
  counted)."""
  data = frame[frame.metric == "nash_conv"]
  keys = ["game", "algorithm"]
  iterations = data.groupby(keys)["iteration"]
  last = data[data.iteration == iterations.transform("max")].groupby(keys)
  first = data[data.iteration == iterations.transform("min")].groupby(keys)
  span = (last["iteration"].max() - first["iteration"].min())
  return pd.DataFrame({
      "iteration": last["iteration"].max(),
      "nash_conv": last["value"].mean(),
      "seconds_per_iteration": (last["wall_time"].mean() -
                                first["wall_time"].mean()) /
                               span.where(span > 0)})


def algorithm_of(style: str, variant: Variant | None) -> str:
  """The algorithm label that plays ``style`` in ``variant``."""
  if variant is None:
    return style
  return next((name for name in variant.algorithms
               if style_name(name) == style), style)


def costs_table(results: list[GameResults], frame: pd.DataFrame,
                variant: Variant | None = None) -> pd.DataFrame:
  """game x style: the seat-averaged result against Normal players and the
  final NashConv, in mb/h, and the solver's time per iteration (the
  algorithm playing each style in ``variant``)."""
  final = nash_conv_final(frame)
  table = []
  for result in results:
    for name in result.distribution:
      algorithm = algorithm_of(name, variant)
      row = {"game": result.name, "style": name, "algorithm": algorithm,
             "vs Normal, seat average (mb/h)": result.cost.get(name, np.nan)}
      if (result.game, algorithm) in final.index:
        row["NashConv (mb/h)"] = mbh(final.loc[(result.game, algorithm),
                                               "nash_conv"], result.blind)
        row["iterations"] = int(final.loc[(result.game, algorithm),
                                          "iteration"])
        row["ms per iteration"] = 1000 * final.loc[(result.game, algorithm),
                                                   "seconds_per_iteration"]
      table.append(row)
  return pd.DataFrame(table)


def _segment(move: str) -> tuple[str, str]:
  """(legend label, colour) of a move's bars: its group's."""
  group = move_group(move)
  return ("raise (pot)" if move == "Bet" else group), _COLORS[group]


def hands_figure(result: GameResults, path: Path) -> list[Path]:
  """Stacked bars of the strategy per private hand, one panel per style
  (the paper's Figures 5-6 at the size of our games)."""
  panels = {}
  for name, table in result.hands.items():
    mix = result.distribution[name]
    panels[f"{name}\n" + ", ".join(
        f"{group} {100 * mix[group]:.0f}%" for group in result.offered)] = (
            table.drop(columns="weight"))
  return stacked_bars_figure(
      panels, path, xlabel="private hand (strongest first)",
      ylabel="probability at the first decision",
      segments={move: _segment(move) for table in panels.values()
                for move in table.columns},
      title=textwrap.fill(
          f"{result.name}: player 1's first decision per private hand "
          "(Pref-CFR paper, Figs. 5-6)", 110))


def summarize_styles(frame: pd.DataFrame, settings: Settings,
                     folder: Path) -> tuple[list[Path], list[Path]]:
  """Figures and tables of the run (see the module docstring); the first
  variant's files have plain names, the others' a suffix naming them."""
  analysed = analyse(settings, folder)
  variants = list(analysed)
  order = _ordered(settings.algorithms)
  names = game_names(settings.games)
  rank = {game: number for number, game in enumerate(settings.games)}
  named = frame.assign(game_name=frame.game.map(lambda g: names[g][0]))
  named = named.iloc[np.argsort(named.game.map(rank).to_numpy(),
                                kind="stable")]
  figures = line_figure(named, "nash_conv", folder / "figures" / "nash_conv",
                        panel="game_name", line_order=order,
                        title="NashConv of each style (Pref-CFR paper, "
                        "section 5.2)")
  tables = []
  for variant, results in analysed.items():
    suffix = _suffix(variant, variants)
    label = "" if variant.name == "as run" else f"; {variant.label}"
    tables += write_table(
        distribution_table(results),
        folder / "tables" / f"first_decision{suffix}",
        caption="Action distribution at player 1's first decisions, "
        f"reach-weighted (%; Pref-CFR paper, Figs. 5-6{label})")
    for result in results:
      figures += hands_figure(result, folder / "figures" /
                              f"hands_{result.slug}{suffix}")
      if result.seat0 is not None:
        tables += write_table(
            _matrix_frame(result.seat0, "(seat 0)", "(seat 1)"),
            folder / "tables" / f"head_to_head_{result.slug}_seat0{suffix}",
            float_format=".2f", caption=f"{result.name}: the row style's "
            "winnings in mb/h, row in seat 0 (player 1), column in seat 1"
            f"{label}")
        tables += write_table(
            _matrix_frame(result.averaged),
            folder / "tables" / f"head_to_head_{result.slug}_averaged{suffix}",
            float_format=".2f", caption=f"{result.name}: the row style's "
            "winnings in mb/h against the column style, averaged over both "
            f"seat orders (Table 2{label})")
      elif result.seats is not None:
        tables += write_table(
            _rounded(result.seats).reset_index(names="style"),
            folder / "tables" / f"head_to_head_{result.slug}_seats{suffix}",
            float_format=".2f", caption=f"{result.name}: each style's "
            f"winnings in mb/h in each seat, every other seat Normal (Table "
            f"3{label})")
    tables += write_table(
        costs_table(results, frame, variant), folder / "tables" /
        f"style_costs{suffix}", float_format=".2f",
        caption="Each style against Normal players (seat average) and its "
        f"NashConv, in mb/h{label}")
  return figures, tables


# -------------------------------------------------------------- claims
def _shift_claim(results: list[GameResults], style: str, group: str,
                 direction: int, claim: str, paper: str, command: str,
                 players: int | None = None, setting: str = "",
                 suffix: str = "") -> Claim:
  """Whether ``style`` moves ``group`` in ``direction`` (+1 more, -1 less)
  relative to Normal at player 1's first decision, in every game that
  offers ``group``."""
  evidence = f"{NAME}/tables/first_decision{suffix}.md"
  cases, texts = [], []
  for result in results:
    if (group not in result.offered or style not in result.distribution or
        REFERENCE not in result.distribution or
        (players is not None and result.players != players)):
      continue
    before = result.distribution[REFERENCE][group]
    after = result.distribution[style][group]
    cases.append((after - before) * direction > 1e-3)
    texts.append(f"{result.name}: {100 * before:.1f}% -> {100 * after:.1f}%")
  skipped = [r.name for r in results if group not in r.offered]
  if not cases:
    return Claim(_PAPER, claim, paper, f"no game of the run offers {group} "
                 "at player 1's first decision", "not run", evidence, command,
                 setting)
  ours = f"{group}: " + "; ".join(texts)
  if skipped:
    ours += f" ({', '.join(skipped)}: {group} not offered there)"
  return Claim(_PAPER, claim, paper, ours, verdict_from(cases), evidence,
               command, setting)


def largest_shift(result: GameResults, style: str) -> tuple[str, float]:
  """(group, change) of the action group ``style`` moves most from Normal
  at player 1's first decision."""
  normal, styled = (result.distribution[REFERENCE],
                    result.distribution[style])
  changes = {group: styled.get(group, 0.0) - normal.get(group, 0.0)
             for group in result.offered}
  group = max(changes, key=lambda g: abs(changes[g]))
  return group, changes[group]


def _variant_claims(results: list[GameResults], frame: pd.DataFrame,
                    variant: Variant | None, settings: Settings,
                    suffix: str) -> list[Claim]:
  """Section 5.2's claims on one variant's styles."""
  command = command_for(settings)
  setting = variant.label if variant is not None else ""
  costs = f"{NAME}/tables/style_costs{suffix}.md"
  at = f"after {settings.iterations} iterations"
  claims = []
  # 1. Styles cost at most 10 mBB/h against Normal.
  cells, texts = [], []
  for result in results:
    styled = {n: c for n, c in result.cost.items() if n != REFERENCE}
    cells += [c >= -PAPER_COST_MBH for c in styled.values()]
    if styled:
      texts.append(f"{result.name}: " + ", ".join(
          f"{n} {c:+.1f}" for n, c in styled.items()))
  claims.append(Claim(
      _PAPER, "The styles lose little against Normal (Tables 2-3)",
      f"within {PAPER_COST_MBH:g} mBB/h",
      ("seat-averaged mb/h vs Normal players " + at + ": " +
       "; ".join(texts)) if texts else "Normal did not run",
      verdict_from(cells) if cells else "not run", costs, command, setting))
  # 2-4. The first decision shifts.
  shift = dict(command=command, setting=setting, suffix=suffix)
  claims.append(_shift_claim(
      results, "Loose-passive", "fold", -1,
      "Loose-passive folds less at player 1's first decision (Fig. 5)",
      f"2p hold'em: fold {PAPER_2P['Normal'][0]}% -> "
      f"{PAPER_2P['Loose-passive'][0]}%", **shift))
  claims.append(_shift_claim(
      results, "Loose-passive", "call", +1,
      "Loose-passive calls more at player 1's first decision (Figs. 5-6)",
      f"2p hold'em: call {PAPER_2P['Normal'][1]}% -> "
      f"{PAPER_2P['Loose-passive'][1]}%; 3p: {PAPER_3P_NORMAL[1]}% -> "
      f"{PAPER_3P_LOOSE_CALL}%", **shift))
  claims.append(_shift_claim(
      results, "Aggressive", "raise", +1,
      "Aggressive raises more at player 1's first decision (Figs. 5-6)",
      f"2p hold'em: raise to 3 {PAPER_2P['Normal'][3]}% -> "
      f"{PAPER_2P['Aggressive'][3]}% (all raises "
      f"{sum(PAPER_2P['Normal'][2:4]):.1f}% -> "
      f"{sum(PAPER_2P['Aggressive'][2:4]):.1f}%); 3p: raise to 3 0.0% -> "
      f"{PAPER_3P_AGGRESSIVE_RAISE_TO_3}%", **shift))
  # 5. Three players: Loose-passive gains a little.
  three = [r for r in results if r.players >= 3 and "Loose-passive" in r.cost]
  if three:
    gains = [r.cost["Loose-passive"] for r in three]
    claims.append(Claim(
        _PAPER, "Three players: Loose-passive loses nothing against Normal "
        "(Table 3)", f"+{PAPER_3P_LOOSE_GAIN_MBH:g} mBB/h",
        "seat-averaged vs Normal players: " + "; ".join(
            f"{r.name} {g:+.2f} mb/h" for r, g in zip(three, gains)) +
        " (holds: >= -0.5; holds partly: within the 10 mb/h of Tables 2-3)",
        "holds" if all(g >= -0.5 for g in gains) else "holds partly" if all(
            g >= -PAPER_COST_MBH for g in gains) else "does not hold",
        costs, command, setting))
  # 6. Visible and cheap at once: the paper's promise taken together.
  cases, texts = [], []
  for result in results:
    for style in ("Aggressive", "Loose-passive"):
      if style not in result.distribution or style not in result.cost or (
          REFERENCE not in result.distribution):
        continue
      group, change = largest_shift(result, style)
      price = result.cost[style]
      cases.append(abs(change) >= _VISIBLE_SHIFT and
                   price >= -PAPER_COST_MBH)
      texts.append(f"{result.name} {style}: {group} {100 * change:+.1f} "
                   f"points at {price:+.1f} mb/h")
  if cases:
    claims.append(Claim(
        _PAPER, "A style both changes play and stays cheap (section 5.2 "
        "taken together)", f"first-decision mix moves 10-24 points, within "
        f"{PAPER_COST_MBH:g} mBB/h",
        "largest first-decision shift from Normal and price: " +
        "; ".join(texts) + f" (holds for a style when the shift is at least "
        f"{100 * _VISIBLE_SHIFT:.0f} points and the price within "
        f"{PAPER_COST_MBH:g} mb/h)", verdict_from(cases), costs, command,
        setting))
  # 7-8. Convergence and training speed.
  final = nash_conv_final(frame)
  conv_cases, conv_texts, speed_cases, speed_texts = [], [], [], []
  for result in results:
    normal_algorithm = algorithm_of(REFERENCE, variant)
    if (result.game, normal_algorithm) not in final.index:
      continue
    normal = final.loc[(result.game, normal_algorithm)]
    styled = [n for n in result.distribution if n != REFERENCE and
              (result.game, algorithm_of(n, variant)) in final.index]
    rows = {n: final.loc[(result.game, algorithm_of(n, variant))]
            for n in styled}
    ratios = {n: row.nash_conv / normal.nash_conv for n, row in rows.items()}
    conv_cases += [ratio <= 3.0 for ratio in ratios.values()]
    conv_texts.append(f"{result.name}: Normal "
                      f"{mbh(normal.nash_conv, result.blind):.0f}, " +
                      ", ".join(f"{n} {mbh(rows[n].nash_conv, result.blind):.0f} ({ratio:.1f}x)"
                                for n, ratio in ratios.items()))
    if not normal.seconds_per_iteration >= _TIMED_SECONDS:
      continue  # Faster iterations measure the timer, not the solver.
    speeds = {n: row.seconds_per_iteration / normal.seconds_per_iteration
              for n, row in rows.items()}
    speeds = {n: v for n, v in speeds.items() if np.isfinite(v)}
    speed_cases += [v <= 1.5 for v in speeds.values()]
    if speeds:
      speed_texts.append(f"{result.name}: " + ", ".join(
          f"{n} {v:.2f}x" for n, v in speeds.items()))
  claims.append(Claim(
      _PAPER, "Pref-CFR styles converge like CFR (NashConv; section 5.2, "
      "Fig. 4)", "qualitative",
      (f"final NashConv in mb/h {at}: " + "; ".join(conv_texts) +
       " (holds: every style within 3x Normal's). With beta > 0 a style "
       "keeps a first-decision action that loses up to beta, so its "
       "NashConv levels off instead of going to 0")
      if conv_cases else "Normal did not run",
      verdict_from(conv_cases) if conv_cases else "not run",
      f"{NAME}/figures/nash_conv.png", command, setting))
  claims.append(Claim(
      _PAPER, "Pref-CFR does not significantly slow down training "
      "(section 6)", "qualitative",
      ("solver seconds per iteration relative to Normal: " +
       "; ".join(speed_texts) + " (holds: within 1.5x; games whose "
       f"iterations take at least {1000 * _TIMED_SECONDS:g} ms)")
      if speed_cases else "too few evaluation points to time",
      verdict_from(speed_cases) if speed_cases else "not run", costs,
      command, setting))
  return claims


def styles_claims(frame: pd.DataFrame, settings: Settings,
                  folder: Path) -> list[Claim]:
  """Section 5.2 of the paper on each variant: cheap styles, shifted first
  decisions, CFR-like convergence."""
  analysed = analyse(settings, folder)
  variants = list(analysed)
  claims = []
  for variant, results in analysed.items():
    claims += _variant_claims(
        results, frame, None if variant.name == "as run" else variant,
        settings, _suffix(variant, variants))
  return claims


_CHOICES = (
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


PREF_CFR_STYLES = Experiment(
    name=NAME,
    description="Pref-CFR section 5.2 (Tables 2-3): Normal / Aggressive / "
                "Loose-passive styles on 2p and 3p Leduc and fcpa hold'em: "
                "first-decision distributions, head-to-head in mb/h, "
                "NashConv",
    quick=Scale(iterations=300, seeds=1, games=GAMES,
                algorithms=tuple(dict.fromkeys(
                    a for v in VARIANTS for a in v.algorithms))),
    paper=Scale(iterations=10_000, seeds=1, games=GAMES,
                algorithms=tuple(dict.fromkeys(
                    a for v in VARIANTS for a in v.algorithms))),
    metrics=("nash_conv",),
    summarize=summarize_styles,
    cost="quick: about 4 minutes from cold caches; paper: about an hour "
         "with --workers=2 (Leduc 3p is most of it)",
    claims=styles_claims,
    choices=_CHOICES,
    variants=VARIANTS)
