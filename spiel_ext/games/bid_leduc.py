"""Leduc(k), the betting game of the unknown-environment papers:
``spiel_ext_bid_leduc``.

The "Leduc(k)" of Zhou, Li, Zhu, "Posterior Sampling for Multi-Agent
Reinforcement Learning: Solving Extensive Games with Imperfect
Information", ICLR 2020, and of Qiu, Wang, Ma, Wen, Zhang, "Combining
Counterfactual Regret Minimization with Information Gain to Solve Extensive
Games with Unknown Environments", 2023, arXiv:2110.07892, with the rules of
the authors' public code. It is not Leduc hold'em with a bet cap
(``spiel_ext_leduc(bet_cap=k)`` is a different, much smaller game): each
player has one running stake that it sets, and may raise, up to ``max_bid``.

Deal (ranks only: 3 ranks J < Q < K, no suits; probabilities as if drawn
from a deck of 2 cards per rank):

  player 0's rank   uniform, 1/3 each;
  player 1's rank   player 0's rank with probability 1/5, each other 2/5;
  public rank a     after round 1, (2 - [a = c0] - [a = c1]) / 4.

All three public ranks are chance outcomes even when both players hold the
same rank c, where a = c has probability 0: ``chance_outcomes()`` lists it
with probability 0.0, so the tree keeps its subtree, as the authors' tree
does (OpenSpiel's Python ``cfr.CFRSolver`` asserts positive chance
probabilities and refuses this game; its C++ ``pyspiel.CFRSolver``, its
best responses, NashConv and sampling accept it).

Stakes and actions, with k = ``max_bid`` (an integer in 1..100, default 4;
the tree grows about 3.6 times per step of k, past 10^9 histories from k =
12 on). There
are no antes or blinds in the tree. A player's stake is "not yet bid" until
its first bid, then in 1..k, and it holds for both rounds. With opp the
opponent's stake at a decision:

  opp not yet bid   (player 0's first action) ids 0..k-1 bid 1..k, id k
                    folds: k + 1 actions, no check;
  otherwise         ids i = 0..k-opp set the stake to opp + i (i = 0
                    matches, i > 0 raises), id k-opp+1 folds: k-opp+2
                    actions.

Fold is always legal and always the last id. Player 0 opens both rounds. A
fold ends the game. A non-fold action that leaves both stakes unchanged
ends the round: after round 1 the public rank is dealt, after round 2 comes
the showdown. Any other action passes the turn. So player 1's first match
(from "not yet bid") must be confirmed by player 0 (id 0), a raise must be
matched and then confirmed by the raiser, and player 0's id 0 at the start
of round 2 is a check that goes straight to the showdown.

Showdown: equal private ranks tie; else a player whose rank equals the
public rank wins; else the higher rank wins.

Payoffs (the authors' own terminal payoffs are asymmetric and are never
used, as the unknown environment redraws every terminal's reward; this is
a zero-sum table so that the game is playable on its own): each player is
treated as having put one chip in before the deal (a notional ante, not an
action of the tree), so a player's contribution is 1 + its stake (1 if it
has not bid). The winner takes the loser's contribution: a folding player
loses its own contribution (player 0 folding at the opening loses 1,
player 1 folding at its first action loses 1), and a showdown at common
stake b pays +-(1 + b); a tie pays 0. Utilities lie in [-(k + 1), k + 1].

Sizes (every history: chance, decision and terminal; decision infosets of
players 0 / 1):

  k = 1    148 histories      15 /    3 infosets
  k = 2    661                60 /   21
  k = 3  2,605               222 /  102
  k = 4  9,652               789 /  426
  k = 5 34,438             2,733 / 1,641

Strings: the infostate string (perfect recall) is the player, its rank, the
public rank once dealt and every action id so far, rounds separated by
``|``, e.g. ``[Player 1][Rank Q][Public K][Actions 1 0 0 | 1]``; the
observation string (imperfect recall) shows the round and both stakes
instead (``-`` for not yet bid). Actions read ``Bid 3``, ``Match``,
``Check`` (id 0 when the stakes are already equal), ``Raise to 4`` and
``Fold``; chance outcomes ``Deal:J``.

Tensors (T = 2k + 2, the most decisions a game can have; A = k + 1, the
number of distinct action ids):

  information state  player one-hot [2], own rank one-hot [3], public rank
                     one-hot [3], actions [T, A]: turn t one-hot over the
                     action id taken at the t-th decision of the game.
  observation        player one-hot [2], own rank one-hot [3], public rank
                     one-hot [3], each player's stake [2] (0 before its
                     first bid).
"""

from __future__ import annotations

import dataclasses

import pyspiel

from spiel_ext.games.common import (CardState, GameRules, RulesGame,
                                    RulesObserver, check_integer,
                                    poker_game_type, zero_sum_info)

RANKS = 3
RANK_LABELS = "JQK"
NOT_BID = -1
ANTE = 1  # The notional chip each player is treated as having put in.
_NAME = "spiel_ext_bid_leduc"
_DEFAULTS = {"max_bid": 4}
MAX_BID = 100  # Checked before anything is built.

