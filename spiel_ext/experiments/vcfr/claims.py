"""What the VCFR experiments' claim declarations share: the paper's name,
the two paper-setting readings and a paired-ranking claim."""

from __future__ import annotations

from typing import Iterable

from spiel_ext.experiments.vcfr.algorithms import replicate_id
from spiel_ext.experiments.vcfr.figures import FINAL
from spiel_ext.experiments.vcfr.measures import ranking
from spiel_ext.results.claims import ClaimSpec
from spiel_ext.results.report import verdict_from

PAPER = "VCFR (Qiu et al. 2023)"
# Where the paper's text and the authors' code disagree, each reading runs
# as its own paper setting.
TEXT = "paper setting (text)"
CODE = "paper setting (authors' code)"
NOISE_FLOOR = "noise floor"  # The variant of the replicates.


def paired(better: str, worse: str, statement: str, setting: str, *,
           paper_value: str = "qualitative",
           replicates: Iterable[str] = ()) -> ClaimSpec:
  """"``better`` reaches lower NashConv than ``worse``" in each
  environment, judged on ``setting`` (a variant's label), beside the noise
  floor of the learners in ``replicates`` (those with a replicate run)."""
  return ClaimSpec(PAPER, statement, paper_value, ranking(
      better, worse, setting,
      {name: replicate_id(name) for name in replicates}), verdict_from, FINAL)


def noise_floor(learner: str, setting: str) -> ClaimSpec:
  """``learner`` and its replicate are level in each environment."""
  return paired(learner, replicate_id(learner), f"Noise floor: {learner} "
                "and itself with another learner seed are level (within "
                "two standard errors)", setting, replicates=(learner,))
