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

from spiel_ext.engine.admission import SizeLimit
from spiel_ext.games.bid_leduc import RANKS, BidLeducGame
from spiel_ext.games.card_tree import CardRules, Deck, build_card_game_tree

__all__ = ["BidLeducCards", "build_bid_leduc_tree"]

# Ranks (player 0's, player 1's) and a public rank that make each showdown
# result: player 0 wins, player 1 wins, a tie.
_SHOWDOWN_DEALS = {(0,): ([1, 0], 2), (1,): ([0, 1], 2), (0, 1): ([0, 0], 2)}


class BidLeducCards(CardRules):
  """How the ranks enter a Leduc(k) tree (see :class:`CardRules`)."""

  def __init__(self):
    self.deck = Deck(copies=(2,) * RANKS, list_empty=True)
    own, public = np.meshgrid(np.arange(RANKS), np.arange(RANKS + 1),
                              indexing="ij")
    # Pairing the public rank beats any unpaired rank; equal ranks are equal
    # strengths (a tie). The last column (no public rank) is never used.
    self.strength = (own == public) * RANKS + own

  def showdown_players(self, state: pyspiel.State) -> list[int]:
    """The players still in at a terminal template state (see
    :meth:`CardRules.showdown_players`).

    Args:
      state: a terminal BidLeducState of the betting template.

    Returns:
      The seats, in increasing order.
    """
    return [0, 1] if state.folded is None else [1 - state.folded]

  def payoffs(self, state: pyspiel.State,
              winners: tuple[int, ...]) -> list[float]:
    """The returns when ``winners`` win (see :meth:`CardRules.payoffs`).

    Args:
      state: a terminal BidLeducState of the betting template (modified).
      winners: the seats that win, a non-empty subset of
        :meth:`showdown_players`.

    Returns:
      [2] returns, as ``state.returns()`` gives them.
    """
    # The state's own returns, with ranks that make this result.
    ranks, state.public = _SHOWDOWN_DEALS[winners]
    state.ranks = list(ranks)
    return state.returns()

  def infoset_key(self, state: pyspiel.State, player: int, card: int,
                  public: int | None) -> str:
    """``player``'s infostate string with these cards (see
    :meth:`CardRules.infoset_key`).

    Args:
      state: a decision BidLeducState of the betting template (modified).
      player: the acting seat.
      card: ``player``'s private rank.
      public: the public rank, or None before it is dealt.

    Returns:
      The information-state string.
    """
    state.ranks[player] = card
    state.public = public
    return state.information_state_string(player)


def build_bid_leduc_tree(game: BidLeducGame, limit: SizeLimit
                         ) -> tuple[dict[str, np.ndarray], list[str]]:
  """The arrays and infoset keys of a ``spiel_ext_bid_leduc`` game.

  Args:
    game: the game.
    limit: the size limit the engine admitted the game with.

  Returns:
    (arrays, keys), as
    :func:`~spiel_ext.games.card_tree.build_card_game_tree` returns them.

  Raises:
    ValueError: the tree is above ``limit``.
  """
  return build_card_game_tree(game, limit, BidLeducCards())
