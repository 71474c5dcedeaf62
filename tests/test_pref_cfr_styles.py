"""pref_cfr_styles: the play styles of Ju, Tellier, Sun, Fang, Luo,
"Preference-CFR: Beyond Nash Equilibrium for Better Game Strategies", ICML
2025, arXiv:2411.01217, section 5.2 (Tables 2-3, Figures 5-6).

Head-to-head values against OpenSpiel's ``expected_game_score``, the
first-decision distribution against hand computations from the policy
tables, the styles' shifts on Leduc, and an end-to-end run.
"""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import expected_game_score

import spiel_ext  # pylint: disable=unused-import
from spiel_ext.engine import compile_game
from spiel_ext.eval import (first_decision_distribution, hand_strategies,
                            profile_values)
from spiel_ext.experiments import EXPERIMENTS
from spiel_ext.experiments.pref_cfr import style_readouts as styles
from spiel_ext.analysis.poker_units import big_blind
from spiel_ext.experiments.pref_cfr import settings as setup
from spiel_ext.analysis.claims import ClaimSpec
from spiel_ext.experiments.pref_cfr.shared import cases_verdict
from spiel_ext.experiments.pref_cfr.measures_styles import shift_measurement
from spiel_ext.experiments.pref_cfr.style_claims import NAME, PAPER
from spiel_ext.results.report import report_text
from spiel_ext.results.claims import judge
from spiel_ext.experiments.pref_cfr.figures import first_decision_table
from spiel_ext.experiments.solvers import (ALGORITHMS, build_style_solver,
                                           is_raise, style_preference)
from spiel_ext.policy import to_tabular_policy

ROOT = Path(__file__).resolve().parent.parent

# Small fcpa no-limit games (seat 0 acts first before the flop, as in the
# experiment's games): 11,081 and 39,037 histories.
TINY_3P = ("universal_poker(betting=nolimit,bettingAbstraction=fcpa,"
           "numPlayers=3,numRounds=2,blind=0 1 2,firstPlayer=1 2,numSuits=1,"
           "numRanks=4,numHoleCards=1,numBoardCards=0 1,stack=12 12 12)")
TINY_HOLDEM_2P = ("universal_poker(betting=nolimit,bettingAbstraction=fcpa,"
                  "numPlayers=2,numRounds=2,blind=1 2,firstPlayer=1 2,"
                  "numSuits=2,numRanks=3,numHoleCards=2,numBoardCards=0 1,"
                  "stack=10 10)")
# Leduc with blinds: seat 0 (small blind) can fold at its first decision.
LEDUC_BLINDS = "spiel_ext_leduc(blinds=1 2)"


def _train(game, iterations, names=styles.STYLES):
  """{algorithm: average strategy} after ``iterations`` of each, built
  through the experiment's algorithm entries."""
  strategies = {}
  for name in names:
    entry = ALGORITHMS[name]
    solver = entry.factory(game, seed=0, **dict(entry.hyperparameters))
    for _ in range(iterations):
      solver.evaluate_and_update_policy()
    strategies[name] = solver.average_strategy()
  return strategies


def _policy_value(game, tree, seats):
  return expected_game_score.policy_value(
      game.new_initial_state(), [to_tabular_policy(tree, s) for s in seats])


def test_three_player_head_to_head_equals_openspiel_policy_value():
  """Acceptance: each style in each seat against two Normal players, in
  mb/h, is OpenSpiel's exact policy value of that seat."""
  game = pyspiel.load_game(TINY_3P)
  tree = compile_game(game)
  strategies = _train(TINY_3P, 15)
  result = styles.analyse_game(TINY_3P, strategies)
  assert result.blind == 2.0 and result.seat0 is None
  normal = strategies["Normal"]
  for name, strategy in strategies.items():
    for seat in range(3):
      seats = [normal] * 3
      seats[seat] = strategy
      reference = _policy_value(game, tree, seats)[seat]
      assert result.seats.loc[name, f"seat {seat}"] == pytest.approx(
          1000 * reference / 2, abs=1e-9)
    assert result.seats.loc[name, "seat average"] == pytest.approx(
        result.seats.loc[name, [f"seat {s}" for s in range(3)]].mean())
  # Three different strategies, one per seat.
  profile = [strategies["Aggressive"], strategies["Normal"],
             strategies["Loose-passive"]]
  np.testing.assert_allclose(profile_values(tree, profile),
                             _policy_value(game, tree, profile), atol=1e-12)
  assert result.cost["Normal"] == 0.0
  assert result.cost["Aggressive"] == pytest.approx(
      result.seats.loc["Aggressive", "seat average"] -
      result.seats.loc["Normal", "seat average"])


