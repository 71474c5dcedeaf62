"""Compiled trees of card games whose betting does not depend on the cards.

In spiel_ext's card games (:mod:`.leduc`, :mod:`.bid_leduc`,
:mod:`.vnm_poker`) chance deals each player one private card, in seat
order, before anyone acts, and possibly one public card later; who acts,
the legal actions and which histories end the game depend only on the
actions taken, never on the cards. The cards matter in three places only:
the chance probabilities (a deck), the infostate strings (the acting
player's card and the public card) and the showdown's winners.

So the tree is a *betting template* (the game's own states, walked once
with the chance nodes following a single outcome) repeated under every
deal. :func:`build_card_game_tree` walks the template in Python
(:mod:`.card_template`: one state per betting sequence, a few thousand for
3-player Leduc), counts the full tree exactly from it (refusing one above
the size limit before building anything), then writes every history in one
numba loop and makes one infostate string per infoset from the template's
states. The result is what the engine's generic walk
(:mod:`spiel_ext.engine.compiler`) returns for the game, array for array;
each game module's ``*_tree`` companion says how its cards enter (a
:class:`CardRules`).
"""

from __future__ import annotations

import abc
import dataclasses

import numba
import numpy as np
import pyspiel

from spiel_ext.engine.admission import SizeLimit
from spiel_ext.engine.constants import CHANCE, TERMINAL
from spiel_ext.games.card_deck import Deck
from spiel_ext.games.card_template import (Template, count_histories,
                                           template_depth, walk_template)

__all__ = ["CardRules", "Deck", "build_card_game_tree"]


class CardRules(abc.ABC):
  """How the cards enter one game's tree (see the module docstring).

  Deal ``p`` < num_players is player ``p``'s private card; a deal after
  those is the public card. Hand strength at a showdown is
  ``strength[own card, public card]`` (column ``deck.size`` when no public
  card was dealt); the showdown's players of highest strength win.

  A subclass is made from the game's rules (``cls(game.rules)``): it sets
  the attributes and implements ``_players_in`` on the game's states (and
  overrides :meth:`payoffs` if it has no ``result_deals``).

  Attributes:
    deck: the chance model.
    strength: int array [deck.size, deck.size + 1].
    private_field: the name of the states' list of private cards, by seat.
    public_field: the name of the states' public card (None when there is
      none).
    result_deals: {winners: (private cards, public card)} that make each
      showdown result, for :meth:`payoffs`.
  """
  deck: Deck
  strength: np.ndarray
  private_field: str
  public_field: str | None = None
  result_deals: dict[tuple[int, ...], tuple[list[int], int | None]] = {}

  def showdown_players(self, state: pyspiel.State) -> list[int]:
    """The players still in at a terminal template state (one if the
    others folded), in increasing order.

    Args:
      state: a terminal state of the betting template.

    Returns:
      The seats, in increasing order.
    """
    return self._players_in(state)

  def payoffs(self, state: pyspiel.State,
              winners: tuple[int, ...]) -> list[float]:
    """The returns at a terminal template state when ``winners`` (a
    non-empty subset of its showdown players) win: the state's own
    returns, with cards that make this result. May modify ``state``.

    Args:
      state: a terminal state of the betting template.
      winners: the seats that win, a non-empty subset of
        :meth:`showdown_players`, in increasing order.

    Returns:
      [num_players] returns, as ``state.returns()`` would give them.
    """
    private, public = self.result_deals[winners]
    self._deal(state, private, public)
    return state.returns()

  def infoset_key(self, state: pyspiel.State, player: int, card: int,
                  public: int | None) -> str:
    """``player``'s infostate string at a decision template state (its
    player to act) had ``player`` been dealt ``card`` and the public card
    been ``public`` (None: not dealt). May modify ``state``.

    Args:
      state: a decision state of the betting template, ``player`` to act.
      player: the acting seat.
      card: the outcome id of ``player``'s private card.
      public: the outcome id of the public card, or None before it is
        dealt.

    Returns:
      The information-state string.
    """
    private = getattr(state, self.private_field)
    private[player] = card
    self._deal(state, private, public)
    return state.information_state_string(player)

  @classmethod
  def build_tree(cls, game: pyspiel.Game, limit: SizeLimit
                 ) -> tuple[dict[str, np.ndarray], list[str]]:
    """The arrays and infoset keys of ``game``, with ``cls(game.rules)``
    saying how its cards enter (a game's native tree builder).

    Args:
      game: a game of these card rules.
      limit: the size limit the engine admitted the game with.

    Returns:
      (arrays, keys), as :func:`build_card_game_tree` returns them.

    Raises:
      ValueError: the tree is above ``limit``.
    """
    return build_card_game_tree(game, limit, cls(game.rules))

  @abc.abstractmethod
  def _players_in(self, state: pyspiel.State) -> list[int]:
    """:meth:`showdown_players`, read from the game's state."""

  def _deal(self, state: pyspiel.State, private: list[int],
            public: int | None) -> None:
    """Gives ``state`` these private cards and public card."""
    setattr(state, self.private_field, list(private))
    if self.public_field is not None:
      setattr(state, self.public_field, public)


