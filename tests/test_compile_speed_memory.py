"""The compiler's walk against a plain reference walk, the memory forecast
against measured peaks, the refusal of games above it, and ``tree.nbytes``.
"""

import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyspiel
import pytest

from spiel_ext.engine import (CHANCE, TERMINAL, admission,
                              clear_compiled_trees, compile_game, compiler)
from spiel_ext.engine.admission import (PEAK_BYTES, SizeLimit,
                                        estimate_tree_bytes, peak_terms)
from spiel_ext.engine.compiler import compile_tree
from spiel_ext.engine.memory import memory_report

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"

# Games whose walks take every branch of the compiler: chance nodes with
# terminal and non-terminal children, keys from observation strings (pig),
# mixed terminal and non-terminal siblings (leduc's fold), all-terminal
# siblings, action ids of 10 and more (universal_poker's 12 cards, ordered
# as strings), more than two players.
WALKED_GAMES = [
    "kuhn_poker", "kuhn_poker(players=3)", "leduc_poker",
    "liars_dice(numdice=1,dice_sides=4)",
    "turn_based_simultaneous_game(game=goofspiel(num_cards=3))",
    "pig(diceoutcomes=2,horizon=4,winscore=4)",
    "universal_poker(betting=limit,numPlayers=2,numRounds=2,blind=1 1,"
    "raiseSize=1 1,firstPlayer=1 1,maxRaises=1 1,numSuits=2,numRanks=6,"
    "numHoleCards=1,numBoardCards=0 1,stack=10 10)",
    "battleship(board_height=2,board_width=2,ship_sizes=[1],ship_values=[1],"
    "num_shots=2)",
    "oh_hell(num_suits=2,num_cards_per_suit=2,num_tricks_fixed=1)",
    "first_sealed_auction(max_value=3)",
]


def _reference_walk(game: pyspiel.Game) -> tuple[dict, list[str]]:
  """Every history depth-first, children in str(action) order, one state
  per history: the compiler's arrays the plainest way."""
  use_info = game.get_type().provides_information_state_string
  num_players = game.num_players()
  rows = []  # (parent, action, player, key, prob, returns, legal actions)
  stack = [(game.new_initial_state(), -1, -1, 1.0)]
  while stack:
    state, parent, action, prob = stack.pop()
    history = len(rows)
    player = state.current_player()
    key, returns = None, None
    if player == TERMINAL:
      returns = state.returns()
      children = []
    elif player == CHANCE:
      children = sorted(state.chance_outcomes(), key=lambda o: str(o[0]))
    else:
      key = (state.information_state_string(player) if use_info else
             state.observation_string(player))
      children = [(a, 1.0) for a in sorted(state.legal_actions(), key=str)]
    rows.append((parent, action, player, key, prob, returns,
                 state.legal_actions() if key is not None else None))
    for move, move_prob in reversed(children):
      stack.append((state.child(move), history, move, move_prob))
  first_key_row = {}
  for history, row in enumerate(rows):
    if row[3] is not None:
      first_key_row.setdefault(row[3], (history, row[2], row[6]))
  by_player = sorted(first_key_row, key=lambda k: first_key_row[k][1])
  row_of_key = {key: i for i, key in enumerate(by_player)}
  legal = np.zeros((len(by_player), game.num_distinct_actions()), bool)
  for key, (_, _, actions) in first_key_row.items():
    legal[row_of_key[key], actions] = True
  utility = np.zeros((len(rows), num_players))
  for history, row in enumerate(rows):
    if row[5] is not None:
      utility[history] = row[5]
  arrays = {
      "parent": np.array([r[0] for r in rows], np.int32),
      "action": np.array([r[1] for r in rows], np.int32),
      "node_player": np.array([r[2] for r in rows], np.int32),
      "infoset": np.array([-1 if r[3] is None else row_of_key[r[3]]
                           for r in rows], np.int32),
      "chance_prob": np.array([r[4] for r in rows], np.float64),
      "utility": utility,
      "infoset_player": np.array([first_key_row[k][1] for k in by_player],
                                 np.int32),
      "infoset_legal": legal,
      "infoset_history": np.array([first_key_row[k][0] for k in by_player],
                                  np.int32),
  }
  return arrays, by_player


@pytest.mark.parametrize("game_string", WALKED_GAMES)
def test_the_walk_equals_a_plain_walk(game_string):
  game = pyspiel.load_game(game_string)
  arrays, got_keys = compiler._walk(  # pylint: disable=protected-access
      game, SizeLimit(None, 1e12))
  expected, keys = _reference_walk(game)
  assert got_keys == keys
  assert set(arrays) == set(expected)
  for name, array in expected.items():
    got = arrays[name]
    assert got.dtype == array.dtype, name
    np.testing.assert_array_equal(got, array, err_msg=name)


@pytest.mark.parametrize("game_string,key", [
    ("leduc_poker", str),  # Same player, different legal actions.
    ("kuhn_poker", lambda player: "one key"),  # Different players.
])
def test_keys_that_do_not_identify_infosets_are_refused(monkeypatch,
                                                         game_string, key):
  """Every decision history's legal actions and player are checked against
  its key's first history's, also when the key was met before."""
  monkeypatch.setattr(pyspiel.State, "information_state_string",
                      lambda state, player: key(player))
  with pytest.raises(ValueError, match=r"infoset key .* is shared by "
                     r"histories with different acting players or legal "
                     r"actions"):
    compile_tree(pyspiel.load_game(game_string), SizeLimit(None, 1e12),
                 native=False)


