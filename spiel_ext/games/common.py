"""What the spiel_ext games share: their GameType and GameInfo, parameter
checks, the game base class (states and observers of the classes a game
names) and the observer base class (strings, and tensors with named numpy
views).

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

__all__ = ["Observer", "PrivateInfo", "RulesGame", "check_integer",
           "check_positive", "poker_game_type", "zero_sum_info"]


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


def zero_sum_info(num_distinct_actions: int, max_chance_outcomes: int,
                  num_players: int, min_utility: float, max_utility: float,
                  max_game_length: int) -> pyspiel.GameInfo:
  """The GameInfo of a zero-sum game (utility sum 0).

  Args:
    num_distinct_actions: the number of action ids of the players.
    max_chance_outcomes: the most outcomes a chance node has.
    num_players: the number of players.
    min_utility: the lowest return of a player.
    max_utility: the highest return of a player.
    max_game_length: the most player actions in one game.

  Returns:
    The pyspiel.GameInfo to give pyspiel.Game's constructor.
  """
  return pyspiel.GameInfo(
      num_distinct_actions=num_distinct_actions,
      max_chance_outcomes=max_chance_outcomes, num_players=num_players,
      min_utility=min_utility, max_utility=max_utility, utility_sum=0.0,
      max_game_length=max_game_length)


class RulesGame(pyspiel.Game):
  """Base of our games: a game of ``game_type`` whose ``rules`` are
  ``rules_class.from_parameters(params)``, with ``rules.game_info()`` as its
  GameInfo; its states are ``state_class(game)`` and its observers
  ``observer_class(rules, iig_obs_type, params)``.

  A subclass sets the four class attributes; one not made from such rules
  has its own constructor instead, which sets ``rules`` (or overrides
  ``_observed``) and calls ``pyspiel.Game.__init__(self, game_type,
  game_info, params)``.

  Args:
    params: pyspiel's parameter dict (from the game string).

  Raises:
    ValueError: a parameter outside its accepted values (named).
  """
  game_type: pyspiel.GameType
  rules_class: type
  state_class: type
  observer_class: type

  def __init__(self, params=None):
    self.rules = self.rules_class.from_parameters(params)
    super().__init__(self.game_type, self.rules.game_info(), params or {})

  def new_initial_state(self):
    """The start of a game, before the first deal or action.

    Returns:
      A new state of the game's ``state_class``.
    """
    return self.state_class(self)

  def make_py_observer(self, iig_obs_type=None, params=None):
    """An observer of this game's states (OpenSpiel's observation API).

    Args:
      iig_obs_type: the requested pyspiel.IIGObservationType; None for the
        default observation.
      params: observation parameters; none are supported.

    Returns:
      A new observer of the game's ``observer_class``.

    Raises:
      ValueError: ``params`` is not empty.
    """
    return self.observer_class(self._observed(), iig_obs_type, params)

  def _observed(self):
    """What the observers are made from: the game's ``rules``."""
    return self.rules


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
