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

from spiel_ext.engine.admission import SizeLimit
from spiel_ext.games.card_tree import CardRules, Deck, build_card_game_tree
from spiel_ext.games.leduc import LeducGame, LeducRules

__all__ = ["LeducCards", "build_leduc_tree"]


class LeducCards(CardRules):
  """How the cards enter a Leduc tree (see :class:`CardRules`).

  Args:
    rules: the game's parameters.
  """

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

  def showdown_players(self, state: pyspiel.State) -> list[int]:
    """The players still in at a terminal template state (see
    :meth:`CardRules.showdown_players`).

    Args:
      state: a terminal LeducState of the betting template.

    Returns:
      The seats, in increasing order.
    """
    return [p for p, folded in enumerate(state.folded) if not folded]

  def payoffs(self, state: pyspiel.State,
              winners: tuple[int, ...]) -> list[float]:
    """The returns when ``winners`` win (see :meth:`CardRules.payoffs`).

    Args:
      state: a terminal LeducState of the betting template.
      winners: the seats that win, a non-empty subset of
        :meth:`showdown_players`.

    Returns:
      [players] returns: each winner's share of the pot, minus what each
      player put in.
    """
    # LeducState._finish with the winners given.
    share = float(sum(state.contribution)) / len(winners)
    return [(share if p in winners else 0.0) - contribution
            for p, contribution in enumerate(state.contribution)]

  def infoset_key(self, state: pyspiel.State, player: int, card: int,
                  public: int | None) -> str:
    """``player``'s infostate string with these cards (see
    :meth:`CardRules.infoset_key`).

    Args:
      state: a decision LeducState of the betting template (modified).
      player: the acting seat.
      card: ``player``'s private card.
      public: the public card, or None before it is dealt.

    Returns:
      The information-state string.
    """
    state.private_cards[player] = card
    state.public_card = public
    return state.information_state_string(player)


def build_leduc_tree(game: LeducGame, limit: SizeLimit
                     ) -> tuple[dict[str, np.ndarray], list[str]]:
  """The arrays and infoset keys of a ``spiel_ext_leduc`` game.

  Args:
    game: the game.
    limit: the size limit the engine admitted the game with.

  Returns:
    (arrays, keys), as
    :func:`~spiel_ext.games.card_tree.build_card_game_tree` returns them.

  Raises:
    ValueError: the tree is above ``limit``.
  """
  return build_card_game_tree(game, limit, LeducCards(game.rules))
