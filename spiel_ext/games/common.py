"""What the spiel_ext games share: their GameType, parameter checks and the
observer base class (strings, and tensors with named numpy views).

The parameter checks (:func:`check_integer`, :func:`check_positive`) live in
:mod:`spiel_ext.checks` and are re-exported here for the games.
"""

from __future__ import annotations

import enum
import math
from typing import Sequence

import numpy as np
import pyspiel

from spiel_ext.checks import check_integer, check_positive

__all__ = ["Observer", "PrivateInfo", "check_integer", "check_positive",
           "poker_game_type"]


def poker_game_type(short_name: str, long_name: str, parameters: dict,
                    min_players: int = 2, max_players: int = 2,
                    information_state_tensor: bool = True,
                    observation_tensor: bool = True) -> pyspiel.GameType:
  """Sequential, explicit-chance, imperfect-information, zero-sum, terminal
  rewards, with information-state and observation strings (and tensors
  unless told otherwise).

  Args:
    short_name: the name games are loaded by, such as "spiel_ext_leduc".
    long_name: a readable name.
    parameters: {parameter name: default value}, the game's parameters.
    min_players: the fewest players the game takes.
    max_players: the most players the game takes.
    information_state_tensor: whether states provide information-state
      tensors.
    observation_tensor: whether states provide observation tensors.

  Returns:
    The pyspiel.GameType to register the game with.
  """
  return pyspiel.GameType(
      short_name=short_name,
      long_name=long_name,
      dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
      chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
      information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
      utility=pyspiel.GameType.Utility.ZERO_SUM,
      reward_model=pyspiel.GameType.RewardModel.TERMINAL,
      max_num_players=max_players,
      min_num_players=min_players,
      provides_information_state_string=True,
      provides_information_state_tensor=information_state_tensor,
      provides_observation_string=True,
      provides_observation_tensor=observation_tensor,
      parameter_specification=parameters)


class PrivateInfo(enum.Enum):
  """Whose private information an observation includes."""
  NONE = "none"
  SINGLE_PLAYER = "single"
  ALL_PLAYERS = "all"


class Observer:
  """Base of our observers (OpenSpiel's PyObserver interface).

  ``tensor`` is one flat float32 array; ``dict`` maps each piece's name to a
  reshaped numpy view into it. Subclasses set what they need, call this
  constructor, and implement ``pieces()`` (the (name, shape) list the
  requested observation includes), ``fill(state, player)`` (writes the
  pieces into the zeroed views) and ``string_from(state, player)``.

  Args:
    iig_obs_type: the requested pyspiel.IIGObservationType; None for the
      default observation (imperfect recall, public and own private info).
    params: observation parameters; none are supported.

  Raises:
    ValueError: ``params`` is not empty.
  """

  def __init__(self, iig_obs_type, params):
    if params:
      raise ValueError(f"Observation parameters are not supported; got "
                       f"{params}.")
    iig_obs_type = iig_obs_type or pyspiel.IIGObservationType(
        perfect_recall=False)
    self.perfect_recall = iig_obs_type.perfect_recall
    self.public = iig_obs_type.public_info
    self.private = {
        pyspiel.PrivateInfoType.NONE: PrivateInfo.NONE,
        pyspiel.PrivateInfoType.SINGLE_PLAYER: PrivateInfo.SINGLE_PLAYER,
        pyspiel.PrivateInfoType.ALL_PLAYERS: PrivateInfo.ALL_PLAYERS,
    }[iig_obs_type.private_info]
    pieces = self.pieces()
    sizes = [math.prod(shape) for _, shape in pieces]
    self.tensor = np.zeros(sum(sizes), np.float32)
    self.dict = {}
    start = 0
    for (name, shape), size in zip(pieces, sizes):
      self.dict[name] = self.tensor[start:start + size].reshape(shape)
      start += size

  def pieces(self) -> Sequence[tuple[str, tuple[int, ...]]]:
    """The tensor's pieces for the requested observation type (subclasses
    implement it; called once, by the constructor).

    Returns:
      [(name, shape)] in tensor order.
    """
    raise NotImplementedError

  def private_pieces(self, players: int, name: str, size: int
                     ) -> list[tuple[str, tuple[int, ...]]]:
    """The pieces every card game here starts with: the player one-hot
    [players], then the acting player's private item ``name`` [size] or
    every player's (``name`` + "s") [players, size], as the observation
    type asks.

    Args:
      players: the number of players.
      name: the private item's piece name, such as "private_card".
      size: the number of values the item can take (one-hot length).

    Returns:
      [(name, shape)]: "player", then the private piece if any.
    """
    pieces = [("player", (players,))]
    if self.private == PrivateInfo.SINGLE_PLAYER:
      pieces.append((name, (size,)))
    elif self.private == PrivateInfo.ALL_PLAYERS:
      pieces.append((name + "s", (players, size)))
    return pieces

  def fill_private(self, player: int, name: str, items: Sequence[int]) -> None:
    """Writes the pieces of :meth:`private_pieces` (``items``: each
    player's private item dealt so far).

    Args:
      player: the observing seat.
      name: the private item's piece name, as given to
        :meth:`private_pieces`.
      items: each seat's private item (an index below ``size``), in seat
        order; may be shorter than the number of players mid-deal.
    """
    views = self.dict
    views["player"][player] = 1
    if name in views and len(items) > player:
      views[name][items[player]] = 1
    if name + "s" in views:
      for holder, item in enumerate(items):
        views[name + "s"][holder, item] = 1

  def set_from(self, state, player: int) -> None:
    """Writes the observation of ``state`` by ``player`` into ``tensor``.

    Args:
      state: a state of the observer's game.
      player: the observing seat.
    """
    self.tensor.fill(0.0)
    self.fill(state, player)

  def fill(self, state, player: int) -> None:
    """Writes the pieces into the zeroed views of ``dict`` (subclasses
    implement it).

    Args:
      state: a state of the observer's game.
      player: the observing seat.
    """
    raise NotImplementedError

  def string_from(self, state, player: int) -> str:
    """The observation as a string (subclasses implement it).

    Args:
      state: a state of the observer's game.
      player: the observing seat.

    Returns:
      The information-state string with perfect recall, else the
      observation string.
    """
    raise NotImplementedError
