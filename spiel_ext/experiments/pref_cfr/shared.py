"""What the Pref-CFR paper's measures and figures share (Ju, Tellier, Sun,
Fang, Luo, "Preference-CFR: Beyond Nash Equilibrium for Better Game
Strategies", 2025, arXiv:2411.01217): the variants a run holds, their rows,
and the verdict over several cases.
"""

from __future__ import annotations

from typing import Sequence

import pandas as pd

from spiel_ext.experiments.declaration import Settings
from spiel_ext.results.report import Variant


def variants_run(variants: Sequence[Variant],
                 settings: Settings) -> list[Variant]:
  """The variants whose algorithms all ran with ``settings``.

  Args:
    variants: the experiment's variants, in order.
    settings: the settings the run used.

  Returns:
    The variants that ran, in order.
  """
  return [variant for variant in variants
          if set(variant.algorithms) <= set(settings.algorithms)]


def variant_frame(frame: pd.DataFrame, variant: Variant) -> pd.DataFrame:
  """The rows of ``variant``'s algorithms.

  Args:
    frame: the run's results.
    variant: a variant of the experiment.

  Returns:
    The rows whose algorithm the variant runs.
  """
  return frame[frame.algorithm.isin(variant.algorithms)]


def cases_verdict(cases: Sequence[bool] | None) -> str:
  """holds if every case holds, holds partly if some do; not run without
  cases.

  Args:
    cases: one bool per case, or None.

  Returns:
    The verdict.
  """
  if not cases:
    return "not run"
  if all(cases):
    return "holds"
  return "holds partly" if any(cases) else "does not hold"
