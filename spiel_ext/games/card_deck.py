"""What the chance nodes of a card game deal: :class:`Deck`, the chance
model :func:`spiel_ext.games.card_tree.build_card_game_tree` checks a game's
chance outcomes against and deals every history's cards from.
"""

from __future__ import annotations

import dataclasses

__all__ = ["Deck"]


@dataclasses.dataclass(frozen=True)
class Deck:
  """What each chance node deals: an outcome id in 0..len(copies)-1.

  Each deal draws uniformly among the cards left: outcome k has probability
  (copies of k left) / (cards left), its copies counting the ones dealt
  above unless ``replace`` (independent draws).

  Attributes:
    copies: cards of each outcome in a full deck.
    replace: draws are independent (the deck is full at every deal).
    list_empty: an outcome with no card left is still listed, with
      probability 0 (else it is left out, which needs one card per
      outcome: the number of outcomes of a deal is then fixed).
  """
  copies: tuple[int, ...]
  replace: bool = False
  list_empty: bool = False

  def __post_init__(self):
    if not self.replace and not self.list_empty and max(self.copies) > 1:
      raise ValueError("a deck that leaves out the exhausted outcomes must "
                       "have one card per outcome.")

  @property
  def size(self) -> int:
    """The number of outcome ids."""
    return len(self.copies)

  def num_outcomes(self, deal: int) -> int:
    """How many outcomes the deal with ``deal`` deals above it lists.

    Args:
      deal: the number of cards dealt before this deal, >= 0.

    Returns:
      ``size``, or with one card per outcome drawn without replacement
      ``size - deal``.
    """
    if self.replace or self.list_empty:
      return self.size
    return self.size - deal

  def outcomes(self, dealt: tuple[int, ...]) -> list[tuple[int, float]]:
    """The (outcome, probability) list of the deal after ``dealt``, in
    increasing outcome (what the fill loop computes for it).

    Args:
      dealt: the outcome ids dealt before this deal, in deal order.

    Returns:
      [(outcome, probability)], probabilities summing to 1 (outcomes with
      no card left listed with probability 0 only if ``list_empty``).
    """
    left = list(self.copies)
    if not self.replace:
      for card in dealt:
        left[card] -= 1
    total = sum(left)
    return [(k, count / total) for k, count in enumerate(left)
            if count or self.list_empty]
