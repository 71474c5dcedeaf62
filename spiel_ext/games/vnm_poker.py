"""Von Neumann-Morgenstern poker: ``spiel_ext_vnm_poker`` (seed 002 section 4).

Two players ante A each; chance deals each a hand from 1..N, independently
and uniformly (equal hands split the pot). Payoffs to P1 (player 0), with
s = sign(x - y) for P1's hand x and P2's hand y:

variant="asymmetric" (vN&M's game): P1 checks (showdown, A s) or bets B;
  facing the bet P2 folds (A) or calls ((A + B) s).
variant="raise" (Schulze's benchmark, section 4.2):
  check, check -> A s
  check, P2 bets B: P1 folds -A | calls (A + B) s | raises R:
      P2 folds A + B | calls (A + B + R) s
  P1 bets B: P2 folds A | calls (A + B) s | raises R:
      P1 folds -(A + B) | calls (A + B + R) s

Actions: 0 fold, 1 check/call, 2 bet/raise (named by context).
Infostate strings read like ``P1 hand 7/20: kb`` (k check, b bet, f fold,
c call, r raise).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pyspiel

from spiel_ext.games.common import StringObserver, poker_game_type

FOLD, CALL, RAISE = 0, 1, 2
VARIANTS = ("asymmetric", "raise")
_DEFAULTS = {"hands": 10, "ante": 1.0, "bet": 2.0, "raise_size": 2.0,
             "variant": "raise"}

_GAME_TYPE = poker_game_type("spiel_ext_vnm_poker",
                             "Von Neumann-Morgenstern poker (spiel_ext)",
                             _DEFAULTS)


@dataclasses.dataclass(frozen=True)
class VnmRules:
  """Validated parameters (plain data that state clones share)."""
  hands: int
  ante: float
  bet: float
  raise_size: float
  variant: str

  def validate(self) -> None:
    if self.hands < 2:
      raise ValueError(f"spiel_ext_vnm_poker: hands must be >= 2; got "
                       f"{self.hands}.")
    for name in ("ante", "bet", "raise_size"):
      if not getattr(self, name) > 0:
        raise ValueError(f"spiel_ext_vnm_poker: {name} must be positive; got "
                         f"{getattr(self, name)}.")
    if self.variant not in VARIANTS:
      raise ValueError(f"spiel_ext_vnm_poker: variant must be one of "
                       f"{list(VARIANTS)}; got {self.variant!r}.")


class VnmPokerGame(pyspiel.Game):
  """vN&M poker with the parameters of the module docstring."""

  def __init__(self, params=None):
    values = dict(_DEFAULTS)
    values.update(params or {})
    self.rules = VnmRules(hands=int(values["hands"]),
                          ante=float(values["ante"]), bet=float(values["bet"]),
                          raise_size=float(values["raise_size"]),
                          variant=str(values["variant"]))
    self.rules.validate()
    rules = self.rules
    top = rules.ante + rules.bet + (rules.raise_size
                                    if rules.variant == "raise" else 0.0)
    info = pyspiel.GameInfo(
        num_distinct_actions=3, max_chance_outcomes=rules.hands,
        num_players=2, min_utility=-top, max_utility=top, utility_sum=0.0,
        max_game_length=2 + (4 if rules.variant == "raise" else 2))
    super().__init__(_GAME_TYPE, info, params or {})

  def new_initial_state(self):
    return VnmPokerState(self)

  def make_py_observer(self, iig_obs_type=None, params=None):
    return VnmObserver(iig_obs_type, params)


# Betting histories as strings of letters; each maps to the legal actions of
# the player to move, and terminal histories to (payoff kind, amount).
_LETTERS = {"": {CALL: "k", RAISE: "b"}, "k": {CALL: "k", RAISE: "b"},
            "kb": {FOLD: "f", CALL: "c", RAISE: "r"},
            "b": {FOLD: "f", CALL: "c", RAISE: "r"},
            "kbr": {FOLD: "f", CALL: "c"}, "br": {FOLD: "f", CALL: "c"}}


class VnmPokerState(pyspiel.State):
  """A vN&M poker state: hands and the betting string."""

  def __init__(self, game: VnmPokerGame):
    super().__init__(game)
    self._rules = game.rules
    self.hands: list[int] = []
    self.betting = ""

  def current_player(self):
    if len(self.hands) < 2:
      return pyspiel.PlayerId.CHANCE
    if self._payoff() is not None:
      return pyspiel.PlayerId.TERMINAL
    # P1 acts at "", "kb", "br"; P2 at "k", "b", "kbr".
    return 0 if self.betting in ("", "kb", "br") else 1

  def chance_outcomes(self):
    probability = 1.0 / self._rules.hands
    return [(hand, probability) for hand in range(self._rules.hands)]

  def _legal_actions(self, player):
    del player
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

  def _sign(self) -> float:
    return float(np.sign(self.hands[0] - self.hands[1]))

  def is_terminal(self):
    return len(self.hands) == 2 and self._payoff() is not None

  def returns(self):
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


class VnmObserver(StringObserver):
  """``P1 hand 7/20: kb``: the player, their hand and the betting so far."""

  def string_from(self, state, player):
    text = f"P{player + 1}"
    if self.private and len(state.hands) > player:
      text += f" hand {state.hands[player] + 1}/{state._rules.hands}"  # pylint: disable=protected-access
    if self.public:
      text += f": {state.betting}"
    return text


pyspiel.register_game(_GAME_TYPE, VnmPokerGame)
