"""Parameterized Leduc hold'em: ``spiel_ext_leduc`` (SPEC section 4).

Rules follow OpenSpiel's ``leduc_poker`` exactly when the parameters are its
defaults (ranks=3, suits=2, ante=1, raise_sizes="2 4", max_raises=2, no bet
cap, 2 players): the same chance outcomes (card ids), the same action ids
(0 fold, 1 check/call, 2 bet/raise), the same round-ending and showdown
rules, hence the same tree (9,457 histories, 936 infosets) and values.

  ranks, suits   deck of ranks * suits cards; card c has rank c // suits.
  ante           chips every player puts in first.
  raise_sizes    chips a raise adds in round 1 and round 2 ("2 4").
  max_raises     raises allowed per round.
  bet_cap        0 for none; otherwise a raise is illegal when it would take
                 the raiser's total contribution above the cap ("Leduc(k)"
                 of seed 004 is bet_cap=k).
  players        2 or more (OpenSpiel's 3-player Leduc is players=3,ranks=4).

"5-Leduc" of seed 000 is ``spiel_ext_leduc(ranks=5)``.
"""

from __future__ import annotations

import dataclasses

import pyspiel

from spiel_ext.games.common import StringObserver, poker_game_type

FOLD, CALL, RAISE = 0, 1, 2
_ACTION_NAMES = {FOLD: "Fold", CALL: "Call", RAISE: "Raise"}
_ACTION_LETTERS = {FOLD: "f", CALL: "c", RAISE: "r"}
_RANK_LABELS = "23456789TJQKA"
_SUIT_LABELS = "shdc"

_DEFAULTS = {"ranks": 3, "suits": 2, "ante": 1, "raise_sizes": "2 4",
             "max_raises": 2, "bet_cap": 0, "players": 2}

_GAME_TYPE = poker_game_type("spiel_ext_leduc",
                             "Parameterized Leduc hold'em (spiel_ext)",
                             _DEFAULTS, min_players=2, max_players=10)


def _parse_raise_sizes(text) -> tuple[int, int]:
  try:
    sizes = tuple(int(part) for part in str(text).split())
  except ValueError:
    sizes = ()
  if len(sizes) != 2 or min(sizes) <= 0:
    raise ValueError("spiel_ext_leduc: raise_sizes must be two positive "
                     f"integers such as '2 4' (round 1, round 2); got {text!r}.")
  return sizes


def rank_labels(ranks: int) -> str:
  """Rank names, highest last: 3 ranks are J Q K (Leduc's deck)."""
  if ranks <= 12:
    return _RANK_LABELS[-ranks - 1:-1]
  return _RANK_LABELS[-ranks:]