# ------------------------------------------------------------- forecast
def test_the_forecast_reads_the_table():
  terms = peak_terms(1000, 3, 10, 500, 4)
  assert set(terms) == set(PEAK_BYTES)
  assert estimate_tree_bytes(1000, 3, 10, 500, 4) == sum(
      PEAK_BYTES[name] * terms[name] for name in PEAK_BYTES)
  assert all(isinstance(value, int) and value >= 0
             for value in PEAK_BYTES.values())


def test_the_running_cap_equals_history_cap():
  """The compiler lowers its cap by each infoset's bytes as it finds them;
  that is history_cap's, exactly, down to 0."""
  limit = SizeLimit(None, max_bytes=1_234_567.5)
  spare, per_history, per_infoset, per_key_byte = limit.cap_terms(3, 7)
  key_bytes = 0
  for count, key_length in enumerate([17, 3, 250, 41] * 400, start=1):
    spare -= per_infoset + per_key_byte * key_length
    key_bytes += key_length
    assert max(0.0, spare) // per_history == limit.history_cap(
        3, count, key_bytes, 7)
  assert limit.history_cap(3, count, key_bytes, 7) == 0
  assert SizeLimit(1000, 0.0).history_cap(3, 10**6, 10**9, 7) == 1000


@pytest.fixture(name="two_gib_available")
def fixture_two_gib_available(monkeypatch):
  """Half the available memory is 1 GiB."""
  monkeypatch.setattr(admission, "_available_memory_bytes", lambda: 2**31)
  clear_compiled_trees()


def test_a_game_forecast_above_the_limit_is_refused_in_one_line(
    two_gib_available):
  del two_gib_available
  game = pyspiel.load_game("leduc_poker(players=4)")  # ~3e8 histories.
  with pytest.raises(ValueError) as refused:
    compile_game(game, use_cache=False)
  message = str(refused.value)
  assert "\n" not in message
  numbers = [float(x) for x in re.findall(
      r"about ([0-9.e+]+) GiB, above half the available memory "
      r"\(([0-9.e+]+) GiB\)", message)[0]]
  estimate, limit = numbers
  assert limit == 1.0 and estimate > limit
  # Counted from its rules: at least this many (exact or past the cap).
  histories = float(message.split("at least ")[1].split(" histories")[0])
  assert math.isclose(
      estimate, estimate_tree_bytes(histories, 4) / 2**30, rel_tol=2e-3)


def test_a_tree_found_above_the_limit_while_walking_is_refused_in_one_line():
  game = pyspiel.load_game("leduc_poker")
  max_bytes = estimate_tree_bytes(5000, 2)
  with pytest.raises(ValueError) as refused:
    compile_tree(game, SizeLimit(None, max_bytes), native=False)
  message = str(refused.value)
  assert "\n" not in message
  assert "found more than" in message
  assert f"above half the available memory ({max_bytes / 2**30:.3g} GiB)" in (
      message)


# 656k histories: about 4 s, a 97 MB peak.
_MEASURED_GAME = (
    "universal_poker(betting=limit,numPlayers=2,blind=1 1,stack=50 50,"
    "numHoleCards=1,numRounds=3,firstPlayer=1 1 1,numSuits=2,numRanks=4,"
    "numBoardCards=0 1 1,raiseSize=2 4 4,maxRaises=2 2 2)")


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists("/proc/self/clear_refs"),
                    reason="needs Linux's /proc to measure peak memory")
def test_the_forecast_is_within_a_quarter_of_the_measured_peak():
  """Compiling a small hold'em and running two CFR iterations and NashConv
  in a fresh process: the peak resident set size grows by the forecast,
  within 25% (benchmarks/bench_memory.py measures more games, and fits the
  forecast's table to them)."""
  result = subprocess.run(
      [sys.executable, str(BENCHMARKS / "bench_memory.py"),
       f"--child={_MEASURED_GAME}"],
      capture_output=True, text=True, check=True, timeout=600)
  row = json.loads(result.stdout.strip().splitlines()[-1])
  forecast = estimate_tree_bytes(row["histories"], row["players"],
                                 row["infosets"], row["key_bytes"],
                                 row["actions"])
  assert abs(forecast - row["peak"]) <= 0.25 * row["peak"], row


# ---------------------------------------------------------------- nbytes
def test_nbytes_counts_every_array_once():
  tree = compile_tree(pyspiel.load_game("kuhn_poker"), SizeLimit(None, 1e12))
  histories, infosets, terminals, players, actions = 58, 12, 30, 2, 2
  assert (tree.num_histories, tree.num_infosets, len(tree.terminals)) == (
      histories, infosets, terminals)
  per_history = ["parent", "action", "node_player", "infoset", "chance_prob",
                 "parent_slot", "is_terminal", "edge_policy_index"]
  per_infoset = ["infoset_player", "infoset_history", "infoset_num_actions"]
  expected = (
      sum(histories * getattr(tree, name).itemsize for name in per_history) +
      histories * players * tree.utility.itemsize +
      sum(infosets * getattr(tree, name).itemsize for name in per_infoset) +
      infosets * actions * tree.infoset_legal.itemsize +
      terminals * tree.terminals.itemsize + tree.own_sequence.nbytes)
  assert tree.nbytes == expected
  report = memory_report(tree)
  assert report["utility"] == histories * players * 8
  assert sum(report.values()) == expected
  # The model's arrays are read-only views of the tree's: no new buffer.
  assert tree.model.utility.base is not None
  assert tree.nbytes == expected
  # A schedule computed on first use is counted once it exists.
  subtree_end = tree.subtree_end
  assert tree.nbytes == expected + subtree_end.nbytes
  assert memory_report(tree)["subtree_end"] == subtree_end.nbytes