@pytest.mark.parametrize("game_name,blind", [
    ("leduc_poker", 1.0),
    pytest.param(TINY_HOLDEM_2P, 2.0, marks=pytest.mark.slow)])
def test_two_player_head_to_head_equals_openspiel_policy_value(game_name,
                                                               blind):
  game = pyspiel.load_game(game_name)
  tree = compile_game(game)
  strategies = _train(game_name, 10)
  result = styles.analyse_game(game_name, strategies)
  assert result.blind == blind
  for row, a in strategies.items():
    for column, b in strategies.items():
      first = _policy_value(game, tree, [a, b])[0]   # row in seat 0
      second = _policy_value(game, tree, [b, a])[1]  # row in seat 1
      assert result.seat0.loc[row, column] == pytest.approx(
          1000 * first / blind, abs=1e-9)
      assert result.averaged.loc[row, column] == pytest.approx(
          1000 * (first + second) / 2 / blind, abs=1e-9)
  # Zero-sum: a style against itself, averaged over seats, wins nothing.
  np.testing.assert_allclose(np.diag(result.averaged), 0.0, atol=1e-9)
  assert result.cost["Aggressive"] == pytest.approx(
      result.averaged.loc["Aggressive", "Normal"], abs=1e-9)


def _random_strategy(tree, seed):
  rng = np.random.default_rng(seed)
  raw = np.where(tree.infoset_legal, rng.gamma(1.0, size=tree.infoset_legal.shape),
                 0.0)
  return raw / raw.sum(axis=1, keepdims=True)


def test_first_decision_distribution_by_hand_on_leduc():
  """Seat 0 opens Leduc holding one of 6 cards, each with probability 1/6:
  the distribution is the plain mean of the 6 opening rows."""
  tree = compile_game("leduc_poker")
  strategy = _random_strategy(tree, 5)
  table = to_tabular_policy(tree, strategy)
  rows = [table.policy_for_key(
      f"[Observer: 0][Private: {card}][Round 1][Player: 0][Pot: 2]"
      "[Money: 99 99][Round1: ][Round2: ]") for card in range(6)]
  expected = np.mean(rows, axis=0)
  ours = first_decision_distribution("leduc_poker", table)
  assert list(ours) == ["Call", "Raise"]
  assert ours["Call"] == pytest.approx(expected[1], abs=1e-12)
  assert ours["Raise"] == pytest.approx(expected[2], abs=1e-12)
  # Per hand: rank J holds cards 0 and 1, Q 2 and 3, K 4 and 5.
  hands = hand_strategies("leduc_poker", table)
  assert list(hands.index) == ["K", "Q", "J"]
  for rank, cards in (("J", (0, 1)), ("Q", (2, 3)), ("K", (4, 5))):
    assert hands.loc[rank, "Raise"] == pytest.approx(
        np.mean([rows[c][2] for c in cards]), abs=1e-12)
    assert hands.loc[rank, "weight"] == pytest.approx(1 / 3, abs=1e-12)


def test_first_decision_distribution_by_hand_with_reach_weights():
  """Kuhn poker, player 2's first decisions ("<card>p" after a pass,
  "<card>b" after a bet): each weighted by the deal (1/6) and player 1's
  probability of the action that leads there."""
  tree = compile_game("kuhn_poker")
  table = to_tabular_policy(tree, _random_strategy(tree, 8))
  weights, mix = 0.0, np.zeros(2)
  for mine in range(3):
    for theirs in range(3):
      if theirs == mine:
        continue
      opener = table.policy_for_key(str(theirs))
      for action, suffix in ((0, "p"), (1, "b")):
        weight = opener[action] / 6
        weights += weight
        mix += weight * table.policy_for_key(f"{mine}{suffix}")
  ours = first_decision_distribution("kuhn_poker", table, player=1)
  assert weights == pytest.approx(1.0)
  assert [ours["Pass"], ours["Bet"]] == pytest.approx(list(mix / weights),
                                                      abs=1e-12)
  with pytest.raises(ValueError, match="player"):
    first_decision_distribution("kuhn_poker", table, player=2)


def test_hold_em_hands_are_pairs_suited_and_offsuit():
  tree = compile_game(TINY_HOLDEM_2P)
  hands = hand_strategies(tree, tree.uniform_policy())
  assert list(hands.index) == ["44", "33", "22", "43s", "43o", "42s", "42o",
                               "32s", "32o"]
  # 15 two-card hands from 6 cards: 1 per pair, 2 suited, 2 offsuit each.
  np.testing.assert_allclose(hands["weight"] * 15,
                             [1, 1, 1, 2, 2, 2, 2, 2, 2], atol=1e-9)
  np.testing.assert_allclose(hands[["Fold", "Call", "Bet", "AllIn"]], 0.25)


