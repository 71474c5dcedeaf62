"""The VCFR paper's learners (Qiu, Wang, Ma, Wen, Zhang, "Combining
Counterfactual Regret Minimization with Information Gain to Solve Extensive
Games with Unknown Environments", 2023) as the paper's Algorithm 1 and the
authors' code run them; labels with a parenthesis are the other readings, our
variants and noise-floor replicates."""

from __future__ import annotations

import functools
from typing import Any

from spiel_ext.algorithms.learners import (FSPLearner, NaiveCFRLearner,
                                           OutcomeSamplingLearner,
                                           PosteriorFSPLearner,
                                           PosteriorVFSPLearner,
                                           PSRLCFRLearner, RandomLearner,
                                           VCFRLearner, VFSPLearner)
from spiel_ext.experiments.entries import AlgorithmEntry, register

# A noise-floor replicate runs the same learner with its seed shifted by
# this much times ``replicate``: another learner seed on the same
# environments (the environment's hidden parameters come from the game
# string, not from this seed).
REPLICATE_SEED_SHIFT = 1_000_003


def build_replicate(learner: Any, game: str, seed: int = 0, *,
                    replicate: int, **config):
  """``learner(game, seed=...)`` with the seed shifted by ``replicate``
  times :data:`REPLICATE_SEED_SHIFT`: a noise-floor run."""
  seed = (seed + replicate * REPLICATE_SEED_SHIFT) % 2**63
  return learner(game, seed=seed, **config)


def replicate_id(label: str) -> str:
  """The id of ``label``'s noise-floor replicate."""
  return f"{label} (replicate)"


def _learner(label: str, learner: Any, description: str,
             **config) -> AlgorithmEntry:
  needs_network = config.get("information") in ("bnn", "bnn_sampled")
  return AlgorithmEntry(learner, config, label, description=description,
                        extra="bnn" if needs_network else None)


def _replicate(label: str, learner: Any, **config) -> AlgorithmEntry:
  return AlgorithmEntry(
      functools.partial(build_replicate, learner), dict(config, replicate=1),
      replicate_id(label), description=f"{label} with another learner "
      "seed on the same environments: the noise floor of a paired "
      "comparison")


LEARNER_ENTRIES = (
    _learner("VCFR", VCFRLearner, "the paper's Algorithm 1: the information "
             "bonus (zero-sum, median-normalised, eta = 0.005) on the CFR "
             "draw, episodes with the average strategy; conjugate "
             "information gain"),
    _learner("VCFR (eta=0.01)", VCFRLearner, "VCFR with the authors' "
             "code's eta = 0.01", eta=0.01),
    _learner("VCFR (exploration draw)", VCFRLearner, "the authors' "
             "vime_cfr.py design: the bonus on the exploration draw only, "
             "PSRLCFR's default exploration", design="exploration_draw"),
    _learner("VCFR (ours: both draws)", VCFRLearner, "our earlier design: "
             "the raw bonus for both players on both draws, best-response "
             "exploration paired with the average", design="both_draws",
             players="both", normalisation="none"),
    _learner("VCFR (both players)", VCFRLearner, "VCFR with the bonus added "
             "to both players' rewards (the text's r' = r + eta KL) instead "
             "of the zero-sum shift", players="both"),
    _learner("VCFR (eta=0.5)", VCFRLearner, "VCFR with a bonus 100 times "
             "the paper's", eta=0.5),
    _learner("VCFR-BNN", VCFRLearner, "VCFR with our Bayesian neural "
             "network (VIME's expected gain, trained on observed outcomes) "
             "as the information model", information="bnn"),
    _learner("VCFR-BNN (authors' KL)", VCFRLearner, "VCFR with the authors' "
             "network KL: VIME's second-order term at the posterior-drawn "
             "reward, network trained on the drawn rewards (hidden 64, lr "
             "0.01, batch 1000), eta = 0.01", information="bnn_sampled",
             eta=0.01),
    _learner("PSRLCFR", PSRLCFRLearner, "posterior sampling (Zhou, Li, Zhu "
             "2020) with the authors' default exploration (V_draw - V_avg)"),
    _learner("PSRLCFR (br_dirc)", PSRLCFRLearner, "PSRLCFR with the authors' "
             "br_dirc exploration (best response in the second draw, paired "
             "with the current strategy)", exploration="br_dirc"),
    _learner("PSRLCFR (ours)", PSRLCFRLearner, "PSRLCFR as we first read the "
             "paper: best response in the second draw, paired with the "
             "other's average", exploration="best_response"),
    _learner("FSP", PosteriorFSPLearner, "the authors' FSP (ficplay.py): "
             "fictitious play with exact best responses on a posterior "
             "draw"),
    _learner("FSP (fitted-Q)", FSPLearner, "the paper's text's FSP: "
             "fictitious self-play with tabular fitted-Q best responses"),
    _learner("MCCFR-OS", OutcomeSamplingLearner, "outcome-sampling MCCFR on "
             "real episodes, epsilon = 0.1", epsilon=0.1),
    _learner("Naive-CFR", NaiveCFRLearner, "CFR on a posterior draw, "
             "episodes with its average (the paper's text; VCFR without the "
             "bonus)"),
    _learner("Naive-CFR (current)", NaiveCFRLearner, "CFR on a posterior "
             "draw, episodes with its current strategy (the authors' "
             "cfrpsrl.py type ordinary)", play="current"),
    _learner("Naive-CFR (posterior mean)", NaiveCFRLearner, "CFR on the "
             "posterior mean, episodes with its average (our earlier "
             "reading)", model="mean"),
    _learner("Random", RandomLearner, "uniform episodes, CFR on a posterior "
             "draw"),
    _learner("VDCFR", VCFRLearner, "VCFR on DCFR (1.5, 0, 2)", base="dcfr"),
    _learner("Naive-DCFR", NaiveCFRLearner, "DCFR on a posterior draw, "
             "episodes with its average (VDCFR without the bonus)",
             base="dcfr"),
    _learner("Naive-DCFR (current)", NaiveCFRLearner, "DCFR on a posterior "
             "draw, episodes with its current strategy", base="dcfr",
             play="current"),
    _learner("VFSP", PosteriorVFSPLearner, "the authors' VFSP "
             "(vimeficplay.py): FSP with the information bonus on its "
             "posterior draw"),
    _learner("VFSP (fitted-Q)", VFSPLearner, "the paper's text's VFSP: "
             "fitted-Q FSP with the information-gain bonus, eta = 0.005",
             eta=0.005),
    _replicate("VCFR", VCFRLearner),
    _replicate("VDCFR", VCFRLearner, base="dcfr"),
    _replicate("VFSP", PosteriorVFSPLearner),
    _replicate("PSRLCFR", PSRLCFRLearner),
)
# The learners' ids, in order (their entries are in the registry,
# spiel_ext.experiments.entries.ALGORITHMS).
LEARNER_ALGORITHMS = tuple(entry.id for entry in register(LEARNER_ENTRIES))
