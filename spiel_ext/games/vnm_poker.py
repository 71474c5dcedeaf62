"""Von Neumann-Morgenstern poker: ``spiel_ext_vnm_poker``.

The discrete-hand poker of von Neumann and Morgenstern ("Theory of Games and
Economic Behavior", 1944, section 19) and the raise variant of Schulze, "A
Generalized Extensive-Form Fictitious Play Algorithm", 2023,
arXiv:2310.09658, section 4.2.

Two players ante A each; chance deals each a hand from 1..N, independently
and uniformly (equal hands split the pot). Payoffs to P1 (player 0), with
s = sign(x - y) for P1's hand x and P2's hand y:

variant="asymmetric" (vN&M's game): P1 checks (showdown, A s) or bets B;
  facing the bet P2 folds (A) or calls ((A + B) s).
variant="raise" (Schulze's benchmark):
  check, check -> A s
  check, P2 bets B: P1 folds -A | calls (A + B) s | raises R:
      P2 folds A + B | calls (A + B + R) s
  P1 bets B: P2 folds A | calls (A + B) s | raises R:
      P1 folds -(A + B) | calls (A + B + R) s

Parameters: ``hands`` (N, 2 to 10^7, default 10), ``ante`` (A, 1.0),
``bet`` (B, 2.0), ``raise_size`` (R, 2.0; each > 0 and at most 10^9),
``variant`` ("asymmetric" or "raise", the default).

Actions: 0 fold, 1 check/call, 2 bet/raise (named by context).
Infostate strings read like ``P1 hand 7/20: kb`` (k check, b bet, f fold,
c call, r raise); observation strings like ``P1 hand 7/20 pot 1 3``.

Tensors (T = 4 turns for "raise", 2 for "asymmetric"):

  information state  player one-hot [2], own hand one-hot [N], betting
                     [T, 3]: turn t one-hot over the action ids.
  observation        player one-hot [2], own hand one-hot [N], each
                     player's contribution to the pot [2].
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pyspiel

from spiel_ext.checks import short_repr
from spiel_ext.games.common import (GameRules, PrivateInfo, RulesGame,
                                    RulesObserver, check_integer,
                                    check_positive, poker_game_type,
                                    zero_sum_info)

FOLD, CALL, RAISE = 0, 1, 2
VARIANTS = ("asymmetric", "raise")
_NAME = "spiel_ext_vnm_poker"
_DEFAULTS = {"hands": 10, "ante": 1.0, "bet": 2.0, "raise_size": 2.0,
             "variant": "raise"}

# Upper bounds, checked before anything is built: the tree has 15 N^2
# histories, past any memory long before N = 10^7.
MAX_HANDS = 10_000_000
MAX_STAKE = 1e9

_GAME_TYPE = poker_game_type(_NAME, "Von Neumann-Morgenstern poker "
                             "(spiel_ext)", _DEFAULTS)


def _check_stake(name: str, value) -> float:
  """``value`` as a float in (0, 1e9]; ValueError naming it else."""
  stake = check_positive(_NAME, name, value)
  if stake > MAX_STAKE:
    raise ValueError(f"{_NAME}: {name} must be a finite number in (0, "
                     f"{MAX_STAKE:.0e}]; got {short_repr(value, 60)}.")
  return stake


@dataclasses.dataclass(frozen=True)
class VnmRules(GameRules):
  """The parameters (plain data that state clones share).

  Attributes:
    hands: N, the number of hands, 2 to 10^7.
    ante: A, in (0, 1e9].
    bet: B, in (0, 1e9].
    raise_size: R, in (0, 1e9] (used by the raise variant only).
    variant: "asymmetric" or "raise".
  """
  hands: int
  ante: float
  bet: float
  raise_size: float
  variant: str

  defaults = _DEFAULTS

  @classmethod
  def _from_values(cls, values: dict) -> "VnmRules":
    """The checked rules from a dict of every parameter."""
    if not isinstance(values["variant"], str) or (
        values["variant"] not in VARIANTS):
      raise ValueError(f"{_NAME}: variant must be one of {list(VARIANTS)}; "
                       f"got {short_repr(values['variant'], 60)}.")
    return cls(hands=check_integer(_NAME, "hands", values["hands"], 2,
                                   MAX_HANDS),
               ante=_check_stake("ante", values["ante"]),
               bet=_check_stake("bet", values["bet"]),
               raise_size=_check_stake("raise_size", values["raise_size"]),
               variant=values["variant"])

  @property
  def max_turns(self) -> int:
    """The most decisions in one game: 4 for "raise", 2 for "asymmetric"."""
    return 4 if self.variant == "raise" else 2

  def game_info(self) -> pyspiel.GameInfo:
    """The GameInfo of vN&M poker with these rules.

    Returns:
      3 actions, a deal of one of ``hands`` hands, and utilities up to the
      ante, the bet and (in the "raise" variant) the raise either way.
    """
    top = self.ante + self.bet + (self.raise_size
                                  if self.variant == "raise" else 0.0)
    return zero_sum_info(3, self.hands, 2, -top, top, self.max_turns)


# Betting histories as strings of letters; each maps to the legal actions of
# the player to move, and terminal histories to (payoff kind, amount).
_LETTERS = {"": {CALL: "k", RAISE: "b"}, "k": {CALL: "k", RAISE: "b"},
            "kb": {FOLD: "f", CALL: "c", RAISE: "r"},
            "b": {FOLD: "f", CALL: "c", RAISE: "r"},
            "kbr": {FOLD: "f", CALL: "c"}, "br": {FOLD: "f", CALL: "c"}}
_LETTER_ACTIONS = {"k": CALL, "c": CALL, "b": RAISE, "r": RAISE, "f": FOLD}


class VnmPokerState(pyspiel.State):
  """A vN&M poker state: hands and the betting string.

  Args:
    game: the game; the state starts at the deal of the hands.
  """

  def __init__(self, game: VnmPokerGame):
    super().__init__(game)
    self._rules = game.rules
    self.hands: list[int] = []
    self.betting = ""

  def current_player(self):
    """Who acts next.

    Returns:
      The seat to act, ``pyspiel.PlayerId.CHANCE`` at a deal or
      ``pyspiel.PlayerId.TERMINAL`` once the game is over.
    """
    if len(self.hands) < 2:
      return pyspiel.PlayerId.CHANCE
    if self._payoff() is not None:
      return pyspiel.PlayerId.TERMINAL
    # P1 acts at "", "kb", "br"; P2 at "k", "b", "kbr".
    return 0 if self.betting in ("", "kb", "br") else 1

  def chance_outcomes(self):
    """The outcomes of the chance node.

    Returns:
      [(outcome, probability)]: each hand 0..N - 1 (named 1..N), probability
      1/N.
    """
    probability = 1.0 / self._rules.hands
    return [(hand, probability) for hand in range(self._rules.hands)]

  def _legal_actions(self, player):
    actions = sorted(_LETTERS[self.betting])
    if self._rules.variant == "asymmetric":
      if self.betting == "":
        return [CALL, RAISE]
      return [FOLD, CALL]  # P2 facing the bet.
    return actions

  def _apply_action(self, action):
    if self.is_chance_node():
      self.hands.append(action)
    else:
      self.betting += _LETTERS[self.betting][action]

  def _payoff(self) -> float | None:
    """P1's payoff at a terminal betting string, None elsewhere."""
    rules = self._rules
    ante, bet, raised = rules.ante, rules.bet, rules.raise_size
    if rules.variant == "asymmetric" and self.betting == "k":
      return ante * self._sign()
    table = {
        "kk": ante * self._sign(), "kbf": -ante,
        "kbc": (ante + bet) * self._sign(), "kbrf": ante + bet,
        "kbrc": (ante + bet + raised) * self._sign(), "bf": ante,
        "bc": (ante + bet) * self._sign(), "brf": -(ante + bet),
        "brc": (ante + bet + raised) * self._sign()}
    return table.get(self.betting)

  def contributions(self) -> list[float]:
    """Chips each player has put in (the ante, then bets and calls; the
    player at turn t of the betting string is t % 2).

    Returns:
      [2] chips each player has put in.
    """
    rules = self._rules
    contribution = [rules.ante, rules.ante]
    stake = rules.ante
    for turn, letter in enumerate(self.betting):
      if letter == "b":
        stake += rules.bet
      elif letter == "r":
        stake += rules.raise_size
      if letter in "bcr":
        contribution[turn % 2] = stake
    return contribution

  def _sign(self) -> float:
    return float(np.sign(self.hands[0] - self.hands[1]))

  def is_terminal(self):
    """Whether the game is over.

    Returns:
      True once the betting string ends the game.
    """
    return len(self.hands) == 2 and self._payoff() is not None

  def returns(self):
    """Each player's payoff.

    Returns:
      [2] payoffs to P1 and P2 (module docstring), zero-sum; [0, 0]
      before the end.
    """
    if not self.is_terminal():
      return [0.0, 0.0]
    payoff = self._payoff()
    return [payoff, -payoff]

  def _action_to_string(self, player, action):
    if player == pyspiel.PlayerId.CHANCE:
      return f"Deal:{action + 1}"
    facing_bet = self.betting in ("kb", "b", "kbr", "br")
    if action == FOLD:
      return "Fold"
    if action == CALL:
      return "Call" if facing_bet else "Check"
    return "Raise" if facing_bet else "Bet"

  def __str__(self):
    hands = " ".join(str(h + 1) for h in self.hands)
    return f"hands [{hands}] betting {self.betting or '-'}"


