"""The betting template of a card game: its states walked once, each chance
node following a single outcome.

In the card games of :mod:`.card_tree` who acts, the legal actions and
which histories end the game depend only on the actions taken, never on
the cards, so the full tree is the template repeated under every deal.
:func:`walk_template` walks it (checking each chance node's outcomes
against the game's :class:`~spiel_ext.games.card_deck.Deck`),
:func:`count_histories` counts the full tree from it exactly and
:func:`template_depth` gives its height, for
:func:`spiel_ext.games.card_tree.build_card_game_tree`.
"""

from __future__ import annotations

import dataclasses

import pyspiel

from spiel_ext.engine.admission import SizeLimit
from spiel_ext.engine.constants import CHANCE, TERMINAL
from spiel_ext.games.card_deck import Deck

__all__ = ["Template", "count_histories", "template_depth", "walk_template"]


@dataclasses.dataclass
class Template:
  """The betting template in pre-order (children in str(action) order).

  Attributes:
    player: each node's player (a seat, CHANCE or TERMINAL).
    deals_above: the number of chance nodes above each node.
    children: each node's children.
    actions: each decision node's actions, in its children's order (empty
      at the other nodes).
    states: each node's state (None at chance nodes).
  """
  player: list[int] = dataclasses.field(default_factory=list)
  deals_above: list[int] = dataclasses.field(default_factory=list)
  children: list[list[int]] = dataclasses.field(default_factory=list)
  actions: list[list[int]] = dataclasses.field(default_factory=list)
  states: list[pyspiel.State | None] = dataclasses.field(default_factory=list)


def walk_template(game: pyspiel.Game, limit: SizeLimit,
                  deck: Deck) -> Template:
  """The game's states with each chance node following one outcome (whose
  outcomes are checked against ``deck``'s).

  Args:
    game: a card game of the shape of :mod:`.card_tree`.
    limit: the size limit the engine admitted the game with; the template
      is part of every deal's subtree, so a larger one is refused.
    deck: the chance model the game's chance outcomes must follow.

  Returns:
    The betting template.

  Raises:
    ValueError: a template above ``limit``, chance outcomes that are not
      ``deck``'s, or an acting player that is not a seat, CHANCE or
      TERMINAL.
  """
  template = Template()
  cap = limit.history_cap(game.num_players())

  def visit(state: pyspiel.State, dealt: tuple[int, ...]) -> int:
    node = len(template.player)
    if node >= cap:  # The template is part of every deal's subtree.
      raise limit.error(game, node + 1, "found more than")
    player = state.current_player()
    template.player.append(player)
    template.deals_above.append(len(dealt))
    template.states.append(None if player == CHANCE else state)
    template.children.append([])
    template.actions.append([])
    if player == CHANCE:
      outcomes = state.chance_outcomes()
      if outcomes != deck.outcomes(dealt):
        raise ValueError(f"{game}: the chance outcomes {outcomes} after the "
                         f"deals {list(dealt)} are not its deck's.")
      # Any outcome: the betting that follows does not depend on it.
      outcome = outcomes[0][0]
      template.children[node].append(visit(state.child(outcome),
                                           dealt + (outcome,)))
    elif player >= 0:
      moves = sorted(state.legal_actions(), key=str)
      template.actions[node] = moves
      template.children[node] = [visit(state.child(move), dealt)
                                 for move in moves]
    elif player != TERMINAL:
      raise ValueError(f"{game}: acting player {player} in the template.")
    return node

  visit(game.new_initial_state(), ())
  return template


def count_histories(template: Template, deck: Deck) -> tuple[int, int]:
  """The full tree's histories and decision histories (exact).

  Args:
    template: the betting template.
    deck: what its chance nodes deal.

  Returns:
    (histories, decision histories) of the template under every deal.
  """
  size = [0] * len(template.player)
  decisions = [0] * len(template.player)
  for node in reversed(range(len(template.player))):
    player, children = template.player[node], template.children[node]
    if player == CHANCE:
      repeats = deck.num_outcomes(template.deals_above[node])
      size[node] = 1 + repeats * size[children[0]]
      decisions[node] = repeats * decisions[children[0]]
    else:
      size[node] = 1 + sum(size[child] for child in children)
      decisions[node] = (player >= 0) + sum(decisions[child]
                                            for child in children)
  return size[0], decisions[0]


def template_depth(template: Template) -> int:
  """The template's height.

  Args:
    template: the betting template.

  Returns:
    Its height in edges.
  """
  depth = [0] * len(template.player)
  for node in range(len(template.player)):
    for child in template.children[node]:
      depth[child] = depth[node] + 1
  return max(depth)
