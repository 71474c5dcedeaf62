"""What several experiments' analyses share: final means over seeds."""

from __future__ import annotations

from typing import Sequence

import pandas as pd


def final_means(frame: pd.DataFrame,
                by: Sequence[str] = ("game", "algorithm")) -> pd.DataFrame:
  """[``by``] x metric: each metric's mean over seeds (or runs) at the last
  iteration it was measured, per group of ``by``.

  Args:
    frame: the results table (columns ``by``, metric, iteration, value).
    by: the columns that name a line ("algorithm", or "game" and
      "algorithm").
  """
  keys = [*by, "metric"]
  last = frame[frame.iteration == frame.groupby(keys)["iteration"].transform(
      "max")]
  index = list(by) if len(by) > 1 else by[0]
  return last.pivot_table(index=index, columns="metric", values="value",
                          aggfunc="mean")