def build_card_game_tree(game: pyspiel.Game, limit: SizeLimit,
                         rules: CardRules
                         ) -> tuple[dict[str, np.ndarray], list[str]]:
  """The compiled arrays and infoset keys of ``game`` (what the engine's
  generic walk returns), built from its betting template and ``rules``.

  Args:
    game: a card game of the shape of the module docstring.
    limit: the size limit the engine admitted the game with; a larger tree
      is refused before it is built.
    rules: how the game's cards enter its tree.

  Returns:
    (arrays, keys): the compiled arrays by name (parent, action,
    node_player, infoset, chance_prob, utility, infoset_player,
    infoset_legal, infoset_history) and the infostate string of every
    infoset row.

  Raises:
    ValueError: a tree above ``limit``, or a game that does not have the
      shape of the module docstring (a decision before every private card
      is dealt, more than one public card, or two infosets with one key).
  """
  template = walk_template(game, limit, rules.deck)
  num_histories, num_decisions = count_histories(template, rules.deck)
  if num_histories > limit.history_cap(game.num_players()):
    raise limit.error(game, num_histories, "it has")
  nodes = _template_arrays(game, template)
  filled = _fill_histories(game, template, rules, nodes, num_histories,
                           num_decisions)
  keys = _infoset_keys(game, limit, template, rules, nodes, filled,
                       num_histories)
  return _tabular_arrays(game, template, rules.deck, nodes, filled, keys)


@dataclasses.dataclass
class _Nodes:
  """The template as arrays (its children flat, from ``child_start``), with
  the indices of its decision and terminal nodes (``index``: a node's rank
  among the nodes of its kind)."""
  player: np.ndarray
  deals_above: np.ndarray
  child_start: np.ndarray
  children: np.ndarray
  child_action: np.ndarray
  index: np.ndarray
  decisions: np.ndarray
  terminals: np.ndarray


def _template_arrays(game: pyspiel.Game, template: Template) -> _Nodes:
  """The template as arrays; refuses deals not of the module docstring's
  shape."""
  num_players = game.num_players()
  num_nodes = len(template.player)
  node_player = np.asarray(template.player, dtype=np.int32)
  deals_above = np.asarray(template.deals_above, dtype=np.int32)
  if deals_above.max() > num_players + 1 or np.any(
      deals_above[node_player >= 0] < num_players):
    raise ValueError(f"{game}: its deals are not one private card per player "
                     "before any action and at most one public card.")
  child_start = np.zeros(num_nodes + 1, dtype=np.int32)
  np.cumsum([len(children) for children in template.children],
            out=child_start[1:])
  children = np.asarray([c for cs in template.children for c in cs] or [0],
                        dtype=np.int32)
  child_action = np.asarray(
      [a for node, cs in enumerate(template.children)
       for a in (template.actions[node] or [0] * len(cs))] or [0],
      dtype=np.int32)
  node_index = np.full(num_nodes, -1, dtype=np.int32)
  decision_nodes = np.flatnonzero(node_player >= 0)
  terminal_nodes = np.flatnonzero(node_player == TERMINAL)
  node_index[decision_nodes] = np.arange(len(decision_nodes))
  node_index[terminal_nodes] = np.arange(len(terminal_nodes))
  return _Nodes(node_player, deals_above, child_start, children, child_action,
                node_index, decision_nodes, terminal_nodes)


