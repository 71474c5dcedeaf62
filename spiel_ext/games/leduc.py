"""Parameterized Leduc hold'em: ``spiel_ext_leduc``.

Leduc hold'em (Southey, Bowling, Larson, Piccione, Burch, Billings, Rayner,
"Bayes' Bluff: Opponent Modelling in Poker", UAI 2005) with its deck,
stakes and number of players as parameters. With the default parameters
(ranks=3, suits=2, ante=1, raise_sizes="2 4", max_raises=2, no bet cap, 2
players) it is OpenSpiel's ``leduc_poker`` exactly: the same chance
outcomes (card ids), the same action ids (0 fold, 1 check/call, 2
bet/raise), the same round-ending and showdown rules, hence the same tree
(9,457 histories, 936 infosets) and values, and the same tensors.

  ranks, suits   deck of ranks * suits cards; card c has rank c // suits
                 (ranks 2 to 13, suits 1 to 100).
  ante           chips every player puts in first (1 to 10^9).
  raise_sizes    chips a raise adds in round 1 and round 2 ("2 4"; each 1
                 to 10^9).
  max_raises     raises allowed per round (0 to 100).
  bet_cap        0 for none (up to 10^12); otherwise a raise is illegal
                 when it would take the raiser's contribution above it.
  players        2 to 10 (OpenSpiel's 3-player Leduc is players=3,ranks=4).
  blinds         "" (antes only, the default) or "small big" chips posted
                 by seats 0 and 1 instead of antes (``ante`` is then
                 ignored and no antes are posted):
                 seat 0 is the small blind and acts first in round 1;
                 posting a blind is not a raise.
  fold_always    fold is legal at every decision, even when checking is
                 (default False: only when facing a bet, as OpenSpiel).
  round2_first   who opens round 2: "first" (the first active seat, as
                 OpenSpiel) or "after_last" (the seat after the one who
                 acted last in round 1).

RLCard's Leduc hold'em rules, which the BUFP paper's head-to-head tables
(Tables 1-2) use, are ``blinds="1 2",fold_always=True,
round2_first=after_last`` (with ``ranks=5`` for their 5-rank deck); its
mb/h are 1000 x chips / 2 (the big blind).

The "5-Leduc" of Ju, Fang, Luo, "Beyond Nash Equilibrium: Achieving
Bayesian Perfect Equilibrium with Belief Update Fictitious Play", DDCLS
2024, arXiv:2409.02706 (Figures 1-2) is ``spiel_ext_leduc(ranks=5)``.

Tensors (OpenSpiel's ``leduc_poker`` layout, sized by the parameters; with
n players, D = ranks * suits cards and B = n + max_raises * (n - 1), the
most actions a betting round can have):

  information state  player one-hot [n], private card one-hot [D], public
                     card one-hot [D], betting [2 rounds, B, 2] with a call
                     or check as (1, 0), a raise as (0, 1), a fold as (0, 0).
  observation        player one-hot [n], private card one-hot [D], public
                     card one-hot [D], each player's contribution [n].
"""

from __future__ import annotations

import dataclasses

import pyspiel

from spiel_ext.games.common import (CardState, GameRules, RulesGame,
                                    RulesObserver, check_integer,
                                    poker_game_type, zero_sum_info)

FOLD, CALL, RAISE = 0, 1, 2
_ACTION_NAMES = {FOLD: "Fold", CALL: "Call", RAISE: "Raise"}
_ACTION_LETTERS = {FOLD: "f", CALL: "c", RAISE: "r"}
_RANK_LABELS = "23456789TJQKA"
_SUIT_LABELS = "shdc"
_NAME = "spiel_ext_leduc"

_DEFAULTS = {"ranks": 3, "suits": 2, "ante": 1, "raise_sizes": "2 4",
             "max_raises": 2, "bet_cap": 0, "players": 2, "blinds": "",
             "fold_always": False, "round2_first": "first"}
ROUND2_FIRST = ("first", "after_last")
# Upper bounds of the parameters, checked before anything is built. Chips
# stay far below 2^53, so that returns are exact floats. 100 raises per
# round make 1.5e7 histories with 2 players (and far more with more), whose
# betting runs 200 actions deep: the deepest the compiler's walk of the
# betting (a recursion) is let go.
MAX_SUITS = 100
MAX_CHIPS = 10**9
MAX_RAISES = 100
MAX_BET_CAP = 10**12

