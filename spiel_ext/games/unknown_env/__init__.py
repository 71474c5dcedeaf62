"""Games with unknown chance and rewards: ``spiel_ext_unknown_env``.

The unknown-environment setting of Qiu, Wang, Ma, Wen, Zhang, "Combining
Counterfactual Regret Minimization with Information Gain to Solve Extensive
Games with Unknown Environments", 2023, arXiv:2110.07892 (after Zhou, Li,
Zhu, "Posterior Sampling for Multi-Agent Reinforcement Learning: Solving
Extensive Games with Imperfect Information", ICLR 2020). An environment
instance keeps a two-player base game's tree shape; its chance distribution
c* and its rewards are hidden from the learner, and every random draw that
makes them comes from ``env_seed``:

  chance=game (default)  c*(h) = the base game's own chance probabilities
                         at every chance node h, as in the authors' code
                         (e.g. the card deal of Leduc(k)).
  chance=dirichlet       c*(h) ~ Dirichlet(1, ..., 1) over the outcomes of
                         every chance node h, drawn from env_seed.
  rewards (both)         r(z) ~ Uniform(-1, 1) at every terminal z; an
                         episode ending at z pays player 0 +1 with
                         probability (1 + r(z)) / 2 and -1 otherwise
                         (player 1 the negative), so r(z) is player 0's
                         expected reward. Stored as the same law written
                         p(z) = (1 - r(z)) / 2 ~ Uniform[0, 1], player 0's
                         probability of receiving -1 (``loss_prob``).
                         An env_seed draws the same rewards under both
                         chance models.

The learners of both papers do not know c* even when it is the base game's:
they start from a Dirichlet(1, ..., 1) prior at every chance node and a
Beta(1, 1) prior on each terminal's win probability (the law that drew it).
The base game's payoffs are dropped. Any two-player sequential game the
engine can compile is a valid base, with or without chance nodes (without
them only the rewards are hidden). Two views:

- ``spiel_ext_unknown_env(game=kuhn_poker(),env_seed=0)``: the *true game* as
  a pyspiel game for evaluation. After each base terminal a final chance
  node draws the +-1 reward, so OpenSpiel's tools and our engine compute
  exact values of the expected game (c*, E[r]). Chance outcomes keep their
  place even when their hidden probability is 0 (as in Leduc(k)'s deal;
  OpenSpiel's Python ``cfr.CFRSolver`` asserts positive chance
  probabilities; its C++ CFR and its evaluators accept 0). A base game with
  parameters nests in parentheses:
  ``spiel_ext_unknown_env(game=spiel_ext_bid_leduc(max_bid=4),env_seed=0)``
  (add ``chance=dirichlet`` for the Dirichlet variant).
- :class:`Environment`: what a learner gets. It shows the rules (the base
  game's tree: its shape, infosets and legal actions, never c* or p) and
  plays episodes: given a joint strategy over the rules' infosets it
  samples one trajectory, chance outcomes included, and a +-1 reward, and
  counts episodes.

Strings and tensors are the base game's (its rules are unchanged), with the
drawn reward appended once known: the strings end in `` reward +1`` /
`` reward -1``, the tensors in a ``drawn_reward`` piece [2] (one-hot: -1,
+1; zeros before the draw). A base game without information-state (or
observation) tensors gives an instance without them: the GameType flags
``provides_*_tensor`` are set per instance from the base game's.

Modules, by job:

- :mod:`.params`: the game's name, parameters, chance models and game
  strings (:func:`true_game_string`).
- :mod:`.hidden`: the hidden parameters c* and p drawn from ``env_seed``
  (:class:`HiddenParameters`) and the compiled base game
  (:func:`base_tree_for`).
- :mod:`.game` and :mod:`.observer`: the true game as pyspiel classes
  (:class:`UnknownEnvGame`, :class:`UnknownEnvState`,
  :class:`UnknownEnvObserver`), registered on import.
- :mod:`.learner`: the learner's :class:`Environment`, its rules-only tree
  and its :class:`Episode`.
- :mod:`.deferred`: the names that need the engine, loaded on first use.

Importing this package (as ``import spiel_ext`` does) registers the game
without importing the engine: the names that need the engine
(:class:`HiddenParameters`, :func:`base_tree_for`, :class:`Environment`,
:class:`Episode`, and the engine's ``CHANCE``, ``TERMINAL`` and
``STRATEGY_TOLERANCE``) are loaded on first use, through :mod:`.deferred`.
"""

from __future__ import annotations

from typing import Any

from spiel_ext.games.unknown_env import deferred
from spiel_ext.games.unknown_env.game import (UnknownEnvGame, UnknownEnvState,
                                              _detached)  # noqa: F401  pylint: disable=unused-import
from spiel_ext.games.unknown_env.observer import UnknownEnvObserver
from spiel_ext.games.unknown_env.params import (CHANCE_MODELS, LOSS, WIN,
                                                check_chance_model,
                                                true_game_string)

__all__ = ["CHANCE_MODELS", "LOSS", "WIN", "UnknownEnvGame",
           "UnknownEnvObserver", "UnknownEnvState", "check_chance_model",
           "true_game_string", *deferred.NAMES]


def __getattr__(name: str) -> Any:
  if name not in deferred.NAMES:
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
  value = getattr(deferred, name)
  globals()[name] = value
  return value


def __dir__() -> list[str]:
  return sorted(set(globals()) | set(deferred.NAMES))