def _fill_histories(game: pyspiel.Game, template: Template,
                    rules: CardRules, nodes: _Nodes, num_histories: int,
                    num_decisions: int) -> tuple[np.ndarray, ...]:
  """What :func:`_fill` returns for the template under every deal."""
  num_players = game.num_players()
  deck = rules.deck
  # Payoff rows of each terminal node: one per subset of its showdown
  # players, indexed by the bits of the subset over those players in order.
  showdown_mask = np.zeros(len(nodes.terminals), dtype=np.int64)
  payoff_start = np.zeros(len(nodes.terminals) + 1, dtype=np.int64)
  rows = []
  for z, node in enumerate(nodes.terminals):
    state = template.states[node]
    players = rules.showdown_players(state)
    showdown_mask[z] = sum(1 << p for p in players)
    rows.append(np.zeros(num_players))  # The empty subset: never used.
    for bits in range(1, 1 << len(players)):
      winners = tuple(p for i, p in enumerate(players) if bits >> i & 1)
      rows.append(rules.payoffs(state, winners))
    payoff_start[z + 1] = len(rows)
  payoff_rows = np.asarray(rows, dtype=np.float64).reshape(-1, num_players)

  outcome_order = np.asarray(sorted(range(deck.size), key=str),
                             dtype=np.int32)
  max_branch = max(deck.size, max(map(len, template.children)))
  stack_size = (template_depth(template) + 2) * max_branch
  return _fill(
      num_histories, num_players, nodes.player, nodes.deals_above,
      nodes.child_start, nodes.children, nodes.child_action, nodes.index,
      showdown_mask, payoff_start, payoff_rows,
      np.asarray(deck.copies, dtype=np.int64), deck.replace, deck.list_empty,
      outcome_order, np.ascontiguousarray(rules.strength, dtype=np.int64),
      min(num_decisions, len(nodes.decisions) * deck.size * (deck.size + 1)),
      stack_size)


def _infoset_keys(game: pyspiel.Game, limit: SizeLimit, template: Template,
                  rules: CardRules, nodes: _Nodes,
                  filled: tuple[np.ndarray, ...],
                  num_histories: int) -> list[str]:
  """One key per infoset id, from its decision node's template state;
  refuses two infosets with one key and a tree above ``limit`` with its
  keys counted."""
  deck = rules.deck
  infoset_player, infoset_code = filled[6:8]  # In _fill's return order.
  keys = []
  for player, code in zip(infoset_player.tolist(), infoset_code.tolist()):
    code, public = divmod(code, deck.size + 1)
    decision, card = divmod(code, deck.size)
    state = template.states[nodes.decisions[decision]]
    keys.append(rules.infoset_key(state, player, card,
                                  None if public == deck.size else public))
  if len(set(keys)) != len(keys):
    raise ValueError(f"{game}: two infosets of its native tree have one "
                     "infostate string.")
  key_bytes = sum(map(len, keys))
  if num_histories > limit.history_cap(game.num_players(), len(keys),
                                       key_bytes):
    raise limit.error(game, num_histories, "it has", len(keys), key_bytes)
  return keys


def _tabular_arrays(game: pyspiel.Game, template: Template, deck: Deck,
                    nodes: _Nodes, filled: tuple[np.ndarray, ...],
                    keys: list[str]
                    ) -> tuple[dict[str, np.ndarray], list[str]]:
  """The arrays by name and the keys by row, the rows grouped by player in
  first-encounter order within a player (as the walk numbers them:
  OpenSpiel's TabularPolicy layout)."""
  (parent, action, player_of, infoset, chance_prob, utility, infoset_player,
   infoset_code, infoset_history) = filled
  order = np.argsort(infoset_player, kind="stable")
  row_of_id = np.empty(len(order), dtype=np.int32)
  row_of_id[order] = np.arange(len(order), dtype=np.int32)
  decision = infoset >= 0
  infoset[decision] = row_of_id[infoset[decision]]
  legal = np.zeros((len(nodes.decisions), game.num_distinct_actions()),
                   dtype=bool)
  for d, node in enumerate(nodes.decisions):
    legal[d, template.actions[node]] = True
  infoset_decision = infoset_code[order] // (deck.size * (deck.size + 1))
  arrays = {
      "parent": parent,
      "action": action,
      "node_player": player_of,
      "infoset": infoset,
      "chance_prob": chance_prob,
      "utility": utility,
      "infoset_player": infoset_player[order],
      "infoset_legal": legal[infoset_decision],
      "infoset_history": infoset_history[order],
  }
  return arrays, [keys[i] for i in order]


