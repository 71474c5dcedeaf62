"""The compiled tree of ``spiel_ext_bid_leduc``, built from its rules.

The Leduc(k) betting game of Zhou, Li, Zhu, "Posterior Sampling for
Multi-Agent Reinforcement Learning: Solving Extensive Games with Imperfect
Information", ICLR 2020, as defined in :mod:`spiel_ext.games.bid_leduc`:
its betting does not depend on the ranks, so
:func:`spiel_ext.games.card_tree.build_card_game_tree` repeats the betting
template under every deal. The ranks come from a deck of two cards per
rank (every rank listed at every deal, probability 0 for a rank with no
card left); at a showdown equal ranks tie, else pairing the public rank
wins, else the higher rank.

The engine uses :func:`build_bid_leduc_tree` for every
``spiel_ext_bid_leduc`` (``BidLeducGame.native_tree_builder``); it returns
exactly what the engine's generic walk of the game's states returns.
"""

from __future__ import annotations

import numpy as np
import pyspiel

from spiel_ext.games.bid_leduc import RANKS, BidLeducRules
from spiel_ext.games.card_deck import Deck
from spiel_ext.games.card_tree import CardRules

__all__ = ["BidLeducCards", "build_bid_leduc_tree"]

# Ranks (player 0's, player 1's) and a public rank that make each showdown
# result: player 0 wins, player 1 wins, a tie.
_SHOWDOWN_DEALS = {(0,): ([1, 0], 2), (1,): ([0, 1], 2), (0, 1): ([0, 0], 2)}


class BidLeducCards(CardRules):
  """How the ranks enter a Leduc(k) tree (see :class:`CardRules`).

  Args:
    rules: the game's parameters (the deck and the showdown do not depend
      on them).
  """

  private_field, public_field = "ranks", "public"
  result_deals = _SHOWDOWN_DEALS

  def __init__(self, rules: BidLeducRules):
    del rules  # The deck and the showdown are the same for every k.
    self.deck = Deck(copies=(2,) * RANKS, list_empty=True)
    own, public = np.meshgrid(np.arange(RANKS), np.arange(RANKS + 1),
                              indexing="ij")
    # Pairing the public rank beats any unpaired rank; equal ranks are equal
    # strengths (a tie). The last column (no public rank) is never used.
    self.strength = (own == public) * RANKS + own

  def _players_in(self, state: pyspiel.State) -> list[int]:
    """The seats not folded (``folded``: the one who did, if any)."""
    return [0, 1] if state.folded is None else [1 - state.folded]


# The engine's native builder of every spiel_ext_bid_leduc.
build_bid_leduc_tree = BidLeducCards.build_tree
