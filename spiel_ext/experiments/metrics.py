"""What experiments measure, by name: functions (game, policy) -> float.

NashConv and exploitability (NashConv / players) are distinct names and
never mixed.
"""

from __future__ import annotations

from typing import Any, Callable


def nash_conv(game: str, policy: Any) -> float:
  from spiel_ext import eval as se  # pylint: disable=g-import-not-at-top
  return se.nash_conv(game, policy)


def exploitability(game: str, policy: Any) -> float:
  from spiel_ext import eval as se  # pylint: disable=g-import-not-at-top
  return se.exploitability(game, policy)


def sequential_gap(game: str, policy: Any) -> dict[str, float]:
  """Mean and max of the perfect-Bayesian gap, from one computation (the
  platform records whichever of the two a unit asked for)."""
  from spiel_ext import eval as se  # pylint: disable=g-import-not-at-top
  gap = se.sequential_gap(game, policy)
  return {"sequential_gap_mean": gap.mean, "sequential_gap_max": gap.max}


def kuhn_alpha(game: str, policy: Any) -> float:
  from spiel_ext import eval as se  # pylint: disable=g-import-not-at-top
  return se.kuhn_alpha(game, policy)


# A metric returns its value, or a dict of values of several metric names
# it computes together (each computed once per evaluation point).
METRICS: dict[str, Callable[[str, Any], float | dict[str, float]]] = {
    "nash_conv": nash_conv,
    "exploitability": exploitability,
    "sequential_gap_mean": sequential_gap,
    "sequential_gap_max": sequential_gap,
    "kuhn_alpha": kuhn_alpha,
}


def check_metrics(names) -> None:
  unknown = [name for name in names if name not in METRICS]
  if unknown:
    raise ValueError(f"unknown metric(s) {unknown}; accepted: "
                     f"{sorted(METRICS)}.")
