"""What the GXFP paper's measures and figures share: the algorithm labels
by update schedule and role, and the von Neumann-Morgenstern poker
readouts.

Tim P. Schulze, "A Generalized Extensive-Form Fictitious Play Algorithm",
2023, arXiv:2310.09658. The paper does not say whether players update at
once or in turn, so every figure runs all its algorithms on one schedule,
once per schedule; :class:`GXFPLabels` says which label plays which role
("CFR", "XFP", "GXFP" and the perturbed "XFP (eps=...)", "GXFP (eps=...)")
on each schedule. Thresholds are compared as sequence masses after reading
perturbed strategies as the choice they stand for
(:func:`spiel_ext.policy.remove_perturbation`).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Sequence

import numpy as np
import pandas as pd
import pyspiel

from spiel_ext.eval import vnm
from spiel_ext.experiments.declaration import Settings
from spiel_ext.experiments.runner import load_snapshots
from spiel_ext.results.report import Variant

FINAL = "final"  # The snapshot every unit takes at its last iteration.
# A hand mixes when its largest probability is below MIXED[1] (player 2's
# call in the asymmetric game: strictly between the two).
MIXED = (0.05, 0.95)
SIMULTANEOUS, ALTERNATING = "simultaneous", "alternating"


def perturbed_name(name: str, eps: float) -> str:
  """The name of ``name`` in the eps-perturbed game: "GXFP (eps=0.01)"."""
  return f"{name} (eps={eps:g})"


@dataclasses.dataclass(frozen=True)
class GXFPLabels:
  """The GXFP experiments' algorithm labels, by update schedule and role.

  Attributes:
    epsilon: the perturbation of the perturbed roles (every action keeps
      probability >= eps; Schulze's eq. 24).
    roles: {schedule: {role: label}}, schedules in the order the figures
      draw them; roles "CFR", "XFP", "GXFP", "XFP (eps=...)", "GXFP
      (eps=...)" (the perturbed ones named by :func:`perturbed_name`).
    heavy_cfr: {schedule: label} of CFR from U(0, 1) regrets.
    uniform_cfr: {schedule: label} of CFR from the uniform strategy.
    integer_gxfp: the label of GXFP counting in integers (simultaneous).
    perturbed_metric: the results' name of the eps-perturbed game's
      NashConv.
  """
  epsilon: float
  roles: Mapping[str, Mapping[str, str]]
  heavy_cfr: Mapping[str, str]
  uniform_cfr: Mapping[str, str]
  integer_gxfp: str
  perturbed_metric: str

  @property
  def schedules(self) -> tuple[str, ...]:
    return tuple(self.roles)

  @property
  def xfp_eps(self) -> str:
    """The role of perturbed XFP."""
    return perturbed_name("XFP", self.epsilon)

  @property
  def gxfp_eps(self) -> str:
    """The role of perturbed GXFP."""
    return perturbed_name("GXFP", self.epsilon)

  @property
  def order(self) -> tuple[str, ...]:
    """Every label, in the order tables list them: each schedule's roles,
    then CFR's heavy and uniform starts, then integer counting."""
    return tuple(dict.fromkeys(
        [label for roles in self.roles.values() for label in roles.values()]
        + list(self.heavy_cfr.values()) + list(self.uniform_cfr.values())
        + [self.integer_gxfp]))

  def schedule_of(self, label: str) -> str:
    """The update schedule of ``label`` (a label outside the lineup:
    simultaneous, as OpenSpiel's XFP)."""
    for schedule, roles in self.roles.items():
      if label in roles.values():
        return schedule
    for starts in (self.heavy_cfr, self.uniform_cfr):
      for schedule, name in starts.items():
        if label == name:
          return schedule
    return SIMULTANEOUS

  def eps_of(self, label: str) -> float:
    """The perturbation ``label`` runs in (0.0: the unperturbed game)."""
    perturbed = {roles[role] for roles in self.roles.values()
                 for role in (self.xfp_eps, self.gxfp_eps) if role in roles}
    return self.epsilon if label in perturbed else 0.0

  def role_labels(self, schedule: str, roles: Sequence[str]
                  ) -> dict[str, str]:
    """{role: label} of ``roles`` on ``schedule``."""
    return {role: self.roles[schedule][role] for role in roles}

  def ordered(self, roles: Sequence[str]) -> tuple[str, ...]:
    """The labels of ``roles``, schedule by schedule."""
    return tuple(self.roles[schedule][role] for schedule in self.roles
                 for role in roles)

  def schedule_of_variant(self, variant: Variant) -> str:
    """The schedule of a variant that runs one schedule's labels.

    Args:
      variant: a paper-setting variant of one schedule.

    Returns:
      The schedule of its first label.
    """
    return self.schedule_of(variant.algorithms[0])


def ran(variant: Variant, settings: Settings) -> bool:
  """Whether every algorithm of ``variant`` ran with ``settings``.

  Args:
    variant: a variant of the experiment.
    settings: the settings the run used.

  Returns:
    True when the run holds every algorithm the variant names.
  """
  return set(variant.algorithms) <= set(settings.algorithms)


def final_snapshots(settings: Settings, folder: Path,
                    game: str) -> dict[str, list[np.ndarray]]:
  """The final strategies of one game's units.

  Args:
    settings: the settings the run used.
    folder: the run folder.
    game: the game string.

  Returns:
    {algorithm: [final strategy of each seed, in seed order]}.
  """
  return load_snapshots(settings, folder, FINAL, game)


def mean_final_measures(
    settings: Settings, folder: Path, labels: GXFPLabels,
    measure: Callable[[str, np.ndarray, float], dict[str, float]]
) -> Iterator[tuple[dict[str, Any], pd.Series]]:
  """``measure`` of each game's and algorithm's final strategies, averaged
  over its runs.

  Args:
    settings: the settings the run used.
    folder: the run folder.
    labels: the algorithm labels by schedule and role.
    measure: (game, strategy, eps of its perturbed game) -> numbers.

  Yields:
    Per game and algorithm, in the order the snapshots load: the row's
    keys (N, the schedule, the algorithm and its number of runs) and the
    mean of ``measure`` over the runs.
  """
  for game in settings.games:
    for algorithm, strategies in final_snapshots(settings, folder,
                                                 game).items():
      measured = pd.DataFrame([
          measure(game, strategy, labels.eps_of(algorithm))
          for strategy in strategies]).mean()
      yield {"N": hands_of(game), "schedule": labels.schedule_of(algorithm),
             "algorithm": algorithm, "seeds": len(strategies)}, measured


def hands_of(game: str) -> int:
  """N, the number of hands of a ``spiel_ext_vnm_poker`` game string."""
  return int(pyspiel.load_game(game).get_parameters()["hands"])


def sequences(game: str, strategy: np.ndarray, eps: float = 0.0,
              conditional: bool = False) -> dict[str, dict[str, np.ndarray]]:
  """Sequence probabilities by hand (:func:`spiel_ext.eval.vnm.
  sequence_probabilities`); ``eps`` > 0 reads a perturbed strategy as the
  choice it stands for; ``conditional`` gives player 1's raise-variant
  sequences given the first action (the paper's drawing)."""
  return vnm.sequence_probabilities(game, strategy, eps,
                                    conditional=conditional)


def near_threshold(strengths: np.ndarray, thresholds: Sequence[float],
                   hands: int) -> np.ndarray:
  """Hands within 2/N of a threshold (boundary effects of the discrete
  game, which the paper expects)."""
  if not len(thresholds):
    return np.zeros(len(strengths), dtype=bool)
  distance = np.min(np.abs(strengths[:, None] - np.asarray(thresholds)[None]),
                    axis=1)
  return distance < 2.0 / hands
