"""What the spiel_ext games share: their GameType and a string observer."""

from __future__ import annotations

import numpy as np
import pyspiel


def poker_game_type(short_name: str, long_name: str, parameters: dict,
                    min_players: int = 2,
                    max_players: int = 2) -> pyspiel.GameType:
  """Sequential, explicit-chance, imperfect-information, zero-sum, terminal
  rewards, string observations only (no tensors)."""
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
      provides_information_state_tensor=False,
      provides_observation_string=True,
      provides_observation_tensor=False,
      parameter_specification=parameters)


class StringObserver:
  """Base of our observers: strings only, so the tensor is empty.

  Subclasses implement ``string_from(state, player)``; ``perfect_recall``,
  ``private`` (the observing player's private information) and ``public``
  say what the requested observation type includes.
  """

  def __init__(self, iig_obs_type, params):
    if params:
      raise ValueError(f"Observation parameters not supported; got {params}.")
    iig_obs_type = iig_obs_type or pyspiel.IIGObservationType(
        perfect_recall=False)
    self.perfect_recall = iig_obs_type.perfect_recall
    self.private = (iig_obs_type.private_info ==
                    pyspiel.PrivateInfoType.SINGLE_PLAYER)
    self.public = iig_obs_type.public_info
    self.tensor = np.zeros(0, np.float32)
    self.dict = {}

  def set_from(self, state, player):
    del state, player

  def string_from(self, state, player):
    raise NotImplementedError
