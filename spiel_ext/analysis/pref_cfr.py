"""What the Pref-CFR paper's analyses share (Ju, Tellier, Sun, Fang, Luo,
"Preference-CFR: Beyond Nash Equilibrium for Better Game Strategies", 2025,
arXiv:2411.01217): the variants a run holds, their rows, and the verdict
over several cases.

A *variant* is anything with ``name``, ``label``, ``algorithms``,
``description`` and ``is_paper_setting`` (the experiments' ``Variant``).
"""

from __future__ import annotations

from typing import Sequence

import pandas as pd


def variants_run(variants: Sequence, settings) -> list:
  """The variants whose algorithms all ran with ``settings``."""
  return [variant for variant in variants
          if set(variant.algorithms) <= set(settings.algorithms)]


def variant_frame(frame: pd.DataFrame, variant) -> pd.DataFrame:
  """The rows of ``variant``'s algorithms."""
  return frame[frame.algorithm.isin(variant.algorithms)]


def cases_verdict(cases: Sequence[bool] | None) -> str:
  """holds if every case holds, holds partly if some do; not run without
  cases."""
  if not cases:
    return "not run"
  if all(cases):
    return "holds"
  return "holds partly" if any(cases) else "does not hold"
