"""Claims judged against a run's results, as the report's rows.

The claims themselves are data (:mod:`spiel_ext.analysis.claims`); this
module turns them into :class:`spiel_ext.results.report.Claim` rows.
"""

from __future__ import annotations

from typing import Sequence

from spiel_ext.analysis.claims import (Artefact, ClaimSpec, Measurement,
                                       RunResults, Threshold, figure, table)
from spiel_ext.results.report import Claim

__all__ = ["Artefact", "ClaimSpec", "Measurement", "RunResults", "Threshold",
           "figure", "judge", "table"]


def judge(specs: Sequence[ClaimSpec], results: RunResults, experiment: str,
          command: str) -> list[Claim]:
  """The report's rows for ``specs`` on one experiment's run."""
  rows = []
  for spec in specs:
    found = spec.measure(results)
    if found is None:
      continue
    for measurement in ([found] if isinstance(found, Measurement) else found):
      rows.append(Claim(
          spec.paper,
          spec.statement if measurement.claim is None else measurement.claim,
          (spec.paper_value if measurement.paper_value is None
           else measurement.paper_value),
          measurement.ours, spec.verdict(measurement.value),
          spec.evidence.cited_as(experiment), command, measurement.setting))
  return rows
