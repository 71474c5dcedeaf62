"""Strategy readouts: one action's probability at one infoset.

Kuhn poker's equilibria form a one-parameter family (Kuhn 1950; OpenSpiel's
``pyspiel.kuhn_poker.get_optimal_policy(alpha)``): player 1 bets the Jack
with probability alpha in [0, 1/3]. The Pref-CFR paper (Ju, Tellier, Sun,
Fang, Luo, ICML 2025, arXiv:2411.01217, Figs. 3-4) tracks which alpha CFR
and Pref-CFR converge to; :func:`kuhn_alpha` reads it off any policy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spiel_ext.engine import compile_game
from spiel_ext.eval.forced import action_id
from spiel_ext.policy import PolicyLike, as_strategy

if TYPE_CHECKING:
  from spiel_ext.exploitability import GameLike

KUHN_JACK_FIRST = "0"  # Player 1 (seat 0) holding the Jack, first to act.


def action_probability(game: GameLike, policy: PolicyLike, infoset_key: str,
                       action: str | int) -> float:
  """The probability ``policy`` gives ``action`` (label or id) at the
  infoset whose key is ``infoset_key``.

  Args:
    game: a pyspiel game, game string or compiled GameTree.
    policy: any policy :func:`spiel_ext.policy.as_strategy` accepts (it
      must be a strategy).
    infoset_key: the infoset's information state string.
    action: the action's label at that infoset (such as "Bet") or its id.

  Returns:
    The probability, a float in [0, 1].

  Raises:
    ValueError: ``infoset_key`` is not an infoset of the game, ``action``
      is not legal there, or ``policy`` is not a strategy of the game.
  """
  tree = compile_game(game)
  if infoset_key not in tree.key_to_infoset:
    raise ValueError(f"infoset_key {infoset_key!r} is not an infoset of "
                     f"{tree.game_string}.")
  row = tree.key_to_infoset[infoset_key]
  return float(as_strategy(tree, policy)[row, action_id(tree, row, action)])


def kuhn_alpha(game: GameLike, policy: PolicyLike) -> float:
  """alpha of a Kuhn poker policy: player 1's Bet probability with the Jack
  at its first decision.

  Args:
    game: two-player Kuhn poker (a pyspiel game, game string or compiled
      GameTree).
    policy: any policy :func:`spiel_ext.policy.as_strategy` accepts (it
      must be a strategy).

  Returns:
    alpha, a float in [0, 1] (in [0, 1/3] at an equilibrium).

  Raises:
    ValueError: the game has no infoset "0" with a "Bet" action, or
      ``policy`` is not a strategy of the game.
  """
  return action_probability(game, policy, KUHN_JACK_FIRST, "Bet")