class VnmObserver(RulesObserver):
  """Strings and tensors of a vN&M state (layout: module docstring).

  Args:
    rules, iig_obs_type, params: as :class:`RulesObserver` takes them.
  """

  def _pieces(self):
    """The pieces: "player", the private hand(s), and with public
    information "betting" (perfect recall) or "pot_contribution"."""
    hands = self._rules.hands
    pieces = self.private_pieces(2, "private_hand", hands)
    if self.public:
      if self.perfect_recall:
        pieces.append(("betting", (self._rules.max_turns, 3)))
      else:
        pieces.append(("pot_contribution", (2,)))
    return pieces

  def _fill(self, state, player):
    """Writes the observation of a :class:`VnmPokerState`."""
    self.fill_private(player, "private_hand", state.hands)
    views = self.dict
    if "betting" in views:
      for turn, letter in enumerate(state.betting):
        views["betting"][turn, _LETTER_ACTIONS[letter]] = 1
    if "pot_contribution" in views:
      views["pot_contribution"][:] = state.contributions()

  def _string(self, state, player):
    """The string (see the module docstring)."""
    hands = self._rules.hands
    text = f"P{player + 1}"
    if self.private == PrivateInfo.SINGLE_PLAYER and len(state.hands) > player:
      text += f" hand {state.hands[player] + 1}/{hands}"
    elif self.private == PrivateInfo.ALL_PLAYERS:
      text += " hands " + " ".join(f"{h + 1}/{hands}" for h in state.hands)
    if self.public:
      if self.perfect_recall:
        text += f": {state.betting}"
      else:
        text += " pot " + " ".join(f"{c:g}" for c in state.contributions())
    return text


class VnmPokerGame(RulesGame):
  """vN&M poker with the parameters of the module docstring, which
  :meth:`VnmRules.from_parameters` checks.

  Args:
    params: pyspiel's parameter dict (from the game string).
  """

  # The engine builds the tree from the rules (spiel_ext.engine.native).
  native_tree_builder = "spiel_ext.games.vnm_poker_tree:build_vnm_poker_tree"
  # For errors about game strings pyspiel cannot read.
  parameter_ranges = {"hands": f"2..{MAX_HANDS}"}
  game_type, rules_class = _GAME_TYPE, VnmRules
  state_class, observer_class = VnmPokerState, VnmObserver
