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

__all__ = ["CardState", "GameRules", "Observer", "PrivateInfo", "RulesGame",
           "RulesObserver", "check_integer", "check_positive",
           "poker_game_type", "zero_sum_info"]


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


class GameRules:
  """Base of the games' rules: plain data made from pyspiel's parameter
  dict, a parameter missing from it taking its default.

  A subclass (a frozen dataclass) sets ``defaults`` ({parameter name:
  default value}) and implements the class method ``_from_values(values)``:
  the checked rules from a dict of every parameter.
  """
  defaults: dict = {}

  @classmethod
  def from_parameters(cls, params: dict | None) -> "GameRules":
    """Validated rules from pyspiel's parameter dict.

    Args:
      params: {parameter name: value} as pyspiel passes it (a missing
        parameter takes its default; None for all defaults).

    Returns:
      The rules.

    Raises:
      ValueError: a parameter outside its accepted values (named).
    """
    values = dict(cls.defaults)
    values.update(params or {})
    return cls._from_values(values)

  @classmethod
  def _from_values(cls, values: dict) -> "GameRules":
    """The checked rules from a dict of every parameter."""
    raise NotImplementedError


class RulesGame(pyspiel.Game):
  """Base of our games: a game of ``game_type`` whose ``rules`` are
  ``rules_class.from_parameters(params)``, with ``rules.game_info()`` as its
  GameInfo; its states are ``state_class(game)`` and its observers
  ``observer_class(rules, iig_obs_type, params)``.

  A subclass sets the four class attributes, and is registered with
  pyspiel under ``game_type`` when it is defined. One not made from such
  rules sets only the last two and has its own constructor, which sets
  ``rules`` (or overrides ``_observed``) and calls
  ``pyspiel.Game.__init__(self, game_type, game_info, params)``.

  Args:
    params: pyspiel's parameter dict (from the game string).

  Raises:
    ValueError: a parameter outside its accepted values (named).
  """
  game_type: pyspiel.GameType
  rules_class: type
  state_class: type
  observer_class: type

  def __init_subclass__(cls, **kwargs):
    super().__init_subclass__(**kwargs)
    if "game_type" in vars(cls):
      pyspiel.register_game(cls.game_type, cls)

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


class CardState(pyspiel.State):
  """Base of the states of the Leduc-like games: chance deals (while
  ``_dealing()``), then the player ``_next_player`` acts, until
  ``_terminal``.

  Args:
    game: the game; the state starts at its first deal.
  """

  def __init__(self, game: pyspiel.Game):
    super().__init__(game)
    self._next_player = 0
    self._terminal = False

  def current_player(self):
    """Who acts next.

    Returns:
      The seat to act, ``pyspiel.PlayerId.CHANCE`` at a deal or
      ``pyspiel.PlayerId.TERMINAL`` once the game is over.
    """
    if self._terminal:
      return pyspiel.PlayerId.TERMINAL
    if self._dealing():
      return pyspiel.PlayerId.CHANCE
    return self._next_player

  def is_terminal(self):
    """Whether the game is over.

    Returns:
      True after a showdown or when all but one player folded.
    """
    return self._terminal

  def _dealing(self) -> bool:
    """Whether a card is to be dealt (a private one, or the public one
    before round 2)."""
    raise NotImplementedError


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
  pieces into the zeroed views) and ``string_from(state, player)``, or the
  private ``_pieces``, ``_fill`` and ``_string`` those call.

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

  def fill_one_hot(self, name: str, index: int | None) -> None:
    """Sets ``dict[name][index]`` where the observation has that piece and
    ``index`` is not None (a public card, once it is dealt).

    Args:
      name: the piece's name.
      index: the one-hot position, or None for none.
    """
    if name in self.dict and index is not None:
      self.dict[name][index] = 1

  def bracketed_string(self, player: int, item: str, labels: Sequence[str],
                       public: str, public_info: str) -> str:
    """The Leduc-like games' string: ``[Player p]``, the player's private
    item ``[<item> x]`` or every player's ``[<item>s x y]`` (as the
    observation type asks), then with public information ``[Public y]``
    and ``public_info``.

    Args:
      player: the observing seat.
      item: the private item's name, such as "Card".
      labels: each seat's private item dealt so far, as text.
      public: the public item as text.
      public_info: the rest of the public information, as text.

    Returns:
      The string.
    """
    pieces = [f"[Player {player}]"]
    if self.private == PrivateInfo.SINGLE_PLAYER and len(labels) > player:
      pieces.append(f"[{item} {labels[player]}]")
    elif self.private == PrivateInfo.ALL_PLAYERS:
      pieces.append(f"[{item}s {' '.join(labels)}]")
    if self.public:
      pieces.append(f"[Public {public}]{public_info}")
    return "".join(pieces)

  def pieces(self) -> Sequence[tuple[str, tuple[int, ...]]]:
    """The tensor's pieces for the requested observation type (called
    once, by the constructor).

    Returns:
      [(name, shape)] in tensor order.
    """
    return self._pieces()

  def set_from(self, state, player: int) -> None:
    """Writes the observation of ``state`` by ``player`` into ``tensor``.

    Args:
      state: a state of the observer's game.
      player: the observing seat.
    """
    self.tensor.fill(0.0)
    self.fill(state, player)

  def fill(self, state, player: int) -> None:
    """Writes the pieces into the zeroed views of ``dict``.

    Args:
      state: a state of the observer's game.
      player: the observing seat.
    """
    self._fill(state, player)

  def string_from(self, state, player: int) -> str:
    """The observation as a string.

    Args:
      state: a state of the observer's game.
      player: the observing seat.

    Returns:
      The information-state string with perfect recall, else the
      observation string.
    """
    return self._string(state, player)

  def _pieces(self) -> Sequence[tuple[str, tuple[int, ...]]]:
    """[(name, shape)] of the tensor's pieces, in tensor order."""
    raise NotImplementedError

  def _fill(self, state, player: int) -> None:
    """Writes the pieces into the zeroed views of ``dict``."""
    raise NotImplementedError

  def _string(self, state, player: int) -> str:
    """The observation as a string."""
    raise NotImplementedError


class RulesObserver(Observer):
  """An observer that reads its game's rules (``_rules``).

  Args:
    rules: the game's rules.
    iig_obs_type, params: as :class:`Observer` takes them (a ValueError
      where ``params`` is not empty).
  """

  def __init__(self, rules, iig_obs_type=None, params=None):
    self._rules = rules
    super().__init__(iig_obs_type, params)