_GAME_TYPE = poker_game_type(_NAME, "Parameterized Leduc hold'em (spiel_ext)",
                             _DEFAULTS, min_players=2, max_players=10)


def _parse_raise_sizes(text) -> tuple[int, int]:
  try:
    sizes = tuple(int(part) for part in str(text).split())
  except ValueError:
    sizes = ()
  if len(sizes) != 2 or min(sizes) <= 0 or max(sizes) > MAX_CHIPS:
    raise ValueError(f"{_NAME}: raise_sizes must be two integers in "
                     f"1..{MAX_CHIPS} such as '2 4' (round 1, round 2); got "
                     f"{_shown(text)}.")
  return sizes


def _shown(text) -> str:
  """repr(text), cut to 60 characters."""
  shown = repr(text)
  return shown if len(shown) <= 60 else shown[:57] + "..."


def _parse_blinds(text) -> tuple[int, ...]:
  if str(text).strip() == "":
    return ()
  try:
    blinds = tuple(int(part) for part in str(text).split())
  except ValueError:
    blinds = ()
  if len(blinds) != 2 or not 0 < blinds[0] <= blinds[1] <= MAX_CHIPS:
    raise ValueError(f"{_NAME}: blinds must be '' (antes only) or two "
                     "integers 'small big' with 0 < small <= big <= "
                     f"{MAX_CHIPS}, such as '1 2'; got {_shown(text)}.")
  return blinds


def rank_labels(ranks: int) -> str:
  """Rank names, highest last: 3 ranks are J Q K (Leduc's deck).

  Args:
    ranks: the number of ranks (the game allows 2 to 13).

  Returns:
    One character per rank, lowest first: the highest ranks below the ace
    ("JQK" for 3) up to 12 ranks, all of "23456789TJQKA" for 13.
  """
  if ranks <= 12:
    return _RANK_LABELS[-ranks - 1:-1]
  return _RANK_LABELS[-ranks:]