@numba.njit(cache=True, nogil=True)
def _fill(num_histories, num_players, node_player, deals_above, child_start,
          children, child_action, node_index, showdown_mask, payoff_start,
          payoff_rows, copies, replace, list_empty, outcome_order, strength,
          max_infosets, stack_size):
  """Every history of the template under every deal, in pre-order."""
  num_outcomes = copies.shape[0]
  parent = np.empty(num_histories, dtype=np.int32)
  action = np.empty(num_histories, dtype=np.int32)
  player_of = np.empty(num_histories, dtype=np.int32)
  infoset = np.full(num_histories, -1, dtype=np.int32)
  chance_prob = np.ones(num_histories)
  utility = np.zeros((num_histories, num_players))
  infoset_player = np.empty(max_infosets, dtype=np.int32)
  infoset_code = np.empty(max_infosets, dtype=np.int64)
  infoset_history = np.empty(max_infosets, dtype=np.int32)
  num_decision_nodes = 0
  for node in range(node_player.shape[0]):
    if node_player[node] >= 0:
      num_decision_nodes += 1
  code_to_id = np.full(
      num_decision_nodes * num_outcomes * (num_outcomes + 1), -1,
      dtype=np.int32)
  num_infosets = 0

  # The stack: template node, parent history, incoming action, probability
  # and the deal the incoming edge makes (-1 for an action).
  stack_node = np.empty(stack_size, dtype=np.int32)
  stack_parent = np.empty(stack_size, dtype=np.int32)
  stack_action = np.empty(stack_size, dtype=np.int32)
  stack_prob = np.empty(stack_size)
  stack_deal = np.empty(stack_size, dtype=np.int32)
  cards = np.zeros(num_players + 1, dtype=np.int64)
  left = np.empty(num_outcomes, dtype=np.int64)
  stack_node[0], stack_parent[0], stack_action[0] = 0, -1, -1
  stack_prob[0], stack_deal[0] = 1.0, -1
  top = 1
  history = 0
  while top > 0:
    top -= 1
    node = stack_node[top]
    if stack_deal[top] >= 0:
      cards[stack_deal[top]] = stack_action[top]
    parent[history] = stack_parent[top]
    action[history] = stack_action[top]
    chance_prob[history] = stack_prob[top]
    player = node_player[node]
    player_of[history] = player
    dealt = deals_above[node]
    public = cards[num_players] if dealt > num_players else num_outcomes
    if player == TERMINAL:
      z = node_index[node]
      mask = showdown_mask[z]
      best = np.int64(-1)
      winners = 0
      for p in range(num_players):
        if mask >> p & 1:
          value = strength[cards[p], public]
          if value > best:
            best, winners = value, 1 << p
          elif value == best:
            winners |= 1 << p
      # The winners as bits over the showdown players in order.
      row, bit = 0, 0
      for p in range(num_players):
        if mask >> p & 1:
          if winners >> p & 1:
            row |= 1 << bit
          bit += 1
      utility[history, :] = payoff_rows[payoff_start[z] + row]
    elif player == CHANCE:
      total = 0
      for k in range(num_outcomes):
        left[k] = copies[k]
      if not replace:
        for d in range(dealt):
          left[cards[d]] -= 1
      for k in range(num_outcomes):
        total += left[k]
      child = children[child_start[node]]
      for i in range(num_outcomes - 1, -1, -1):
        k = outcome_order[i]
        if left[k] == 0 and not list_empty:
          continue
        stack_node[top], stack_parent[top] = child, history
        stack_action[top], stack_prob[top] = k, left[k] / total
        stack_deal[top] = dealt
        top += 1
    else:
      code = ((np.int64(node_index[node]) * num_outcomes + cards[player]) *
              (num_outcomes + 1) + public)
      infoset_id = code_to_id[code]
      if infoset_id < 0:
        infoset_id = num_infosets
        code_to_id[code] = infoset_id
        infoset_player[infoset_id] = player
        infoset_code[infoset_id] = code
        infoset_history[infoset_id] = history
        num_infosets += 1
      infoset[history] = infoset_id
      for i in range(child_start[node + 1] - 1, child_start[node] - 1, -1):
        stack_node[top], stack_parent[top] = children[i], history
        stack_action[top], stack_prob[top] = child_action[i], 1.0
        stack_deal[top] = -1
        top += 1
    history += 1
  return (parent, action, player_of, infoset, chance_prob, utility,
          infoset_player[:num_infosets].copy(),
          infoset_code[:num_infosets].copy(),
          infoset_history[:num_infosets].copy())
