"""Learners for games whose chance and rewards are unknown.

The learner sees the rules of an unknown environment
(``spiel_ext_unknown_env``: the base game's tree, infosets and legal
actions) and learns only from episodes it plays. Each iteration updates a
conjugate posterior (:class:`~spiel_ext.algorithms.posterior.
ConjugatePosterior`) with the episodes, runs one CFR (or DCFR) iteration on
a view of the one compiled tree with the model's numbers
(``rules.with_model(chance_prob, utility)``, run through
:meth:`RegretMinimizationSolver.set_view`), and plays the next episodes:

Qiu, Wang, Ma, Wen, Zhang, "Combining Counterfactual Regret Minimization
with Information Gain to Solve Extensive Games with Unknown Environments",
arXiv:2110.07892, and their code (github chenqiu01/VCFR, which carries
the PSRLCFR code of github DongdongBai/submit); each class names the
authors' file it follows:

- :class:`NaiveCFRLearner`: CFR (or DCFR) on a posterior draw (or the
  posterior mean), episodes with its average (or current) strategy.
  :class:`RandomLearner` is the same with uniformly random episodes.
- :class:`PSRLCFRLearner`: CFR on a posterior draw, episodes with each
  player's exploring strategy from a second draw (Zhou, Li, Zhu,
  "Posterior Sampling for Multi-Agent Reinforcement Learning: Solving
  Extensive Games with Imperfect Information", ICLR 2020), in the
  authors' two exploration types and ours.
- :class:`VCFRLearner`: the information bonus r' = r + eta KL(z) (eq. 10)
  in the paper's Algorithm 1 (on the CFR draw, episodes with the average)
  or the authors' other design (on the exploration draw); the bonus's
  options are in :mod:`spiel_ext.algorithms.exploration`.
- :class:`PosteriorFSPLearner` / :class:`PosteriorVFSPLearner`: the
  authors' FSP / VFSP, fictitious play with exact best responses on a
  posterior draw, without / with the bonus.
- :class:`FSPLearner` / :class:`VFSPLearner`: the paper's text's FSP,
  fictitious self-play with tabular fitted-Q best responses, without /
  with the bonus (below).
- :class:`OutcomeSamplingLearner`: MCCFR with outcome sampling on the
  episodes themselves, no model (below).

Where the CFR walk differs from the authors': histories whose reach is
below 1e-5 are not skipped, and the uniform first strategy is not counted
in CFR's average (one iteration in 20,000).

Two episodes per iteration for every learner. ``average_policy()`` and
``current_policy()`` are TabularPolicies of the true game (the pyspiel game
the learner was built from), so every evaluator scores them exactly there.

Every learner meets the solver contract of
:mod:`spiel_ext.algorithms.protocol`: its hyperparameters are one frozen
``Config`` per class (``NaiveCFRLearner.Config``), checked once;
``NaiveCFRLearner(game, model="mean")`` and
``NaiveCFRLearner(game, NaiveCFRLearner.Config(model="mean"))`` are the
same learner. ``progress()`` counts its iterations and the episodes it
played. ``state_dict()`` is its state as plain data -- its own arrays and
generator, the inner regret minimiser's ``state_dict()``, the posterior's
counts, the information bonus's state and the environment's episode
count -- and a learner rebuilt from the game and config that loads it
continues exactly; pickling goes through it.

A learner is built from parts (:mod:`spiel_ext.algorithms.learner_parts`),
each a small object with its own state: the environment model (the
posterior), the information bonus and where it goes, the exploration
policy, the inner full-width solver and the episode schedule. The classes
live in :mod:`spiel_ext.algorithms.learner_base` (:class:`EpisodeLearner`),
:mod:`spiel_ext.algorithms.model_learners` (the CFR-based learners),
:mod:`spiel_ext.algorithms.fsp_learners` (fictitious play) and
:mod:`spiel_ext.algorithms.outcome_sampling`; this module gathers them.
"""

from __future__ import annotations

from typing import Any

from spiel_ext.algorithms.fsp_learners import (FSPLearner,
                                               PosteriorFSPLearner,
                                               PosteriorVFSPLearner,
                                               VFSPLearner)
from spiel_ext.algorithms.learner_base import (BASES, MAX_BATCH_SIZE,
                                               MAX_BUFFER_SIZE,
                                               MIN_OUTCOME_SAMPLING_EPSILON,
                                               EpisodeLearner,
                                               environment_of)
from spiel_ext.algorithms.model_learners import (DESIGNS, MODELS, PLAYS,
                                                 ModelBasedLearner,
                                                 NaiveCFRLearner,
                                                 PSRLCFRLearner,
                                                 RandomLearner, VCFRLearner)
from spiel_ext.algorithms.outcome_sampling import OutcomeSamplingLearner

__all__ = ["BASES", "DESIGNS", "MAX_BATCH_SIZE", "MAX_BUFFER_SIZE",
           "MIN_OUTCOME_SAMPLING_EPSILON", "MODELS", "PLAYS",
           "EpisodeLearner", "FSPLearner", "ModelBasedLearner",
           "NaiveCFRLearner", "OutcomeSamplingLearner", "PSRLCFRLearner",
           "PosteriorFSPLearner", "PosteriorVFSPLearner", "RandomLearner",
           "VCFRLearner", "VFSPLearner", "environment_of"]


def _restore(learner_class: type, game: str, config: Any,
             state: dict[str, Any]) -> EpisodeLearner:
  """A learner pickled by an earlier spiel_ext (which pickled through this
  function), unpickled: rebuilt from its game and config, then given its
  state."""
  learner = learner_class(game, config)
  learner.load_state_dict(state)
  return learner