_GAME_TYPE = poker_game_type(_NAME, "Leduc(k) betting game of Zhou et al. "
                             "2020 (spiel_ext)", _DEFAULTS)


@dataclasses.dataclass(frozen=True)
class BidLeducRules(GameRules):
  """The parameters (plain data that state clones share).

  Attributes:
    max_bid: k, the largest stake, an integer in 1..100.
  """
  max_bid: int

  defaults = _DEFAULTS

  @classmethod
  def _from_values(cls, values: dict) -> "BidLeducRules":
    """The checked rules from a dict of every parameter."""
    return cls(max_bid=check_integer(_NAME, "max_bid", values["max_bid"], 1,
                                     MAX_BID))

  @property
  def max_turns(self) -> int:
    """The most decisions in one game: the stake climbs 1..k one chip at a
    time, each level raised and matched, plus one confirming action per
    round."""
    return 2 * self.max_bid + 2

  def game_info(self) -> pyspiel.GameInfo:
    """The GameInfo of Leduc(k) with these rules.

    Returns:
      k + 1 actions, a deal of one of the ranks, and utilities up to the
      ante plus k either way.
    """
    top = float(ANTE + self.max_bid)
    return zero_sum_info(self.max_bid + 1, RANKS, 2, -top, top,
                         self.max_turns)


def private_deal_probabilities(first: int | None) -> list[float]:
  """Chance probabilities of a private rank: uniform for player 0 (``first``
  None); for player 1, 1/5 for player 0's rank ``first`` and 2/5 for each
  other (two cards per rank, one of them gone).

  Args:
    first: player 0's rank (0..2), or None to deal player 0's rank.

  Returns:
    [3] probabilities of ranks J, Q, K.
  """
  if first is None:
    return [1.0 / RANKS] * RANKS
  return [(1.0 if rank == first else 2.0) / (2 * RANKS - 1)
          for rank in range(RANKS)]


def public_deal_probabilities(ranks: tuple[int, int]) -> list[float]:
  """P(public rank a) = (2 - [a = c0] - [a = c1]) / 4: two cards per rank,
  the two private cards gone (0 for a = c0 = c1).

  Args:
    ranks: (player 0's rank, player 1's rank), each 0..2.

  Returns:
    [3] probabilities of public ranks J, Q, K.
  """
  return [(2 - (a == ranks[0]) - (a == ranks[1])) / (2 * RANKS - 2)
          for a in range(RANKS)]


def showdown_winner(ranks: tuple[int, int], public: int) -> int | None:
  """The winning player at a showdown, None for a tie: equal ranks tie
  (checked first), then pairing the public rank wins, then the higher
  rank.

  Args:
    ranks: (player 0's rank, player 1's rank), each 0..2.
    public: the public rank, 0..2.

  Returns:
    0 or 1, or None for a tie.
  """
  if ranks[0] == ranks[1]:
    return None
  for player in (0, 1):
    if ranks[player] == public:
      return player
  return 0 if ranks[0] > ranks[1] else 1


