"""Forced paths: a policy with chosen infosets forced to one action.

The BUFP paper (Ju, Fang, Luo, DDCLS 2024, arXiv:2409.02706, section 5.2,
Table 2) evaluates play after a dominated deviation: player 1 is forced to
Call at its first decision and the rest of each policy is kept. Forcing
puts probability 1 on the named action at the selected infosets; the exact
head-to-head value then follows from :func:`spiel_ext.eval.head_to_head`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Iterable

import numpy as np

from spiel_ext.checks import is_integer
from spiel_ext.engine import GameTree, compile_game
from spiel_ext.policy import PolicyLike, as_strategy

if TYPE_CHECKING:
  from spiel_ext.exploitability import GameLike


def action_id(tree: GameTree, row: int, label: str | int) -> int:
  """The legal action of infoset ``row`` named ``label`` (or that id).

  Args:
    tree: the compiled game.
    row: the infoset's row in ``tree``.
    label: the action's label at that infoset (``action_to_string`` of the
      acting player, such as "Call"), or an action id.

  Returns:
    The action id.

  Raises:
    ValueError: ``label`` names no legal action of the infoset.
  """
  legal = np.flatnonzero(tree.infoset_legal[row])
  if is_integer(label):
    if label in legal:
      return int(label)
  else:
    state = tree.state(int(tree.infoset_history[row]))
    player = int(tree.infoset_player[row])
    for action in legal:
      if state.action_to_string(player, int(action)) == label:
        return int(action)
  raise ValueError(f"action {label!r} is not legal at infoset "
                   f"{tree.infoset_keys[row]!r} (legal: {legal.tolist()}).")


def force_actions(game: GameLike, policy: PolicyLike,
                  rows: Iterable[int] | Callable[[GameTree], Iterable[int]],
                  action: str | int) -> np.ndarray:
  """``policy`` as a strategy array with every infoset in ``rows`` playing
  ``action`` (a label such as "Call", or an action id) with probability 1.

  Args:
    game: a game, game string or compiled tree.
    policy: any policy :func:`spiel_ext.policy.as_strategy` accepts (it
      must be a strategy).
    rows: infoset rows, or a callable tree -> rows such as
      ``FirstDecisions(player=0)``.
    action: the forced action: its label (such as "Call") or its id.

  Returns:
    A new [num_infosets, num_distinct_actions] strategy array.

  Raises:
    ValueError: ``policy`` is not a strategy of the game, ``rows`` selects
      no infoset, or ``action`` is not legal at one of them.
  """
  tree = compile_game(game)
  strategy = np.array(as_strategy(tree, policy), dtype=np.float64)
  selected = list(rows(tree) if callable(rows) else rows)
  if not selected:
    raise ValueError("rows selects no infoset to force.")
  for row in selected:
    forced = action_id(tree, int(row), action)
    strategy[row] = 0.0
    strategy[row, forced] = 1.0
  return strategy
