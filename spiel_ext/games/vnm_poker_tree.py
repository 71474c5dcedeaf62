"""The compiled tree of ``spiel_ext_vnm_poker``, built from its rules.

Von Neumann-Morgenstern poker (von Neumann, Morgenstern, "Theory of Games
and Economic Behavior", 1944; the raise variant of Schulze, "A Generalized
Extensive-Form Fictitious Play Algorithm", 2023) as defined in
:mod:`spiel_ext.games.vnm_poker`: the betting does not depend on the hands,
so :func:`spiel_ext.games.card_tree.build_card_game_tree` repeats the
betting template under every pair of hands, dealt independently and
uniformly; at a showdown the higher hand wins.

The engine uses :func:`build_vnm_poker_tree` for every
``spiel_ext_vnm_poker`` (``VnmPokerGame.native_tree_builder``); it returns
exactly what the engine's generic walk of the game's states returns.
"""

from __future__ import annotations

import numpy as np
import pyspiel

from spiel_ext.games.card_deck import Deck
from spiel_ext.games.card_tree import CardRules
from spiel_ext.games.vnm_poker import VnmRules

__all__ = ["VnmCards", "build_vnm_poker_tree"]

# Hands (player 0's, player 1's) that make each showdown result: the
# payoffs depend on the hands only through sign(x - y).
_SHOWDOWN_HANDS = {(0,): ([1, 0], None), (1,): ([0, 1], None),
                   (0, 1): ([0, 0], None)}


class VnmCards(CardRules):
  """How the hands enter a vN&M poker tree (see :class:`CardRules`).

  Args:
    rules: the game's parameters.
  """

  private_field = "hands"
  result_deals = _SHOWDOWN_HANDS

  def __init__(self, rules: VnmRules):
    self.deck = Deck(copies=(1,) * rules.hands, replace=True)
    # No public card: only the last column is used.
    self.strength = np.tile(np.arange(rules.hands)[:, None],
                            (1, rules.hands + 1))

  def _players_in(self, state: pyspiel.State) -> list[int]:
    """Both seats, or after a fold the other one (the player at turn t of
    the betting string is t % 2)."""
    betting = state.betting
    if betting.endswith("f"):
      return [1 - (len(betting) - 1) % 2]
    return [0, 1]


# The engine's native builder of every spiel_ext_vnm_poker.
build_vnm_poker_tree = VnmCards.build_tree