class BidLeducState(CardState):
  """A Leduc(k) state: the ranks dealt, both stakes and the action ids of
  each round.

  Args:
    game: the game; the state starts at the deal of the private ranks.
  """

  def __init__(self, game: BidLeducGame):
    super().__init__(game)
    self._max_bid = game.rules.max_bid
    self.ranks: list[int] = []
    self.public: int | None = None
    self.round = 1
    self.stakes = [NOT_BID, NOT_BID]
    self.sequences: list[list[int]] = [[], []]
    self.folded: int | None = None  # The player who folded, if one did.

  # ------------------------------------------------------------- queries
  def _dealing(self) -> bool:
    """Whether a card is to be dealt."""
    return len(self.ranks) < 2 or (self.round == 2 and self.public is None)

  def chance_outcomes(self):
    """The outcomes of the chance node.

    Returns:
      [(outcome, probability)]: the ranks 0..2 (J, Q, K) with the
      probabilities of :func:`private_deal_probabilities` or
      :func:`public_deal_probabilities` (a public rank of probability 0
      included).
    """
    if len(self.ranks) < 2:
      probabilities = private_deal_probabilities(
          self.ranks[0] if self.ranks else None)
    else:
      probabilities = public_deal_probabilities(tuple(self.ranks))
    return list(enumerate(probabilities))

  def _num_actions(self, player: int) -> int:
    opponent = self.stakes[1 - player]
    if opponent == NOT_BID:
      return self._max_bid + 1
    return self._max_bid - opponent + 2

  def fold_action(self, player: int) -> int:
    """The fold id of ``player`` here (always its last legal action).

    Args:
      player: the seat, 0 or 1.

    Returns:
      The action id: k when the opponent has not bid, else k - opp + 1.
    """
    return self._num_actions(player) - 1

  def _new_stake(self, player: int, action: int) -> int:
    opponent = self.stakes[1 - player]
    return action + 1 if opponent == NOT_BID else opponent + action

  def _legal_actions(self, player):
    return list(range(self._num_actions(player)))

  def returns(self):
    """Each player's payoff.

    Returns:
      [2] chips: the loser pays 1 + its stake (1 if it has not bid), a tie
      and a game not over pay 0.
    """
    if not self._terminal:
      return [0.0, 0.0]
    if self.folded is not None:
      loser = self.folded
    else:
      winner = showdown_winner(tuple(self.ranks), self.public)
      if winner is None:
        return [0.0, 0.0]
      loser = 1 - winner
    amount = float(ANTE + max(self.stakes[loser], 0))
    return [amount, -amount] if loser == 1 else [-amount, amount]

  # ------------------------------------------------------------- moves
  def _apply_action(self, action):
    if self.is_chance_node():
      if len(self.ranks) < 2:
        self.ranks.append(action)
      else:
        self.public = action
      self._next_player = 0  # Player 0 opens both rounds.
      return
    player = self._next_player
    self.sequences[self.round - 1].append(action)
    if action == self.fold_action(player):
      self.folded = player
      self._terminal = True
      return
    stake = self._new_stake(player, action)
    if stake == self.stakes[player]:  # Both stakes unchanged: round over.
      if self.round == 2:
        self._terminal = True
      else:
        self.round = 2
      return
    self.stakes[player] = stake
    self._next_player = 1 - player

  # ------------------------------------------------------------- strings
  def _action_to_string(self, player, action):
    if player == pyspiel.PlayerId.CHANCE:
      return f"Deal:{RANK_LABELS[action]}"
    if action == self.fold_action(player):
      return "Fold"
    opponent = self.stakes[1 - player]
    stake = self._new_stake(player, action)
    if opponent == NOT_BID:
      return f"Bid {stake}"
    if action == 0:
      return "Check" if self.stakes[player] == opponent else "Match"
    return f"Raise to {stake}"

  def __str__(self):
    ranks = " ".join(RANK_LABELS[rank] for rank in self.ranks)
    public = "-" if self.public is None else RANK_LABELS[self.public]
    return (f"ranks [{ranks}] public {public} round {self.round} stakes "
            f"{_stakes_text(self.stakes)} actions {_actions_text(self)}")


def _stakes_text(stakes) -> str:
  return " ".join("-" if stake == NOT_BID else str(stake) for stake in stakes)


def _actions_text(state: BidLeducState) -> str:
  rounds = [" ".join(map(str, state.sequences[0]))]
  if state.round == 2:
    rounds.append(" ".join(map(str, state.sequences[1])))
  return " | ".join(rounds).rstrip()


class BidLeducObserver(RulesObserver):
  """Strings and tensors of a Leduc(k) state (layout: module docstring).

  Args:
    rules, iig_obs_type, params: as :class:`RulesObserver` takes them.
  """

  def _pieces(self):
    """The pieces: "player", the private rank(s), and with public
    information "public_rank" and "actions" (perfect recall) or "stakes"."""
    pieces = self.private_pieces(2, "private_rank", RANKS)
    if self.public:
      pieces.append(("public_rank", (RANKS,)))
      if self.perfect_recall:
        pieces.append(("actions", (self._rules.max_turns,
                                   self._rules.max_bid + 1)))
      else:
        pieces.append(("stakes", (2,)))
    return pieces

  def _fill(self, state, player):
    """Writes the observation of a :class:`BidLeducState`."""
    self.fill_private(player, "private_rank", state.ranks)
    self.fill_one_hot("public_rank", state.public)
    if "actions" in self.dict:
      actions = self.dict["actions"]
      for turn, action in enumerate(state.sequences[0] + state.sequences[1]):
        actions[turn, action] = 1
    if "stakes" in self.dict:
      self.dict["stakes"][:] = [max(stake, 0) for stake in state.stakes]

  def _string(self, state, player):
    """The string (see the module docstring)."""
    public = "-" if state.public is None else RANK_LABELS[state.public]
    if self.perfect_recall:
      info = f"[Actions {_actions_text(state)}]"
    else:
      info = f"[Round {state.round}][Stakes {_stakes_text(state.stakes)}]"
    return self.bracketed_string(
        player, "Rank", [RANK_LABELS[rank] for rank in state.ranks], public,
        info)


class BidLeducGame(RulesGame):
  """Leduc(k) with ``max_bid`` = k (see the module docstring).

  Args:
    params: pyspiel's parameter dict (from the game string).

  Raises:
    ValueError: ``max_bid`` is not an integer in 1..100.
  """

  # The engine builds the tree from the rules (spiel_ext.engine.native).
  native_tree_builder = "spiel_ext.games.bid_leduc_tree:build_bid_leduc_tree"
  # For errors about game strings pyspiel cannot read.
  parameter_ranges = {"max_bid": f"1..{MAX_BID}"}
  game_type, rules_class = _GAME_TYPE, BidLeducRules
  state_class, observer_class = BidLeducState, BidLeducObserver
