"""The compiled tree of ``spiel_ext_leduc``, built from its rules.

Leduc hold'em (Southey, Bowling, Larson, Piccione, Burch, Billings, Rayner,
"Bayes' Bluff: Opponent Modelling in Poker", UAI 2005) as parameterized in
:mod:`spiel_ext.games.leduc`: its betting does not depend on the cards, so
:func:`spiel_ext.games.card_tree.build_card_game_tree` repeats the betting
template under every deal. The deck is ``ranks * suits`` distinct cards
dealt without replacement; a showdown is won by a pair with the public
card, then the higher card rank, then the lower (``LeducState``'s
``_hand_strength``), the pot split evenly among the winners.

The engine uses :func:`build_leduc_tree` for every ``spiel_ext_leduc``
(``LeducGame.native_tree_builder``); it returns exactly what the engine's
generic walk of the game's states returns.
"""

from __future__ import annotations

import numpy as np
import pyspiel

from spiel_ext.games.card_deck import Deck
from spiel_ext.games.card_tree import CardRules
from spiel_ext.games.leduc import LeducRules

__all__ = ["LeducCards", "build_leduc_tree"]


class LeducCards(CardRules):
  """How the cards enter a Leduc tree (see :class:`CardRules`).

  Args:
    rules: the game's parameters.
  """

  private_field, public_field = "private_cards", "public_card"

  def __init__(self, rules: LeducRules):
    self.deck = Deck(copies=(1,) * rules.deck_size)
    ranks = np.arange(rules.deck_size) // rules.suits
    own, public = np.meshgrid(ranks, ranks, indexing="ij")
    high, low = np.maximum(own, public), np.minimum(own, public)
    # (pair, high rank, low rank) compared as one number.
    by_rank = ((own == public) * rules.ranks + high) * rules.ranks + low
    # The last column (no public card) is never used: every showdown comes
    # after the public card.
    self.strength = np.zeros((rules.deck_size, rules.deck_size + 1),
                             dtype=np.int64)
    self.strength[:, :-1] = by_rank

  def _players_in(self, state: pyspiel.State) -> list[int]:
    """The seats not folded (``folded``: [players] flags)."""
    return [p for p, folded in enumerate(state.folded) if not folded]

  def payoffs(self, state: pyspiel.State,
              winners: tuple[int, ...]) -> list[float]:
    """Each winner's share of the pot, minus what each player put in (as
    ``LeducState._finish`` pays them, with the winners given).

    Args:
      state: a terminal LeducState of the betting template.
      winners: the seats that win (see :meth:`CardRules.payoffs`).

    Returns:
      [players] returns.
    """
    share = float(sum(state.contribution)) / len(winners)
    return [(share if p in winners else 0.0) - contribution
            for p, contribution in enumerate(state.contribution)]


# The engine's native builder of every spiel_ext_leduc.
build_leduc_tree = LeducCards.build_tree