_SHIFT_NAMES = ("Normal (BR)", "Aggressive", "Loose-passive",
                "Aggressive (reach-weighted beta)",
                "Loose-passive (reach-weighted beta)")


def test_styles_shift_the_first_decision_on_leduc():
  """After 300 iterations, against the same rule without preference
  (Normal (BR)), Aggressive raises more and Loose-passive checks (Call)
  more on Leduc; with blinds, where seat 0 can fold at its first decision,
  Loose-passive folds less. beta compared with R / T gives each style k = 6
  times the room, so every shift is larger than with the authors' unit."""
  for game, moves in (("leduc_poker", {"Aggressive": "Raise",
                                       "Loose-passive": "Call"}),
                      (LEDUC_BLINDS, {"Loose-passive": "Call"})):
    mixes = {name: first_decision_distribution(game, strategy)
             for name, strategy in _train(game, 300, _SHIFT_NAMES).items()}
    for style, move in moves.items():
      shift = mixes[style][move] - mixes["Normal (BR)"][move]
      wider = (mixes[f"{style} (reach-weighted beta)"][move] -
               mixes["Normal (BR)"][move])
      assert 0.02 < shift < wider, (game, style, shift, wider)
  assert mixes["Normal (BR)"]["Fold"] > 0.02
  assert (mixes["Loose-passive (reach-weighted beta)"]["Fold"] <
          mixes["Loose-passive"]["Fold"] < mixes["Normal (BR)"]["Fold"])


def test_style_preferences_by_game():
  assert style_preference("leduc_poker", "aggressive") == {"Raise": 5.0}
  assert style_preference("leduc_poker", "loose-passive") == {"Call": 5.0}
  # fcpa: the pot-size Bet is the raise; AllIn is not preferred.
  assert style_preference(TINY_3P, "aggressive") == {
      "player=0 move=Bet": 5.0}
  assert style_preference(TINY_3P, "loose-passive") == {
      "player=0 move=Call": 5.0}
  with pytest.raises(ValueError, match="offer no such action"):
    style_preference("kuhn_poker", "loose-passive")
  with pytest.raises(ValueError, match="style must be one of"):
    style_preference("leduc_poker", "tight")
  with pytest.raises(ValueError, match="style must be one of"):
    build_style_solver("leduc_poker", style="tight")
  solver = build_style_solver("leduc_poker", style="aggressive")
  first = solver.tree.key_to_infoset[
      "[Observer: 0][Private: 0][Round 1][Player: 0][Pot: 2][Money: 99 99]"
      "[Round1: ][Round2: ]"]
  assert solver.preference[first].tolist() == [1.0, 1.0, 5.0]
  assert solver.vulnerability[first] == 0.05
  # Only the 6 openings (one per card) carry a preference and beta.
  assert (solver.preference > 1).sum() == 6
  assert (solver.vulnerability > 0).sum() == 6


def test_moves_and_big_blinds():
  assert is_raise("Raise") and is_raise("Bet") and is_raise("Bet12")
  assert not is_raise("AllIn") and not is_raise("Betting")
  assert [styles.move_group(m) for m in ("Fold", "Call", "Bet", "AllIn")] == [
      "fold", "call", "raise", "all-in"]
  with pytest.raises(ValueError, match="Pass"):
    styles.move_group("Pass")
  assert big_blind(TINY_3P) == 2.0
  assert big_blind("leduc_poker(players=3)") == 1.0
  assert big_blind(LEDUC_BLINDS) == 2.0
  assert big_blind("spiel_ext_leduc(ante=3)") == 3.0
  with pytest.raises(ValueError, match="tic_tac_toe"):
    big_blind("tic_tac_toe")


def test_game_names_are_short_and_unique():
  names = setup.game_names([*setup.GAMES, TINY_3P, TINY_3P.replace(
      "stack=12 12 12", "stack=14 14 14")])
  assert [names[g] for g in setup.GAMES] == [
      ("Leduc 2p", "leduc_2p"), ("hold'em 2p (fcpa)", "holdem_2p"),
      ("Leduc 3p", "leduc_3p"), ("hold'em 3p (fcpa)", "holdem_3p")]
  assert len({slug for _, slug in names.values()}) == len(names)
  assert len({name for name, _ in names.values()}) == len(names)


