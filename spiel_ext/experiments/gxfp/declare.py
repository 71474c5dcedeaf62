"""What the GXFP paper's three declarations share: claims judged on each
update schedule, the declaration of a schedule lineup and that of a figure
against hand strength (Tim P. Schulze, "A Generalized Extensive-Form
Fictitious Play Algorithm", 2023, arXiv:2310.09658).

Every figure runs its roles on one schedule at a time
(:func:`.paper_values.schedule_variants`); a :class:`ScheduleClaim` is
judged on each schedule's paper setting, schedule by schedule.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any, Callable, Sequence

from spiel_ext.analysis.claims import Artefact, Rule, Threshold
from spiel_ext.experiments.gxfp.figures import HandFigures, summarize_hands
from spiel_ext.experiments.gxfp.paper_values import (LABELS, METRICS, PAPER,
                                                     algorithms_of,
                                                     schedule_variants)
from spiel_ext.experiments.spec import Experiment, Scale
from spiel_ext.results.claims import ClaimSpec
from spiel_ext.results.report import Choice, Variant


@dataclasses.dataclass(frozen=True)
class ScheduleClaim:
  """A claim of the paper, judged on one update schedule at a time.

  Attributes:
    statement: the claim, in our words.
    paper_value: the paper's number ("qualitative" when it gives none).
    measure: a measure that takes the schedule's variant and the labels
      as the keywords ``variant`` and ``labels``.
    holds_if: a threshold on the measurement's value, or a rule from it
      to a verdict.
    evidence: the figure or table the row cites.
    substitution: what the run puts in place of the paper's method for
      this claim ("" for nothing), named in the verdict's setting label
      after the schedule's ("paper setting (simultaneous), XFP without
      eq. 18's renormalisation").
  """
  statement: str
  paper_value: str
  measure: Callable[..., Any]
  holds_if: Threshold | Rule
  evidence: Artefact
  substitution: str = ""

  def on(self, variant: Variant) -> ClaimSpec:
    """The claim judged on ``variant``, a schedule's paper setting."""
    if self.substitution:
      variant = dataclasses.replace(
          variant, name=f"{variant.name}, {self.substitution}")
    return ClaimSpec(PAPER, self.statement, self.paper_value,
                     functools.partial(self.measure, variant=variant,
                                       labels=LABELS),
                     self.holds_if, self.evidence)


def schedule_experiment(name: str, description: str, *,
                        roles: Sequence[str],
                        claims: Sequence[ScheduleClaim],
                        games: Sequence[tuple[str, ...]],
                        iterations: Sequence[int], runs: Sequence[int],
                        summarize: Callable[..., Any],
                        choices: tuple[Choice, ...],
                        ablations: tuple[Variant, ...] = (),
                        ablation_claims: tuple[ClaimSpec, ...] = ()
                        ) -> Experiment:
  """A GXFP experiment: ``roles`` on each update schedule (one paper
  setting per schedule, :func:`.paper_values.schedule_variants`),
  ``claims`` judged on each, the paper's metrics.

  Args:
    name: the experiment's name.
    description: what it runs, in a line.
    roles: the roles each schedule's paper setting runs.
    claims: the claims judged on each schedule, schedule by schedule.
    games: the games of the quick and of the paper scale.
    iterations: the iterations of the quick and of the paper scale.
    runs: the runs of each game and algorithm at the quick and at the
      paper scale.
    summarize: the figures and tables; it takes the labels as the keyword
      ``labels``.
    choices: its settings table.
    ablations: the variants after the schedules' paper settings.
    ablation_claims: the claims after the schedules' ones.

  Returns:
    The declaration; its scales run every algorithm of its variants.
  """
  schedules = schedule_variants(roles)
  variants = schedules + ablations
  algorithms = algorithms_of(variants)
  quick, paper = (Scale(iterations=count, seeds=repeats, games=played,
                        algorithms=algorithms)
                  for played, count, repeats in zip(games, iterations, runs))
  return Experiment(
      name=name, description=description, quick=quick, paper=paper,
      metrics=METRICS, summarize=functools.partial(summarize, labels=LABELS),
      claims=tuple(claim.on(variant) for variant in schedules
                   for claim in claims) + ablation_claims,
      choices=choices, variants=variants)


def hand_experiment(name: str, description: str, *, figures: HandFigures,
                    claims: Sequence[ScheduleClaim],
                    games: Sequence[tuple[str, ...]],
                    iterations: Sequence[int],
                    choices: tuple[Choice, ...]) -> Experiment:
  """A figure against hand strength (Fig. 1, Figs. 2-3): the roles it
  draws on each schedule, two runs of each game and algorithm at either
  scale, :func:`.figures.summarize_hands` drawing ``figures``.

  Args:
    name: the experiment's name.
    description: what it runs, in a line.
    figures: what the figure draws and tabulates (its roles too).
    claims: the claims judged on each schedule, schedule by schedule.
    games: the games of the quick and of the paper scale.
    iterations: the iterations of the quick and of the paper scale.
    choices: its settings table.

  Returns:
    The declaration.
  """
  return schedule_experiment(
      name, description, roles=figures.roles(LABELS), claims=claims,
      games=games, iterations=iterations, runs=(2, 2),
      summarize=functools.partial(summarize_hands, figures=figures),
      choices=choices)
