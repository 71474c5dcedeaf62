"""Evaluation: exact metrics on the compiled tree, no sampling.

NashConv, exploitability, expected and best-response values, head-to-head
payoffs (:mod:`.metrics`), the perfect-Bayesian gap (:mod:`.sequential`)
forced paths (:mod:`.forced`), strategy readouts (:mod:`.readouts`) and
play-style readouts at a player's first decisions (:mod:`.styles`).
"""

from typing import TYPE_CHECKING

from spiel_ext._lazy import lazy_attributes
from spiel_ext.eval.forced import force_actions
from spiel_ext.eval.metrics import (NashConvResult, best_response_values,
                                    expected_values, exploitability,
                                    head_to_head, head_to_head_matrix,
                                    nash_conv, profile_values)
from spiel_ext.eval.readouts import action_probability, kuhn_alpha
from spiel_ext.eval.sequential import SequentialGap, sequential_gap

if TYPE_CHECKING:
  from spiel_ext.eval.styles import (first_decision_distribution,
                                     hand_strategies)

# The style readouts build pandas tables: imported on first use, so that
# ``from spiel_ext import exploitability`` does not import pandas.
_LAZY = {"first_decision_distribution": "spiel_ext.eval.styles",
         "hand_strategies": "spiel_ext.eval.styles"}

__all__ = ["NashConvResult", "best_response_values", "expected_values",
           "exploitability", "head_to_head", "head_to_head_matrix",
           "nash_conv", "profile_values", "SequentialGap", "sequential_gap",
           "force_actions", "action_probability", "kuhn_alpha",
           "first_decision_distribution", "hand_strategies"]


__getattr__, __dir__ = lazy_attributes(__name__, globals(), _LAZY)