@dataclasses.dataclass(frozen=True)
class LeducRules:
  """The parameters, validated; states keep a reference (plain data, so
  OpenSpiel's state cloning copies it)."""
  ranks: int
  suits: int
  ante: int
  raise_sizes: tuple[int, int]
  max_raises: int
  bet_cap: int
  players: int

  @property
  def deck_size(self) -> int:
    return self.ranks * self.suits

  def card_label(self, card: int) -> str:
    rank = rank_labels(self.ranks)[card // self.suits]
    suit = (_SUIT_LABELS[card % self.suits] if self.suits <= 4 else
            str(card % self.suits))
    return rank + suit

  def validate(self) -> None:
    if self.ranks < 2:
      raise ValueError(f"spiel_ext_leduc: ranks must be >= 2; got {self.ranks}.")
    if self.ranks > len(_RANK_LABELS):
      raise ValueError(f"spiel_ext_leduc: ranks must be <= 13; got "
                       f"{self.ranks}.")
    if self.suits < 1:
      raise ValueError(f"spiel_ext_leduc: suits must be >= 1; got {self.suits}.")
    if self.players < 2 or self.players > 10:
      raise ValueError("spiel_ext_leduc: players must be in 2..10; got "
                       f"{self.players}.")
    if self.ranks * self.suits < self.players + 1:
      raise ValueError(
          f"spiel_ext_leduc: {self.ranks} ranks x {self.suits} suits is too "
          f"few cards for {self.players} players and a public card.")
    if self.ante < 1:
      raise ValueError(f"spiel_ext_leduc: ante must be >= 1; got {self.ante}.")
    if self.max_raises < 0:
      raise ValueError("spiel_ext_leduc: max_raises must be >= 0; got "
                       f"{self.max_raises}.")
    if self.bet_cap < 0 or (self.bet_cap and self.bet_cap < self.ante):
      raise ValueError(
          "spiel_ext_leduc: bet_cap must be 0 (no cap) or at least the ante "
          f"({self.ante}); got {self.bet_cap}.")



class LeducGame(pyspiel.Game):
  """Leduc hold'em with the parameters of the module docstring."""

  def __init__(self, params=None):
    values = dict(_DEFAULTS)
    values.update(params or {})
    self.rules = LeducRules(
        ranks=int(values["ranks"]), suits=int(values["suits"]),
        ante=int(values["ante"]),
        raise_sizes=_parse_raise_sizes(values["raise_sizes"]),
        max_raises=int(values["max_raises"]), bet_cap=int(values["bet_cap"]),
        players=int(values["players"]))
    self.rules.validate()
    rules = self.rules
    max_contribution = rules.ante + rules.max_raises * sum(rules.raise_sizes)
    if rules.bet_cap:
      max_contribution = min(max_contribution, rules.bet_cap)
    per_round = rules.players * (rules.max_raises + 1)
    info = pyspiel.GameInfo(
        num_distinct_actions=3,
        max_chance_outcomes=rules.deck_size,
        num_players=rules.players,
        min_utility=-float(max_contribution),
        max_utility=float((rules.players - 1) * max_contribution),
        utility_sum=0.0,
        max_game_length=rules.players + 1 + 2 * per_round)
    super().__init__(_GAME_TYPE, info, params or {})

  def new_initial_state(self):
    return LeducState(self)

  def make_py_observer(self, iig_obs_type=None, params=None):
    return LeducObserver(iig_obs_type, params)


class LeducState(pyspiel.State):
  """A Leduc hold'em state; mirrors OpenSpiel's LeducState bookkeeping."""

  def __init__(self, game: LeducGame):
    super().__init__(game)
    self._rules = game.rules
    players = game.rules.players
    self.private_cards: list[int] = []
    self.public_card: int | None = None
    self.round = 1
    self.stakes = game.rules.ante
    self.contribution = [game.rules.ante] * players
    self.folded = [False] * players
    self.remaining = players
    self.num_calls = 0
    self.num_raises = 0
    self.sequences: list[list[int]] = [[], []]
    self._next_player = 0
    self._terminal = False
    self._returns = [0.0] * players

  # ------------------------------------------------------------- queries
  def current_player(self):
    if self._terminal:
      return pyspiel.PlayerId.TERMINAL
    if len(self.private_cards) < self._rules.players or (
        self.round == 2 and self.public_card is None):
      return pyspiel.PlayerId.CHANCE
    return self._next_player

  def _remaining_deck(self) -> list[int]:
    used = set(self.private_cards)
    if self.public_card is not None:
      used.add(self.public_card)
    return [card for card in range(self._rules.deck_size) if card not in used]

  def chance_outcomes(self):
    deck = self._remaining_deck()
    probability = 1.0 / len(deck)
    return [(card, probability) for card in deck]

  def _legal_actions(self, player):
    actions = []
    if self.stakes > self.contribution[player]:
      actions.append(FOLD)
    actions.append(CALL)
    if self.num_raises < self._rules.max_raises:
      raised = self.stakes + self._rules.raise_sizes[self.round - 1]
      if not self._rules.bet_cap or raised <= self._rules.bet_cap:
        actions.append(RAISE)
    return actions

  def is_terminal(self):
    return self._terminal

  def returns(self):
    return list(self._returns)

  # ------------------------------------------------------------- moves
  def _apply_action(self, action):
    if self.is_chance_node():
      if len(self.private_cards) < self._rules.players:
        self.private_cards.append(action)
        if len(self.private_cards) == self._rules.players:
          self._next_player = self._first_to_act()
      else:
        self.public_card = action
        self._next_player = self._first_to_act()
      return
    player = self._next_player
    self.sequences[self.round - 1].append(action)
    if action == FOLD:
      self.folded[player] = True
      self.remaining -= 1
    elif action == CALL:
      self.contribution[player] = self.stakes
      self.num_calls += 1
    else:
      self.stakes += self._rules.raise_sizes[self.round - 1]
      self.contribution[player] = self.stakes
      self.num_raises += 1
      self.num_calls = 0
    if self.remaining == 1:
      self._finish()
    elif action != RAISE and self._round_over():
      if self.round == 2:
        self._finish()
      else:
        self.round = 2
        self.num_calls = 0
        self.num_raises = 0
    else:
      self._next_player = self._next_active(player)

  def _round_over(self) -> bool:
    if self.num_raises == 0:
      return self.num_calls == self.remaining
    return self.num_calls == self.remaining - 1

  def _first_to_act(self) -> int:
    return self._next_active(self._rules.players - 1)

  def _next_active(self, player: int) -> int:
    players = self._rules.players
    for step in range(1, players + 1):
      candidate = (player + step) % players
      if not self.folded[candidate]:
        return candidate
    raise RuntimeError("no active player")

  def _hand_strength(self, player: int) -> tuple[int, int, int]:
    suits = self._rules.suits
    mine = self.private_cards[player] // suits
    public = self.public_card // suits
    return (int(mine == public), max(mine, public), min(mine, public))

  def _finish(self) -> None:
    self._terminal = True
    pot = float(sum(self.contribution))
    active = [p for p in range(self._rules.players) if not self.folded[p]]
    if len(active) == 1:
      winners = active
    else:
      strengths = {p: self._hand_strength(p) for p in active}
      best = max(strengths.values())
      winners = [p for p in active if strengths[p] == best]
    share = pot / len(winners)
    self._returns = [(share if p in winners else 0.0) - self.contribution[p]
                     for p in range(self._rules.players)]

  # ------------------------------------------------------------- strings
  def _action_to_string(self, player, action):
    if player == pyspiel.PlayerId.CHANCE:
      return f"Deal:{self._rules.card_label(action)}"
    return _ACTION_NAMES[action]

  def __str__(self):
    cards = " ".join(self._rules.card_label(c) for c in self.private_cards)
    public = ("-" if self.public_card is None else
              self._rules.card_label(self.public_card))
    return (f"cards [{cards}] public {public} round {self.round} "
            f"bets {_betting(self.sequences)} contributions "
            f"{self.contribution}")


def _betting(sequences) -> str:
  return " | ".join("".join(_ACTION_LETTERS[a] for a in seq)
                    for seq in sequences)


class LeducObserver(StringObserver):
  """Infostate string (perfect recall): the player, their card, the public
  card and every betting action so far, e.g.
  ``[Player 1][Card Qs][Public Kh][Bets rc | c]``. The observation string
  (imperfect recall) shows contributions instead of the betting history."""

  def string_from(self, state, player):
    rules = state._rules  # pylint: disable=protected-access
    pieces = [f"[Player {player}]"]
    if self.private and len(state.private_cards) > player:
      pieces.append(f"[Card {rules.card_label(state.private_cards[player])}]")
    if self.public:
      public = ("-" if state.public_card is None else
                rules.card_label(state.public_card))
      pieces.append(f"[Public {public}]")
      if self.perfect_recall:
        pieces.append(f"[Bets {_betting(state.sequences)}]")
      else:
        pieces.append(f"[Round {state.round}][Contributions "
                      f"{' '.join(map(str, state.contribution))}]")
    return "".join(pieces)


pyspiel.register_game(_GAME_TYPE, LeducGame)
