"""What the VCFR experiments' declarations share: the paper's name, the two
paper-setting readings and the label naming what our runs put in place of
the paper's network, a paired-ranking claim, the rules for the paper's
numbers, and the declaration of a comparison on the unknown games."""

from __future__ import annotations

import functools
import math
from typing import Iterable, Sequence

from spiel_ext.experiments.spec import Experiment, Scale
from spiel_ext.experiments.vcfr import settings
from spiel_ext.experiments.vcfr.algorithms import replicate_id
from spiel_ext.experiments.vcfr.figures import FINAL, summarize
from spiel_ext.experiments.vcfr.comparisons import STANDARD_ERRORS
from spiel_ext.experiments.vcfr.measures import PaperNumbers, ranking
from spiel_ext.results.claims import ClaimSpec
from spiel_ext.results.report import (PAPER_SETTING, Choice, Variant,
                                      verdict_from)

PAPER = "VCFR (Qiu et al. 2023)"
# Where the paper's text and the authors' code disagree, each reading runs
# as its own paper setting.
TEXT = "paper setting (text)"
CODE = "paper setting (authors' code)"
NOISE_FLOOR = "noise floor"  # The variant of the replicates.
# What the bonus learners run in place of the paper's Bayesian network:
# the verdict's setting names it (the settings table says why).
CONJUGATE = "conjugate model in place of the network"
# The learners whose information gain comes from a network, not the
# conjugate model.
NETWORK_LEARNERS = ("VCFR-BNN", "VCFR-BNN (authors' KL)")
_BONUS_LEARNERS = ("VCFR", "VDCFR", "VFSP")


def uses_conjugate_model(learner: str) -> bool:
  """Whether ``learner`` (an algorithm label) draws its information gain
  from the conjugate model: VCFR, VDCFR and VFSP in any reading, but not
  the network learners."""
  return (learner.split(" ", 1)[0] in _BONUS_LEARNERS and
          learner not in NETWORK_LEARNERS)


def judged_on(setting: str, learners: Sequence[str]) -> str:
  """The verdict's setting label: ``setting``, naming the conjugate model
  when it is a paper setting and one of ``learners`` runs it in place of
  the paper's network ("paper setting (text), conjugate model in place of
  the network")."""
  if setting.startswith(PAPER_SETTING) and any(
      uses_conjugate_model(name) for name in learners):
    return f"{setting}, {CONJUGATE}"
  return setting


def own_number_verdict(found: PaperNumbers | None) -> str:
  """A row about the paper's method's own number: does not hold when that
  number misses the paper's by more than a factor 1 / MAGNITUDE_FRACTION
  (:meth:`.measures.PaperNumbers.within`), or, where the paper's point is
  the ranking, when the method is not the lowest, whatever the baselines
  do; holds when every learner's number is within that factor; partly
  when only the method's own is; not run without numbers."""
  if found is None:
    return "not run"
  if not found.within(found.own):
    return "does not hold"
  if found.ranks_first and found.rank(found.own) != 1:
    return "does not hold"
  return ("holds" if all(found.within(name) for name in found.paper)
          else "holds partly")


def shift_verdict(found: tuple[float, float] | None) -> str:
  """A (difference, standard error) the claim says is above 0: holds when
  it is above 0 by more than :data:`STANDARD_ERRORS` standard errors,
  partly when above 0 but within them (or with no error), does not hold
  at or below 0; not run without a difference."""
  if found is None:
    return "not run"
  difference, error = found
  if not difference > 0:
    return "does not hold"
  if math.isfinite(error) and difference > STANDARD_ERRORS * error:
    return "holds"
  return "holds partly"


def paired(better: str, worse: str, statement: str, setting: str, *,
           paper_value: str = "qualitative",
           replicates: Iterable[str] = ()) -> ClaimSpec:
  """"``better`` reaches lower NashConv than ``worse``" in each
  environment, judged on ``setting`` (a variant's label), beside the noise
  floor of the learners in ``replicates`` (those with a replicate run);
  the verdict's label names the conjugate model where one of the two runs
  it (:func:`judged_on`)."""
  return ClaimSpec(PAPER, statement, paper_value, ranking(
      better, worse, judged_on(setting, (better, worse)),
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
