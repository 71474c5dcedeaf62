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

from spiel_ext.engine.admission import SizeLimit
from spiel_ext.games.card_tree import CardRules, Deck, build_card_game_tree
from spiel_ext.games.vnm_poker import VnmPokerGame, VnmRules

__all__ = ["VnmCards", "build_vnm_poker_tree"]

# Hands (player 0's, player 1's) that make each showdown result: the
# payoffs depend on the hands only through sign(x - y).
_SHOWDOWN_HANDS = {(0,): [1, 0], (1,): [0, 1], (0, 1): [0, 0]}


class VnmCards(CardRules):
  """How the hands enter a vN&M poker tree (see :class:`CardRules`).

  Args:
    rules: the game's parameters.
  """

  def __init__(self, rules: VnmRules):
    self.deck = Deck(copies=(1,) * rules.hands, replace=True)
    # No public card: only the last column is used.
    self.strength = np.tile(np.arange(rules.hands)[:, None],
                            (1, rules.hands + 1))

  def showdown_players(self, state: pyspiel.State) -> list[int]:
    """The players still in at a terminal template state (see
    :meth:`CardRules.showdown_players`).

    Args:
      state: a terminal VnmPokerState of the betting template.

    Returns:
      The seats, in increasing order.
    """
    betting = state.betting
    if betting.endswith("f"):
      # The player at turn t of the betting string is t % 2.
      return [1 - (len(betting) - 1) % 2]
    return [0, 1]

  def payoffs(self, state: pyspiel.State,
              winners: tuple[int, ...]) -> list[float]:
    """The returns when ``winners`` win (see :meth:`CardRules.payoffs`).

    Args:
      state: a terminal VnmPokerState of the betting template (modified).
      winners: the seats that win, a non-empty subset of
        :meth:`showdown_players`.

    Returns:
      [2] returns, as ``state.returns()`` gives them.
    """
    # The state's own returns, with hands that make this result.
    state.hands = list(_SHOWDOWN_HANDS[winners])
    return state.returns()

  def infoset_key(self, state: pyspiel.State, player: int, card: int,
                  public: int | None) -> str:
    """``player``'s infostate string with these cards (see
    :meth:`CardRules.infoset_key`).

    Args:
      state: a decision VnmPokerState of the betting template (modified).
      player: the acting seat.
      card: ``player``'s hand, 0..hands - 1.
      public: unused (the game has no public card).

    Returns:
      The information-state string.
    """
    state.hands[player] = card
    return state.information_state_string(player)


def build_vnm_poker_tree(game: VnmPokerGame, limit: SizeLimit
                         ) -> tuple[dict[str, np.ndarray], list[str]]:
  """The arrays and infoset keys of a ``spiel_ext_vnm_poker`` game.

  Args:
    game: the game.
    limit: the size limit the engine admitted the game with.

  Returns:
    (arrays, keys), as
    :func:`~spiel_ext.games.card_tree.build_card_game_tree` returns them.

  Raises:
    ValueError: the tree is above ``limit``.
  """
  return build_card_game_tree(game, limit, VnmCards(game.rules))
