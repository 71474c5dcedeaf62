"""Strategy arrays <-> OpenSpiel policies, and the check that a policy is one.

A strategy array is [num_infosets, num_distinct_actions] with rows in the
compiled tree's infoset order, the row order of OpenSpiel's
``TabularPolicy(game)``. Modules, by job:

- :mod:`.tabular`: :class:`TabularPolicy` (OpenSpiel's, also readable as
  the dict pyspiel's C++ functions take) and :func:`to_tabular_policy`.
- :mod:`.conversion`: :func:`policy_to_array` (any OpenSpiel policy, a
  callable, a dict or an array, to an array) and :func:`as_strategy` (the
  same, checked to be a strategy).
- :mod:`.perturbation`: the eps-perturbed strategies of Schulze's
  generalized fictitious play (:func:`mix_in`,
  :func:`remove_perturbation`, :func:`check_min_action_prob`).

:func:`check_strategy` and ``STRATEGY_TOLERANCE`` are the engine's
(:mod:`spiel_ext.engine.strategy`), re-exported here: finite, non-negative
probabilities, 0 on illegal actions, each infoset's row summing to 1 within
``STRATEGY_TOLERANCE``.
"""

from __future__ import annotations

from spiel_ext.engine import STRATEGY_TOLERANCE, check_strategy
from spiel_ext.policy.conversion import PolicyLike, as_strategy, policy_to_array
from spiel_ext.policy.perturbation import (check_min_action_prob, mix_in,
                                           remove_perturbation)
from spiel_ext.policy.tabular import (TabularPolicy, _rebuild_policy,  # noqa: F401  pylint: disable=unused-import
                                      to_tabular_policy)

__all__ = ["PolicyLike", "STRATEGY_TOLERANCE", "TabularPolicy", "as_strategy",
           "check_min_action_prob", "check_strategy", "mix_in",
           "policy_to_array", "remove_perturbation", "to_tabular_policy"]