def _result(name, players, distribution, cost):
  return styles.GameResults(
      game=name, name=name, slug=name, players=players, blind=1.0,
      distribution=distribution,
      offered=tuple(g for g in ("fold", "call", "raise", "all-in")
                    if g in distribution["Normal"]),
      hands={}, seat0=None, averaged=None, seats=None, cost=cost)


def _shift_claim(games, style: str, group: str, direction: int,
                 statement: str, paper_value: str, command: str,
                 paper=None):
  """The report row a first-decision shift claim gives on already analysed
  ``games`` (the experiment's shift measure and rule, on hand-made
  results; ``paper``: the paper's moves, None for section 5.2's)."""
  spec = ClaimSpec(PAPER, statement, paper_value, lambda _: shift_measurement(
      games, style, group, direction, paper=paper), cases_verdict,
                   first_decision_table(None, ()))
  return judge([spec], None, NAME, command)[0]


def test_shift_claims_say_where_a_move_is_not_offered():
  leduc = _result("L", 2, {"Normal": {"call": 0.5, "raise": 0.5},
                           "Loose-passive": {"call": 0.9, "raise": 0.1}}, {})
  holdem = _result("H", 2, {
      "Normal": {"fold": 0.3, "call": 0.3, "raise": 0.4},
      "Loose-passive": {"fold": 0.01, "call": 0.9, "raise": 0.09}}, {})
  claim = _shift_claim([leduc, holdem], "Loose-passive", "fold", -1,
                              "folds less", "5.4% -> 0.3%", "cmd")
  assert claim.verdict == "holds"
  assert "30.0% -> 1.0%" in claim.ours and "L: fold not offered" in claim.ours
  assert _shift_claim([leduc], "Loose-passive", "fold", -1, "c", "p",
                             "cmd").verdict == "not run"
  assert _shift_claim([leduc, holdem], "Loose-passive", "raise", +1,
                             "c", "p", "cmd", paper={2: (0.0, 20.0)}
                             ).verdict == "does not hold"
  # The paper gives no Loose-passive raise move: nothing to judge.
  assert _shift_claim([leduc, holdem], "Loose-passive", "raise", +1,
                             "c", "p", "cmd").verdict == "not run"


def _run(*flags):
  result = subprocess.run(
      [sys.executable, str(ROOT / "run_experiments.py"), "--quiet", *flags],
      capture_output=True, text=True, cwd=ROOT, timeout=600)
  if result.returncode != 0:
    raise AssertionError(result.stdout + result.stderr)
  return result


@pytest.mark.slow
def test_tiny_run_writes_figures_tables_and_claim_rows(tmp_path):
  _run("--experiment=pref_cfr_styles", f"--output_dir={tmp_path}",
       "--iterations=20", "--games=leduc_poker", f"--games={TINY_3P}")
  folder = tmp_path / "pref_cfr_styles"
  for name in ["results.parquet", "figures/nash_conv.png",
               "figures/nash_conv.pdf", "figures/hands_leduc_2p.png",
               "figures/hands_universal_poker_3p.pdf",
               "tables/first_decision.md", "tables/first_decision.tex",
               "tables/head_to_head_leduc_2p_seat0.md",
               "tables/head_to_head_leduc_2p_averaged.tex",
               "tables/head_to_head_universal_poker_3p_seats.md",
               "tables/style_costs.md"]:
    assert (folder / name).exists(), name
  first = (folder / "tables" / "first_decision.md").read_text()
  assert "| Leduc 2p | Loose-passive | — |" in first
  seats = (folder / "tables" /
           "head_to_head_universal_poker_3p_seats.md").read_text()
  assert "| Normal |" in seats and "seat average" in seats
  report = tmp_path / "reproduction.md"
  _run("--experiment=report", f"--output_dir={tmp_path}",
       f"--report_path={report}")
  text = report_text(report)
  assert "## pref_cfr_styles (quick scale)" in text
  for claim in ["lose little against Normal", "folds less", "calls more",
                "raises more", "Three players",
                "final NashConv stays within"]:
    assert claim in text, claim
  assert EXPERIMENTS["pref_cfr_styles"].quick.games == setup.GAMES


@pytest.mark.slow
def test_documented_game_sizes():
  """The sizes the module docstring and the README state."""
  sizes = {setup.LEDUC_2P: (9457, 936), setup.HOLDEM_2P: (722801, 6384),
           setup.LEDUC_3P: (1831601, 25800),
           setup.HOLDEM_3P: (697937, 8864)}
  for game, (histories, infosets) in sizes.items():
    tree = compile_game(game)
    assert (tree.num_histories, tree.num_infosets) == (histories, infosets)
    assert f"{histories:,}" in setup.__doc__