@dataclasses.dataclass(frozen=True)
class LeducRules(GameRules):
  """The parameters; states keep a reference (plain data, so OpenSpiel's
  state cloning copies it cheaply).

  Build them with :meth:`from_parameters`, which checks them; the
  attributes are the game's parameters (module docstring), parsed.

  Attributes:
    ranks: the number of ranks, 2 to 13.
    suits: the number of suits, 1 to 100.
    ante: chips every player puts in first (0 when blinds are posted).
    raise_sizes: (round 1, round 2) chips a raise adds.
    max_raises: raises allowed per round, 0 to 100.
    bet_cap: 0 for no cap, else the most a player's contribution may reach.
    players: 2 to 10.
    blinds: () for antes only, or (small, big) posted by seats 0 and 1.
    fold_always: True when fold is legal at every decision.
    round2_first: "first" or "after_last": who opens round 2.
  """
  ranks: int
  suits: int
  ante: int
  raise_sizes: tuple[int, int]
  max_raises: int
  bet_cap: int
  players: int
  blinds: tuple[int, ...] = ()
  fold_always: bool = False
  round2_first: str = "first"

  defaults = _DEFAULTS

  @classmethod
  def _from_values(cls, values: dict) -> "LeducRules":
    """The checked rules from a dict of every parameter."""
    rules = cls(
        ranks=check_integer(_NAME, "ranks", values["ranks"], 2,
                            len(_RANK_LABELS)),
        suits=check_integer(_NAME, "suits", values["suits"], 1, MAX_SUITS),
        ante=check_integer(_NAME, "ante", values["ante"], 1, MAX_CHIPS),
        raise_sizes=_parse_raise_sizes(values["raise_sizes"]),
        max_raises=check_integer(_NAME, "max_raises", values["max_raises"], 0,
                                 MAX_RAISES),
        bet_cap=check_integer(_NAME, "bet_cap", values["bet_cap"], 0,
                              MAX_BET_CAP),
        players=check_integer(_NAME, "players", values["players"], 2, 10),
        blinds=_parse_blinds(values["blinds"]),
        fold_always=values["fold_always"],
        round2_first=values["round2_first"])
    if not isinstance(rules.fold_always, bool):
      raise ValueError(f"{_NAME}: fold_always must be true or false; got "
                       f"{_shown(rules.fold_always)}.")
    if not isinstance(rules.round2_first, str) or (
        rules.round2_first not in ROUND2_FIRST):
      raise ValueError(f"{_NAME}: round2_first must be one of "
                       f"{list(ROUND2_FIRST)}; got "
                       f"{_shown(rules.round2_first)}.")
    if rules.blinds:
      rules = dataclasses.replace(rules, ante=0)  # Blinds replace antes.
    if rules.deck_size < rules.players + 1:
      raise ValueError(
          f"{_NAME}: {rules.ranks} ranks x {rules.suits} suits is too few "
          f"cards for {rules.players} players and a public card; ranks * "
          f"suits must be at least players + 1.")
    if rules.bet_cap and rules.bet_cap < rules.opening_stake:
      raise ValueError(
          f"{_NAME}: bet_cap must be 0 (no cap) or at least the opening "
          f"stake ({rules.opening_stake}); got {rules.bet_cap}.")
    return rules

  @property
  def deck_size(self) -> int:
    """The number of cards, ranks * suits."""
    return self.ranks * self.suits

  @property
  def bets_per_round(self) -> int:
    """The most actions a betting round can have: up to n - 1 checks and a
    raise, then at most n - 1 actions after each raise."""
    return self.players + self.max_raises * (self.players - 1)

  @property
  def opening_stake(self) -> int:
    """The bet to match when round 1 starts: the ante or the big blind."""
    return self.blinds[1] if self.blinds else self.ante

  def initial_contribution(self) -> list[int]:
    """What each seat has put in before the first action.

    Returns:
      [players] chips: the ante, or the blinds at seats 0 and 1.
    """
    posted = [self.ante] * self.players
    for seat, blind in enumerate(self.blinds):
      posted[seat] = blind
    return posted

  @property
  def max_contribution(self) -> int:
    """An upper bound on the chips one player puts in a hand: the opening
    stake and every raise of both rounds, capped at ``bet_cap``."""
    top = self.opening_stake + self.max_raises * sum(self.raise_sizes)
    return min(top, self.bet_cap) if self.bet_cap else top

  def card_label(self, card: int) -> str:
    """A card's name: its rank, then its suit (a letter up to 4 suits, else
    the suit's number), such as "Ks".

    Args:
      card: a card id, 0..deck_size - 1 (rank card // suits).

    Returns:
      The name.
    """
    rank = rank_labels(self.ranks)[card // self.suits]
    suit = (_SUIT_LABELS[card % self.suits] if self.suits <= 4 else
            str(card % self.suits))
    return rank + suit

  def game_info(self) -> pyspiel.GameInfo:
    """The GameInfo of Leduc hold'em with these rules.

    Returns:
      3 actions, a deal of one card of the deck, and utilities from losing
      the most one player can put in to winning it from every other player.
    """
    top = self.max_contribution
    return zero_sum_info(3, self.deck_size, self.players, -float(top),
                         float((self.players - 1) * top),
                         2 * self.bets_per_round)


class LeducState(CardState):
  """A Leduc hold'em state; mirrors OpenSpiel's LeducState bookkeeping.

  Args:
    game: the game; the state starts at the deal of the private cards.
  """

  def __init__(self, game: LeducGame):
    super().__init__(game)
    self._rules = game.rules
    players = game.rules.players
    self.private_cards: list[int] = []
    self.public_card: int | None = None
    self.round = 1
    self.stakes = game.rules.opening_stake
    self.contribution = game.rules.initial_contribution()
    self.folded = [False] * players
    self.remaining = players
    self.num_calls = 0
    self.num_raises = 0
    self.sequences: list[list[int]] = [[], []]
    self._last_actor = -1
    self._returns = [0.0] * players

  # ------------------------------------------------------------- queries
  def _dealing(self) -> bool:
    """Whether a card is to be dealt."""
    return len(self.private_cards) < self._rules.players or (
        self.round == 2 and self.public_card is None)

  def _remaining_deck(self) -> list[int]:
    used = set(self.private_cards)
    if self.public_card is not None:
      used.add(self.public_card)
    return [card for card in range(self._rules.deck_size) if card not in used]

  def chance_outcomes(self):
    """The deal at a chance node.

    Returns:
      [(card, probability)]: every card not yet dealt, equally likely.
    """
    deck = self._remaining_deck()
    probability = 1.0 / len(deck)
    return [(card, probability) for card in deck]

  def _legal_actions(self, player):
    actions = []
    if self.stakes > self.contribution[player] or self._rules.fold_always:
      actions.append(FOLD)
    actions.append(CALL)
    if self.num_raises < self._rules.max_raises:
      raised = self.stakes + self._rules.raise_sizes[self.round - 1]
      if not self._rules.bet_cap or raised <= self._rules.bet_cap:
        actions.append(RAISE)
    return actions

  def returns(self):
    """Each player's net winnings.

    Returns:
      [players] chips won minus chips put in (all 0 before the end).
    """
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
        self._next_player = (
            self._next_active(self._last_actor)
            if self._rules.round2_first == "after_last" else
            self._first_to_act())
      return
    player = self._next_player
    self._last_actor = player
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


class LeducObserver(RulesObserver):
  """Strings and tensors of a Leduc state (tensor layout: module docstring).

  The infostate string (perfect recall) shows the player, their card, the
  public card and every betting action so far, e.g.
  ``[Player 1][Card Qs][Public Kh][Bets rc | c]``; the observation string
  (imperfect recall) shows the round and contributions instead of the
  betting history.

  Args:
    rules, iig_obs_type, params: as :class:`RulesObserver` takes them.
  """

  def _pieces(self):
    """The pieces: "player", the private card(s), and with public
    information "community_card" and "betting" (perfect recall) or
    "pot_contribution"."""
    players, deck = self._rules.players, self._rules.deck_size
    pieces = self.private_pieces(players, "private_card", deck)
    if self.public:
      pieces.append(("community_card", (deck,)))
      if self.perfect_recall:
        pieces.append(("betting", (2, self._rules.bets_per_round, 2)))
      else:
        pieces.append(("pot_contribution", (players,)))
    return pieces

  def _fill(self, state, player):
    """Writes the observation of a :class:`LeducState`."""
    self.fill_private(player, "private_card", state.private_cards)
    self.fill_one_hot("community_card", state.public_card)
    views = self.dict
    if "betting" in views:
      for round_index, sequence in enumerate(state.sequences):
        for turn, action in enumerate(sequence):
          if action != FOLD:
            views["betting"][round_index, turn, action - CALL] = 1
    if "pot_contribution" in views:
      views["pot_contribution"][:] = state.contribution

  def _string(self, state, player):
    """The string (see the class docstring)."""
    rules = self._rules
    public = ("-" if state.public_card is None else
              rules.card_label(state.public_card))
    if self.perfect_recall:
      info = f"[Bets {_betting(state.sequences)}]"
    else:
      info = (f"[Round {state.round}][Contributions "
              f"{' '.join(map(str, state.contribution))}]")
    return self.bracketed_string(
        player, "Card", [rules.card_label(c) for c in state.private_cards],
        public, info)


class LeducGame(RulesGame):
  """Leduc hold'em with the parameters of the module docstring (checked
  by :meth:`LeducRules.from_parameters`; registered on import).

  Args:
    params: pyspiel's parameter dict (from the game string).
  """

  # The engine builds the tree from the rules (spiel_ext.engine.native).
  native_tree_builder = "spiel_ext.games.leduc_tree:build_leduc_tree"
  # The accepted values of the integer parameters, for errors about game
  # strings pyspiel cannot read (spiel_ext.engine.loading).
  parameter_ranges = {"ranks": f"2..{len(_RANK_LABELS)}",
                      "suits": f"1..{MAX_SUITS}", "ante": f"1..{MAX_CHIPS}",
                      "max_raises": f"0..{MAX_RAISES}",
                      "bet_cap": f"0..{MAX_BET_CAP}", "players": "2..10"}
  game_type, rules_class = _GAME_TYPE, LeducRules
  state_class, observer_class = LeducState, LeducObserver
