"""The unknown-environment game's name, parameters and game strings.

What the pyspiel registration of ``spiel_ext_unknown_env`` needs without the
engine: its GameType, its parameters' defaults, the chance models, the
outcomes of the final reward chance node, and the game string of an
instance (:func:`true_game_string`).
"""

from __future__ import annotations

import pyspiel

from spiel_ext.games.common import poker_game_type

__all__ = ["CHANCE_MODELS", "LOSS", "WIN", "check_chance_model", "game_type",
           "true_game_string"]

LOSS, WIN = 0, 1  # Outcomes of the reward chance node (player 0's -1 / +1).
NAME = "spiel_ext_unknown_env"
DEFAULTS = {"game": {"name": "kuhn_poker"}, "env_seed": 0, "chance": "game"}
# The largest env_seed: pyspiel reads a game string's integers as 32-bit.
MAX_ENV_SEED = 2**31 - 1
# The hidden chance distribution: the base game's own, or Dirichlet draws.
CHANCE_MODELS = ("game", "dirichlet")


def game_type(information_state_tensor: bool = True,
              observation_tensor: bool = True) -> pyspiel.GameType:
  """The GameType of ``spiel_ext_unknown_env`` (tensors as the base game's
  when given).

  Args:
    information_state_tensor: whether states provide information-state
      tensors.
    observation_tensor: whether states provide observation tensors.

  Returns:
    The pyspiel.GameType.
  """
  return poker_game_type(NAME, "Unknown-environment game (spiel_ext)",
                         DEFAULTS,
                         information_state_tensor=information_state_tensor,
                         observation_tensor=observation_tensor)


def check_chance_model(chance: object) -> str:
  """``chance`` if it is one of CHANCE_MODELS; ValueError naming it else.

  Args:
    chance: the chance model to check.

  Returns:
    ``chance``, "game" or "dirichlet".

  Raises:
    ValueError: ``chance`` is not one of CHANCE_MODELS.
  """
  if not isinstance(chance, str) or chance not in CHANCE_MODELS:
    raise ValueError(f"{NAME}: chance must be one of {list(CHANCE_MODELS)}; "
                     f"got {chance!r}.")
  return chance


def true_game_string(game: str, env_seed: int, chance: str = "game") -> str:
  """``spiel_ext_unknown_env(game=...,env_seed=...)`` for a base game string
  (pyspiel needs the nested game in parentheses: ``kuhn_poker()``), with
  ``,chance=dirichlet`` appended unless ``chance`` is the default "game".

  Args:
    game: the base game's string, such as "kuhn_poker" or "leduc_poker()".
    env_seed: the instance, an integer.
    chance: "game" or "dirichlet" (see CHANCE_MODELS).

  Returns:
    The game string.

  Raises:
    ValueError: ``chance`` is not one of CHANCE_MODELS.
  """
  check_chance_model(chance)
  game = str(game)
  if "(" not in game:
    game += "()"
  suffix = "" if chance == "game" else f",chance={chance}"
  return (f"spiel_ext_unknown_env(game={game},env_seed={int(env_seed)}"
          f"{suffix})")
