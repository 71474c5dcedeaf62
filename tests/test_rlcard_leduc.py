"""spiel_ext_leduc with RLCard's Leduc rules, checked against an independent
implementation of those rules written the way RLCard's round logic works
(per-seat raised chips, a count of non-raise actions since the last raise,
named actions call/raise/fold/check), node by node over the whole tree.
"""

import itertools

import pyspiel
import pytest

import spiel_ext  # pylint: disable=unused-import

RLCARD_5 = ("spiel_ext_leduc(blinds=1 2,fold_always=true,"
            "round2_first=after_last,ranks=5)")
_IDS = {"fold": 0, "call": 1, "check": 1, "raise": 2}


class RLCardRound:
  """One betting round as RLCard's limit hold'em Round object runs it."""

  def __init__(self, raise_amount, pointer, raised, allowed_raises=2):
    self.raise_amount = raise_amount
    self.pointer = pointer
    self.raised = list(raised)
    self.have_raised = 0
    self.not_raise_num = 0
    self.allowed_raises = allowed_raises

  def legal(self):
    actions = ["call", "raise", "fold", "check"]
    if self.have_raised >= self.allowed_raises:
      actions.remove("raise")
    if self.raised[self.pointer] < max(self.raised):
      actions.remove("check")
    if self.raised[self.pointer] == max(self.raised):
      actions.remove("call")
    return actions

  def act(self, action, chips):
    me = self.pointer
    if action == "call":
      chips[me] += max(self.raised) - self.raised[me]
      self.raised[me] = max(self.raised)
      self.not_raise_num += 1
    elif action == "raise":
      chips[me] += max(self.raised) - self.raised[me] + self.raise_amount
      self.raised[me] = max(self.raised) + self.raise_amount
      self.have_raised += 1
      self.not_raise_num = 1
    elif action == "check":
      self.not_raise_num += 1
    self.pointer = 1 - me

  def over(self):
    return self.not_raise_num >= 2


def _rank(card, suits=2):
  return card // suits


def _showdown(hands, public, chips):
  """Chips won by seat 0: pair with the board wins, else the higher rank,
  equal ranks split."""
  ranks = [_rank(card) for card in hands]
  board = _rank(public)
  if ranks[0] == ranks[1]:
    return 0.0
  pairs = [rank == board for rank in ranks]
  if pairs[0] != pairs[1]:
    seat0_wins = pairs[0]
  else:
    seat0_wins = ranks[0] > ranks[1]
  return float(chips[1]) if seat0_wins else -float(chips[0])


def _walk(deck, check_node):
  """Every history of the rules; calls check_node(path, kind, data)."""
  for hands in itertools.permutations(range(deck), 2):
    chips = [1, 2]
    round1 = RLCardRound(2, 0, chips)
    yield from _play(hands, None, round1, chips, [("deal", hands)], deck,
                     check_node)


def _play(hands, public, current, chips, path, deck, check_node):
  seat = current.pointer
  legal = current.legal()
  check_node(path, "decision", (seat, sorted(_IDS[a] for a in legal)))
  for action in legal:
    rnd = RLCardRound(current.raise_amount, current.pointer, current.raised,
                      current.allowed_raises)
    rnd.have_raised, rnd.not_raise_num = current.have_raised, current.not_raise_num
    stake = list(chips)
    rnd.act(action, stake)
    step = path + [("act", action)]
    if action == "fold":
      won = -float(stake[0]) if seat == 0 else float(stake[1])
      yield step, won
    elif rnd.over() and public is None:
      for card in range(deck):
        if card in hands:
          continue
        # Round 2: opened by the seat after the last actor, raise 4.
        nxt = RLCardRound(4, rnd.pointer, [0, 0])
        yield from _play(hands, card, nxt, stake,
                         step + [("public", card)], deck, check_node)
    elif rnd.over():
      yield step, _showdown(hands, public, stake)
    else:
      yield from _play(hands, public, rnd, stake, step, deck, check_node)


def _replay(game, path):
  """Our game's state after the independent implementation's path."""
  state = game.new_initial_state()
  for kind, value in path:
    if kind == "deal":
      for card in value:
        state.apply_action(card)
    elif kind == "public":
      state.apply_action(value)
    else:
      state.apply_action(_IDS[value])
  return state


@pytest.mark.parametrize("ranks", [3, pytest.param(5, marks=pytest.mark.slow)])
def test_every_node_matches_the_independent_rules(ranks):
  game = pyspiel.load_game(RLCARD_5.replace("ranks=5", f"ranks={ranks}"))
  deck = 2 * ranks
  decisions = {}

  def record(path, kind, data):
    decisions[tuple(map(str, path))] = (path, data)

  terminals = 0
  for path, won in _walk(deck, record):
    terminals += 1
    state = _replay(game, path)
    assert state.is_terminal(), path
    assert state.returns()[0] == pytest.approx(won), path
  for path, (seat, legal) in decisions.values():
    state = _replay(game, path)
    assert state.current_player() == seat, path
    assert state.legal_actions() == legal, path
  # The same number of terminal histories as our compiled tree.
  from spiel_ext.engine import compile_game  # pylint: disable=g-import-not-at-top
  assert int(compile_game(game).is_terminal.sum()) == terminals


def test_defaults_are_unchanged():
  assert str(pyspiel.load_game("spiel_ext_leduc()")).count("blinds=,") == 1
  with pytest.raises(ValueError, match="blinds must be"):
    pyspiel.load_game("spiel_ext_leduc(blinds=2 1)")
  with pytest.raises(ValueError, match="round2_first must be one of"):
    pyspiel.load_game("spiel_ext_leduc(round2_first=last)")


def test_equilibrium_value_matches_the_bufp_paper():
  """CFR vs CFR in the BUFP paper's Table 1 is 19.21 mb/h for player 1: the
  value of seat 0 at equilibrium. CFR+ to NashConv <= 1e-3 must give it
  within 0.5 mb/h (a wrong rule moves it by far more)."""
  from spiel_ext import eval as se  # pylint: disable=g-import-not-at-top
  from spiel_ext.algorithms import CFRPlusSolver  # pylint: disable=g-import-not-at-top
  solver = CFRPlusSolver(RLCARD_5)
  nash_conv = float("inf")
  while nash_conv > 1e-3:
    for _ in range(250):
      solver.evaluate_and_update_policy()
    average = solver.average_policy()
    nash_conv = se.nash_conv(RLCARD_5, average)
  value = se.expected_values(RLCARD_5, average)[0]
  assert 1000 * value / 2 == pytest.approx(19.21, abs=0.5)
