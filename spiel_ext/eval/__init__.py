"""Evaluation: exact metrics on the compiled tree, no sampling.

NashConv, exploitability, expected and best-response values, head-to-head
payoffs (:mod:`.metrics`), the perfect-Bayesian gap (:mod:`.sequential`)
forced paths (:mod:`.forced`) and strategy readouts (:mod:`.readouts`).
"""

from spiel_ext.eval.forced import force_actions
from spiel_ext.eval.metrics import (NashConvResult, best_response_values,
                                    expected_values, exploitability,
                                    head_to_head, head_to_head_matrix,
                                    nash_conv)
from spiel_ext.eval.readouts import action_probability, kuhn_alpha
from spiel_ext.eval.sequential import SequentialGap, sequential_gap

__all__ = ["NashConvResult", "best_response_values", "expected_values",
           "exploitability", "head_to_head", "head_to_head_matrix",
           "nash_conv", "SequentialGap", "sequential_gap", "force_actions",
           "action_probability", "kuhn_alpha"]
