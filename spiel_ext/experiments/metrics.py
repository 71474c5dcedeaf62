"""What experiments measure, by name: functions (game, policy) -> float.

NashConv and exploitability (NashConv / players) are distinct names and
never mixed. ``nash_conv[eps=E]`` is the NashConv of the E-perturbed game
(best responses restricted to strategies playing every action with
probability >= E; Schulze 2023, eq. 24).
"""

from __future__ import annotations

import functools
import re
from typing import Any, Callable

from spiel_ext import eval as se
from spiel_ext.engine import GameTree, compile_game
from spiel_ext.eval.metrics import exploitability_and_nash_conv


@functools.lru_cache(maxsize=8)
def _tree_of_string(game: str) -> GameTree:
  """The compiled tree of a game string (see :func:`_tree`)."""
  return compile_game(game)


def _tree(game: Any) -> GameTree:
  """The compiled tree of ``game``, a game string's loaded once per process
  (the last 8): loading a game string builds the game again, and for a game
  written in Python (an unknown environment draws its hidden chance) that
  was most of an evaluation point's time."""
  if isinstance(game, str):
    return _tree_of_string(game)
  return compile_game(game)


def nash_conv(game: str, policy: Any) -> float:
  """NashConv of ``policy`` (the ``nash_conv`` metric)."""
  return se.nash_conv(_tree(game), policy)


def perturbed_nash_conv(game: str, policy: Any, *,
                        min_action_prob: float) -> float:
  """NashConv in the eps-perturbed game (``nash_conv[eps=E]``)."""
  return se.nash_conv(_tree(game), policy, min_action_prob=min_action_prob)


def value_player_0(game: str, policy: Any) -> float:
  """The expected payoff of player 0 (the papers' player 1)."""
  return float(se.expected_values(_tree(game), policy)[0])


def exploitability(game: str, policy: Any) -> dict[str, float]:
  """NashConv / players (the ``exploitability`` metric) with the NashConv
  it divides, from one NashConv (the platform records whichever of the two
  a unit asked for)."""
  value, total = exploitability_and_nash_conv(_tree(game), policy)
  return {"exploitability": value, "nash_conv": total}


def sequential_gap(game: str, policy: Any) -> dict[str, float]:
  """Mean and max of the perfect-Bayesian gap, from one computation (the
  platform records whichever of the two a unit asked for)."""
  gap = se.sequential_gap(_tree(game), policy)
  return {"sequential_gap_mean": gap.mean, "sequential_gap_max": gap.max}


def kuhn_alpha(game: str, policy: Any) -> float:
  """Kuhn poker's alpha: player 0's Bet probability with the Jack."""
  return se.kuhn_alpha(_tree(game), policy)


# A metric returns its value, or a dict of values of several metric names
# it computes together (each computed once per evaluation point).
METRICS: dict[str, Callable[[str, Any], float | dict[str, float]]] = {
    "nash_conv": nash_conv,
    "exploitability": exploitability,
    "sequential_gap_mean": sequential_gap,
    "sequential_gap_max": sequential_gap,
    "kuhn_alpha": kuhn_alpha,
    "value_player_0": value_player_0,
}
_PERTURBED = re.compile(r"nash_conv\[eps=([0-9.eE+-]+)\]$")


def perturbed_metric_name(min_action_prob: float) -> str:
  """The name of the eps-perturbed game's NashConv."""
  return f"nash_conv[eps={min_action_prob:g}]"


def metric_function(name: str) -> Callable[[str, Any], Any]:
  """The function of a metric name (see :data:`METRICS`; also
  ``nash_conv[eps=E]``, E in (0, 1)).

  Raises:
    ValueError: an unknown name, listing the accepted ones.
  """
  if name in METRICS:
    return METRICS[name]
  match = _PERTURBED.match(name)
  if match:
    try:
      eps = float(match.group(1))
    except ValueError:
      eps = -1.0
    if 0.0 < eps < 1.0:
      return functools.partial(perturbed_nash_conv, min_action_prob=eps)
  raise ValueError(f"unknown metric {name!r}; accepted: {sorted(METRICS)} "
                   "and nash_conv[eps=E] with 0 < E < 1.")


def check_metrics(names) -> None:
  """Raises ValueError naming the first unknown metric in ``names``."""
  for name in names:
    metric_function(name)
