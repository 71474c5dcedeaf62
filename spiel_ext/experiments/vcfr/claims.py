"""What the VCFR experiments' claim declarations share: the paper's name,
the two paper-setting readings, a paired-ranking claim, and
:class:`Claims`, the claims tuple each experiment declares."""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

import pandas as pd

from spiel_ext.analysis.vcfr_claims import ranking
from spiel_ext.experiments.spec import Settings, command_for
from spiel_ext.experiments.vcfr.algorithms import replicate_id
from spiel_ext.results.claims import ClaimSpec, RunResults, judge
from spiel_ext.results.report import Claim, verdict_from
from spiel_ext.results.vcfr_figures import FINAL

PAPER = "VCFR (Qiu et al. 2023)"
# Where the paper's text and the authors' code disagree, each reading runs
# as its own paper setting.
TEXT = "paper setting (text)"
CODE = "paper setting (authors' code)"
NOISE_FLOOR = "noise floor"  # The variant of the replicates.


class Claims(tuple):
  """An experiment's claims (:class:`ClaimSpec`), judged by calling it as
  ``claims(frame, settings, folder)``: the report's rows."""

  def __new__(cls, experiment: str, specs: Iterable[ClaimSpec]) -> "Claims":
    claims = super().__new__(cls, tuple(specs))
    claims.experiment = experiment
    return claims

  def __getnewargs__(self):
    return self.experiment, tuple(self)

  def __call__(self, frame: pd.DataFrame, settings: Settings,
               folder: Path | None = None) -> list[Claim]:
    return judge(self, RunResults(frame, settings, folder), self.experiment,
                 command_for(settings))


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
