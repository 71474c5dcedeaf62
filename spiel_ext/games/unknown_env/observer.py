"""Observations of the unknown-environment game: the base game's own strings
and tensors, plus the drawn reward once it is known.

Strings end in `` reward +1`` / `` reward -1`` after the draw; tensors keep
the base observer's named pieces and append a ``drawn_reward`` piece [2]
(one-hot: -1, +1; zeros before the draw).
"""

from __future__ import annotations

import pyspiel

from spiel_ext.games.common import Observer, PrivateInfo
from spiel_ext.games.unknown_env.params import LOSS, NAME, WIN

__all__ = ["UnknownEnvObserver"]


class UnknownEnvObserver(Observer):
  """The base game's own strings and tensors (the rules are unchanged), plus
  the drawn reward once it is known.

  Tensors come from the base game's observer for the same observation type
  and keep its named pieces; a ``drawn_reward`` piece [2] follows.

  Args:
    base_game: the base pyspiel game.
    iig_obs_type: the requested pyspiel.IIGObservationType; None for the
      default observation (imperfect recall, public and own private info).
    params: observation parameters; none are supported.

  Raises:
    ValueError: ``params`` is not empty.
  """

  def __init__(self, base_game: pyspiel.Game, iig_obs_type=None,
               params=None):
    from open_spiel.python.observation import make_observation  # pylint: disable=g-import-not-at-top
    self._base_game = base_game
    self._base_observer = None
    self._tensor_problem = ""
    try:
      self._base_observer = make_observation(base_game, iig_obs_type)
    except (pyspiel.SpielError, RuntimeError, ValueError) as error:
      self._tensor_problem = " ".join(str(error).split())
    if self._base_observer is None and not self._tensor_problem:
      self._tensor_problem = "it has no observer for this observation type"
    super().__init__(iig_obs_type, params)

  def pieces(self):
    """The tensor's pieces: the base observer's, then ``drawn_reward``.

    Returns:
      [(name, shape)]: the base observer's named pieces (or one "base"
      piece where they do not cover its tensor, none where it has no
      tensor), then ("drawn_reward", (2,)).
    """
    base_tensor = getattr(self._base_observer, "tensor", None)
    if base_tensor is None:
      self._tensor_problem = (self._tensor_problem or
                              "its observer has no tensor")
      return [("drawn_reward", (2,))]
    views = self._base_observer.dict or {}
    pieces = [(name, tuple(view.shape)) for name, view in views.items()]
    if sum(view.size for view in views.values()) != base_tensor.size:
      pieces = [("base", tuple(base_tensor.shape))]
    return pieces + [("drawn_reward", (2,))]

  def fill(self, state, player):
    """Writes the base game's tensor and the drawn reward.

    Args:
      state: an :class:`~spiel_ext.games.unknown_env.game.UnknownEnvState`.
      player: the observing seat.

    Raises:
      ValueError: the base game provides no tensor for this observation
        type.
    """
    if self._tensor_problem:
      raise ValueError(f"{NAME}: the base game {self._base_game} provides no "
                       f"tensor for this observation type "
                       f"({self._tensor_problem}).")
    self._base_observer.set_from(state.base_state, player)
    base_tensor = self._base_observer.tensor
    self.tensor[:base_tensor.size] = base_tensor.ravel()
    if state.reward is not None:
      self.dict["drawn_reward"][LOSS if state.reward < 0 else WIN] = 1

  def string_from(self, state, player):
    """The base game's string, then `` reward +1`` / `` reward -1`` once
    the reward is drawn.

    Args:
      state: an :class:`~spiel_ext.games.unknown_env.game.UnknownEnvState`.
      player: the observing seat.

    Returns:
      The string.

    Raises:
      ValueError: the base game has no observer for this observation type.
    """
    base = state.base_state
    if self.private == PrivateInfo.SINGLE_PLAYER and self.public:
      text = (base.information_state_string(player) if self.perfect_recall
              else base.observation_string(player))
    elif self._base_observer is not None:
      text = self._base_observer.string_from(base, player)
    else:
      raise ValueError(f"{NAME}: the base game {self._base_game} has no "
                       "observer for this observation type.")
    if state.reward is not None:
      text += f" reward {state.reward:+.0f}"
    return text
