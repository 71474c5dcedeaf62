"""The hidden parameters of an unknown environment, and its base game.

Draws c* (the chance distribution) and p (player 0's probability of losing
at each terminal) on the base game's compiled tree from ``env_seed``, as in
Qiu, Wang, Ma, Wen, Zhang, "Combining Counterfactual Regret Minimization
with Information Gain to Solve Extensive Games with Unknown Environments",
2023 (see :mod:`spiel_ext.games.unknown_env` for the two chance models).
This module needs the engine; the game reaches it through
:mod:`.deferred` when an instance is loaded.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pyspiel

from spiel_ext.engine import (CHANCE, TERMINAL, GameTree, compile_game,
                              load_game)
from spiel_ext.engine.admission import GameTooLarge
from spiel_ext.games.unknown_env.params import NAME, check_chance_model

__all__ = ["HiddenParameters", "base_tree_for"]


@dataclasses.dataclass(frozen=True)
class HiddenParameters:
  """c* and p on the base tree: chance_prob[h] is the hidden probability of
  the edge into h from a chance node (1 elsewhere); loss_prob[z] = p(z) at
  terminals (0 elsewhere), player 0's probability of receiving -1 (its
  expected reward there is r(z) = 1 - 2 p(z)).

  Attributes:
    chance_prob: [num_histories] c*, the hidden chance probabilities.
    loss_prob: [num_histories] p, player 0's loss probabilities.
  """
  chance_prob: np.ndarray
  loss_prob: np.ndarray

  @classmethod
  def sample(cls, tree: GameTree, env_seed: int,
             chance: str = "game") -> "HiddenParameters":
    """Draws the hidden parameters from ``env_seed``.

    Both models make the same draws, visiting the chance nodes and
    terminals in history order: a Dirichlet(1, ..., 1) at each chance node
    (over its outcomes in its children's order) and p at each terminal. So
    an ``env_seed`` has the same p under both; "game" then replaces the
    Dirichlet draws by the base game's own chance probabilities.

    Args:
      tree: the compiled base game.
      env_seed: the instance (an integer >= 0).
      chance: "game" or "dirichlet" (see CHANCE_MODELS).

    Returns:
      The hidden parameters of the instance.

    Raises:
      ValueError: ``chance`` is not one of CHANCE_MODELS.
    """
    check_chance_model(chance)
    rng = np.random.default_rng(env_seed)
    start, members = tree.children_lists()
    chance_prob = np.ones(tree.num_histories)
    loss_prob = np.zeros(tree.num_histories)
    kinds = tree.node_player
    for h in np.flatnonzero((kinds == CHANCE) | (kinds == TERMINAL)):
      if kinds[h] == CHANCE:
        children = members[start[h]:start[h + 1]]
        chance_prob[children] = rng.dirichlet(np.ones(len(children)))
      else:
        loss_prob[h] = rng.uniform()
    if chance == "game":
      chance_prob = tree.chance_prob.astype(np.float64, copy=True)
    return cls(chance_prob, loss_prob)


def base_tree_for(game: str | dict) -> GameTree:
  """The compiled base game (a game string, or the parameter dict pyspiel
  passes for ``game=name(...)``).

  Args:
    game: a two-player game's string, or {"name": name, parameter: value}.

  Returns:
    The base game's compiled tree.

  Raises:
    ValueError: the base game cannot be loaded or compiled, or does not
      have two players.
  """
  if isinstance(game, dict):
    params = dict(game)
    name = params.pop("name")
    if name not in pyspiel.registered_names():
      load_game(name)  # Raises the engine's one-line "unknown game" error.
    try:
      base = pyspiel.load_game(name, params)
    except (pyspiel.SpielError, RuntimeError) as error:
      raise ValueError(f"{NAME}: cannot load the base game {name!r}: "
                       f"{' '.join(str(error).split())}") from None
  else:
    base = load_game(game)
  if base.num_players() != 2:
    raise ValueError(f"{NAME}: the base game must have two players; {base} "
                     f"has {base.num_players()}.")
  try:
    return compile_game(base)
  except GameTooLarge as error:  # Without the advice to pass max_histories,
    # which a nested base game cannot be given.
    raise ValueError(f"{NAME}: the base game: {error.size}") from None
