"""What the VCFR experiments' declarations share: the paper's name, the two
paper-setting readings, a paired-ranking claim and the declaration of a
comparison on the unknown games."""

from __future__ import annotations

import functools
from typing import Iterable

from spiel_ext.experiments.spec import Experiment, Scale
from spiel_ext.experiments.vcfr import settings
from spiel_ext.experiments.vcfr.algorithms import replicate_id
from spiel_ext.experiments.vcfr.figures import FINAL, summarize
from spiel_ext.experiments.vcfr.measures import ranking
from spiel_ext.results.claims import ClaimSpec
from spiel_ext.results.report import Choice, Variant, verdict_from

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


def comparison(name: str, description: str, algorithms: tuple[str, ...], *,
               claims: tuple[ClaimSpec, ...],
               choices: tuple[Choice, ...],
               variants: tuple[Variant, ...]) -> Experiment:
  """A comparison of learners on unknown Kuhn, Leduc(4) and Leduc(5).

  Args:
    name: the experiment's name.
    description: what it runs, in a line.
    algorithms: the learners, in the order the figures and tables list
      them.
    claims: the paper's claims it judges.
    choices: its settings table.
    variants: the paper settings and ablations it runs.

  Returns:
    The declaration: NashConv of one run in each environment, 300
    iterations on the quick scale's games and 20,000 on the paper's.
  """
  return Experiment(
      name=name, description=description,
      quick=Scale(iterations=300, seeds=1, games=settings.QUICK_GAMES,
                  algorithms=algorithms),
      paper=Scale(iterations=20_000, seeds=1, games=settings.PAPER_GAMES,
                  algorithms=algorithms),
      metrics=("nash_conv",),
      summarize=functools.partial(summarize, order=algorithms),
      claims=claims, choices=choices, variants=variants)
