"""A game as the passes see it: a compiled tree's structure and a model.

A :class:`GameView` pairs a :class:`~spiel_ext.engine.layout.GameTree`
(histories, infosets and the schedules derived from them) with a
:class:`~spiel_ext.engine.model.GameModel` (chance probabilities and
utilities). ``tree.view()`` is the compiled game itself;
``tree.with_model(chance_prob, utility)`` the same tree with a learner's
model of the game (a posterior draw or mean, a sampled chance outcome),
checked once when the view is made.

Every pass is a function of a view and a policy, grouped by family:
:mod:`~spiel_ext.engine.regret_passes` (reach, expected and counterfactual
values), :mod:`~spiel_ext.engine.response_passes` (best responses) and
:mod:`~spiel_ext.engine.belief_passes` (beliefs). The view has each of them
as a method too::

    view = tree.with_model(chance_prob, utility)
    value, best, _ = view.best_response(policy, player)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from spiel_ext.engine import belief_passes, regret_passes, response_passes
from spiel_ext.engine.model import GameModel
from spiel_ext.engine.regret_passes import PlayerPass

if TYPE_CHECKING:
  from spiel_ext.engine.layout import GameTree

__all__ = ["GameView"]


class GameView:
  """A compiled tree with the chance probabilities and utilities of a game.

  Immutable. Make one with ``tree.view()`` or ``tree.with_model(...)``.

  Attributes:
    tree: the compiled tree (structure and schedules).
    model: the GameModel.
    chance_prob: ``model.chance_prob``, read-only [histories].
    utility: ``model.utility``, read-only [histories, players].
  """

  __slots__ = ("tree", "model", "chance_prob", "utility", "__weakref__")
  tree: GameTree
  model: GameModel
  chance_prob: np.ndarray
  utility: np.ndarray

  def __init__(self, tree: GameTree, model: GameModel):
    if not isinstance(model, GameModel):
      raise TypeError(f"model must be a GameModel; got "
                      f"{type(model).__name__}.")
    _set_tree(self, tree)
    _set_model(self, model)
    _set_chance_prob(self, model.chance_prob)
    _set_utility(self, model.utility)

  def __setattr__(self, name: str, value: object) -> None:
    raise AttributeError(f"GameView is immutable: cannot set {name!r}.")

  def __delattr__(self, name: str) -> None:
    raise AttributeError(f"GameView is immutable: cannot delete {name!r}.")

  def __reduce__(self):
    return (GameView, (self.tree, self.model))

  def __repr__(self) -> str:
    own = self.model is self.tree.model
    return (f"GameView({self.tree.game_string!r}, "
            f"{'compiled game' if own else 'model'})")

  def with_model(self, chance_prob: np.ndarray | None = None,
                 utility: np.ndarray | None = None) -> GameView:
    """This view's tree with another model (see ``GameTree.with_model``);
    None keeps the compiled game's array."""
    return self.tree.with_model(chance_prob, utility)

  # ------------------------------------------------------- regret passes
  def edge_weights(self, policy: np.ndarray) -> np.ndarray:
    """See :func:`regret_passes.edge_weights`."""
    return regret_passes.edge_weights(self, policy)

  def reach(self, policy: np.ndarray) -> np.ndarray:
    """See :func:`regret_passes.reach`."""
    return regret_passes.reach(self, policy)

  def values(self, policy: np.ndarray) -> np.ndarray:
    """See :func:`regret_passes.values`."""
    return regret_passes.values(self, policy)

  def root_values(self, policy: np.ndarray | None = None,
                  reach: np.ndarray | None = None) -> np.ndarray:
    """See :func:`regret_passes.root_values`."""
    return regret_passes.root_values(self, policy, reach)

  def counterfactual_values(self, policy: np.ndarray,
                            reach: np.ndarray | None = None,
                            values: np.ndarray | None = None) -> np.ndarray:
    """See :func:`regret_passes.counterfactual_values`."""
    return regret_passes.counterfactual_values(self, policy, reach, values)

  def player_counterfactual_values(self, policy: np.ndarray,
                                   player: int) -> PlayerPass:
    """See :func:`regret_passes.player_counterfactual_values`."""
    return regret_passes.player_counterfactual_values(self, policy, player)

  def infoset_reach(self,
                    reach: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """See :func:`regret_passes.infoset_reach`."""
    return regret_passes.infoset_reach(self, reach)

  # ----------------------------------------------------- best responses
  def best_response(self, policy: np.ndarray, player: int, *,
                    min_action_prob: float = 0.0,
                    reach: np.ndarray | None = None,
                    terminal_others: np.ndarray | None = None
                    ) -> tuple[float, np.ndarray, np.ndarray]:
    """See :func:`response_passes.best_response`."""
    return response_passes.best_response(
        self, policy, player, min_action_prob=min_action_prob, reach=reach,
        terminal_others=terminal_others)

  def weighted_best_response(
      self, policy: np.ndarray, player: int, *,
      infoset_weight: np.ndarray | None = None,
      min_action_prob: float = 0.0) -> tuple[float, np.ndarray, np.ndarray]:
    """See :func:`response_passes.weighted_best_response`."""
    return response_passes.weighted_best_response(
        self, policy, player, infoset_weight=infoset_weight,
        min_action_prob=min_action_prob)

  def best_response_actions(self, policy: np.ndarray, player: int, *,
                            min_action_prob: float = 0.0,
                            tie_tolerance: float = 1e-9) -> np.ndarray:
    """See :func:`response_passes.best_response_actions`."""
    return response_passes.best_response_actions(
        self, policy, player, min_action_prob=min_action_prob,
        tie_tolerance=tie_tolerance)

  # ------------------------------------------------------------ beliefs
  def beliefs(self, policy: np.ndarray,
              player: int) -> tuple[np.ndarray, np.ndarray]:
    """See :func:`belief_passes.beliefs`."""
    return belief_passes.beliefs(self, policy, player)

  def belief_action_values(self, policy: np.ndarray, player: int,
                           belief: np.ndarray,
                           values: np.ndarray | None = None) -> np.ndarray:
    """See :func:`belief_passes.belief_action_values`."""
    return belief_passes.belief_action_values(self, policy, player, belief,
                                              values)

  def sequential_best_values(self, policy: np.ndarray, player: int,
                             belief: np.ndarray) -> np.ndarray:
    """See :func:`belief_passes.sequential_best_values`."""
    return belief_passes.sequential_best_values(self, policy, player, belief)


# The slots' own setters: a view's attributes are set once, in __init__
# (its __setattr__ refuses), and read as plain slots by every pass.
_set_tree = GameView.tree.__set__
_set_model = GameView.model.__set__
_set_chance_prob = GameView.chance_prob.__set__
_set_utility = GameView.utility.__set__
