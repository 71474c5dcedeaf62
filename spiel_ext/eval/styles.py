"""Play-style readouts: what a strategy does at a player's first decisions.

Qi Ju, Thomas Tellier, Meng Sun, Zhemei Fang, Yunfeng Luo, "Preference-CFR:
Beyond Nash Equilibrium for Better Game Strategies", ICML 2025,
arXiv:2411.01217, section 5.2 (Figures 5-6), shows a play style by its
action distribution at player 1's first decisions, overall and per private
hand. :func:`first_decision_distribution` and :func:`hand_strategies` read
both off any policy, exactly (reach-weighted on the compiled tree, no
sampling).

A first decision is an infoset with no earlier move of its own player (the
engine's ``own_sequence`` is -1 there; the same infosets as
``spiel_ext.algorithms.FirstDecisions``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from spiel_ext.engine import GameTree, compile_game
from spiel_ext.games.leduc import rank_labels
from spiel_ext.policy import PolicyLike, as_strategy

if TYPE_CHECKING:
  from spiel_ext.exploitability import GameLike


def move_name(label: str) -> str:
  """An action label without universal_poker's ``player=i move=`` prefix:
  ``"player=0 move=Bet"`` -> ``"Bet"``, ``"Raise"`` -> ``"Raise"``.

  Args:
    label: an action label (``state.action_to_string(player, action)``).

  Returns:
    The text after the last ``move=``, or ``label`` itself.
  """
  return label.rsplit("move=", 1)[-1]


def _first_decisions(tree: GameTree, player: int) -> np.ndarray:
  rows = np.flatnonzero((tree.own_sequence < 0) &
                        (tree.infoset_player == player))
  if not len(rows):
    raise ValueError(f"player {player} has no decision in {tree.game_string}.")
  return rows


def _moves(tree: GameTree, rows: Iterable[int]) -> dict[int, str]:
  """{action id: move name} over the legal actions of ``rows``."""
  moves: dict[int, str] = {}
  for row in rows:
    state = tree.state(int(tree.infoset_history[row]))
    player = int(tree.infoset_player[row])
    for action in np.flatnonzero(tree.infoset_legal[row]):
      moves.setdefault(int(action),
                       move_name(state.action_to_string(player, int(action))))
  return dict(sorted(moves.items()))


def _reach_weights(tree: GameTree, strategy: np.ndarray,
                   rows: np.ndarray) -> np.ndarray:
  """Probability of reaching each of ``rows``: chance and the others'
  reach, summed over the infoset (the player's own reach is 1 at a first
  decision)."""
  own, others = tree.infoset_reach(tree.reach(strategy))
  return own[rows] * others[rows]


def first_decision_distribution(game: GameLike, policy: PolicyLike,
                                player: int = 0) -> dict[str, float]:
  """The action distribution at ``player``'s first decisions.

  The average of the strategy over the infosets where ``player`` acts for
  the first time, each weighted by the probability of reaching it (the
  paper's "average strategy" row of Figures 5-6).

  Args:
    game: a game string, pyspiel game or compiled GameTree.
    policy: any policy form :func:`spiel_ext.policy.as_strategy` accepts.
    player: the seat (default 0, the paper's player 1).

  Returns:
    {move name: probability} in action-id order, e.g. {"Fold": .., "Call":
    .., "Bet": .., "AllIn": ..}.

  Raises:
    ValueError: a policy that is not a strategy, a bad player, or first
      decisions that the profile never reaches.
  """
  tree = compile_game(game)
  tree.check_player(player)
  strategy = as_strategy(tree, policy)
  rows = _first_decisions(tree, player)
  weights = _reach_weights(tree, strategy, rows)
  if weights.sum() <= 0:
    raise ValueError(f"player {player}'s first decisions are never reached "
                     "under this policy.")
  mix = weights @ strategy[rows] / weights.sum()
  return {move: float(mix[action])
          for action, move in _moves(tree, rows).items()}


_RANKS = "23456789TJQKA"
_CARD = re.compile(r"([2-9TJQKA])([shdc])")


def private_hand(tree: GameTree, row: int) -> tuple[str, tuple]:
  """(label, sort key) of the private hand at infoset ``row``.

  Hold'em cards (universal_poker ``[Private: 5d4d]``) become the usual
  classes: ``55``, ``54s`` (suited), ``54o`` (offsuit), or the rank of a
  single card; Leduc cards become their rank (leduc_poker's card id c has
  rank c // 2, named as spiel_ext_leduc names its ranks; spiel_ext_leduc
  writes ``[Card Js]``). Other games: the infoset key. Sorting by the key,
  largest first, lists pairs first, then by the higher card.

  Args:
    tree: the compiled game.
    row: an infoset row of ``tree``.

  Returns:
    (label, sort key): the hand's label (such as ``"54s"``, ``"J"`` or the
    infoset key) and a tuple to sort hands by strength.
  """
  key = tree.infoset_keys[row]
  private = re.search(r"\[Private: ([^\]]*)\]", key)
  text = private.group(1).strip() if private else ""
  cards = _CARD.findall(text)
  if cards:
    ranks = sorted((_RANKS.index(rank) for rank, _ in cards), reverse=True)
    label = "".join(_RANKS[rank] for rank in ranks)
    if len(cards) == 2 and ranks[0] != ranks[1]:
      suited = cards[0][1] == cards[1][1]
      return label + ("s" if suited else "o"), (0, *ranks, int(suited))
    return label, (int(len(ranks) > 1 and len(set(ranks)) == 1), *ranks, 0)
  if text.isdigit() and tree.game.get_type().short_name == "leduc_poker":
    rank = rank_labels(tree.num_players + 1)[int(text) // 2]
    return rank, (0, _RANKS.index(rank))
  card = re.search(r"\[Card ([2-9TJQKA])[a-z]\]", key)
  if card:
    return card.group(1), (0, _RANKS.index(card.group(1)))
  return key, (0, -row)


def hand_strategies(game: GameLike, policy: PolicyLike,
                    player: int = 0) -> pd.DataFrame:
  """The strategy per private hand at ``player``'s first decisions.

  One row per hand (see :func:`private_hand`; strongest first), the
  reach-weighted average over the hand's first-decision infosets, one
  column per move, and ``weight``, the probability of holding the hand.

  Args:
    game: a game string, pyspiel game or compiled GameTree.
    policy: any policy form :func:`spiel_ext.policy.as_strategy` accepts.
    player: the seat (default 0, the paper's player 1).

  Returns:
    A pandas DataFrame indexed by ``hand``: one column per move name (the
    hand's action probabilities, NaN for a hand never reached) and
    ``weight``.

  Raises:
    ValueError: as :func:`first_decision_distribution`.
  """
  tree = compile_game(game)
  tree.check_player(player)
  strategy = as_strategy(tree, policy)
  rows = _first_decisions(tree, player)
  moves = _moves(tree, rows)
  weights = _reach_weights(tree, strategy, rows)
  hands: dict[str, dict] = {}
  for row, weight in zip(rows, weights):
    label, order = private_hand(tree, int(row))
    entry = hands.setdefault(label, {"order": order, "weight": 0.0,
                                     "mix": np.zeros(len(moves))})
    entry["weight"] += weight
    entry["mix"] += weight * strategy[row, list(moves)]
  table = []
  for label, entry in sorted(hands.items(), key=lambda item: item[1]["order"],
                             reverse=True):
    total = entry["weight"]
    mix = entry["mix"] / total if total > 0 else np.full(len(moves), np.nan)
    table.append({"hand": label, **dict(zip(moves.values(), mix)),
                  "weight": total})
  return pd.DataFrame(table).set_index("hand")
