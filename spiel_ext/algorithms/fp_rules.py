"""The rules that tell the fictitious-play variants apart, and their kernels.

A fictitious-play iteration (see :mod:`spiel_ext.algorithms.fictitious_play`)
is fixed except for two rules, each a small object:

  DecisionRule  decide(context) -> b           what is mixed in
  StepRule      step(b, context) -> new rows   how it is mixed in

Both see an :class:`FPContext`: the tree, the player and their rows, the
strategy played against (sigma_t), the step's t, the eps of the perturbed
game and the rules' own arrays. The rules are frozen value objects holding
only their options (registered as plain data, so a config holding them
checkpoints as plain data); whatever depends on the game or on eps comes
with the context. A rule that keeps arrays across iterations declares them
with ``initial_state(tree) -> {name: array}`` (first axis the infosets), as
the CFR family's rules do (:mod:`spiel_ext.algorithms.regret_rules`); the
solver creates them, hands them to every call (``context.state``, sliced to
the player's rows) and saves them in ``state_dict()`` and checkpoints.

Decision rules, for player i against the current average sigma_t:
  FullBestResponse  XFP (Johannes Heinrich, Marc Lanctot, David Silver,
                    "Fictitious Self-Play in Extensive-Form Games", ICML 2015,
                    Algorithm 1): a full best response to sigma_t^{-i}
                    (ties as OpenSpiel's, or split evenly).
  BestDecision      GXFP (Tim P. Schulze, "A Generalized Extensive-Form
                    Fictitious Play Algorithm", 2023, arXiv:2310.09658,
                    eq. 4): at every infoset, argmax_a of the counterfactual
                    action value under sigma_t (the opponents' and the
                    player's own sigma_t below I).
  BeliefDecision    BUFP (Qi Ju, Zhemei Fang, Yunfeng Luo, "Beyond Nash
                    Equilibrium: Achieving Bayesian Perfect Equilibrium with
                    Belief Update Fictitious Play", DDCLS 2024,
                    arXiv:2409.02706, section 4, eq. 9): the same argmax
                    weighted by the belief B(I, h); where the others never
                    reach I the belief falls back to chance reach x uniformly
                    random opponents (:meth:`GameTree.beliefs`).
With min_action_prob = eps the mixed-in profile is b_eps = eps + (1 - |A|
eps) b, and XFP's best response is computed in the eps-restricted space
(Schulze 2023, eq. 24).

Step rules (in :mod:`spiel_ext.algorithms.fp_steps`, importable from here),
with alpha = 1/(t+1):
  EmpiricalStep     sigma_{t+1}(I) = (t sigma_t(I) + b_t(I)) / (t+1) at every
                    infoset (Schulze 2023, eq. 3; BUFP(EF), Ju, Fang, Luo
                    2024, eq. 13; Hendon, Jacobsen, Sloth's stepsize).
  CountingStep      the same, with exact integer counts of best decisions
                    (its own array ``decision_counts``).
  RealizationStep   sigma_{t+1}(I,a) = sigma_t + alpha x_b(I) (b - sigma_t) /
                    ((1-alpha) x_sigma(I) + alpha x_b(I))  (XFP; BUFP(X)),
                    x = the player's own realization weight; optionally
                    renormalised each iteration (Schulze 2023, eq. 18).
A step returns the player's new rows of sigma; the solver writes them.
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Mapping
from typing import NamedTuple, Protocol

import numba
import numpy as np

from spiel_ext.algorithms.checks import check_bool, check_choice
# The step rules, importable from here as before they had their own module.
from spiel_ext.algorithms.fp_steps import (  # pylint: disable=unused-import
    CountingStep, EmpiricalStep, RealizationStep, count_unit,
    realization_step)
from spiel_ext.algorithms.protocol import plain_data
from spiel_ext.algorithms.regret_rules import (CONTEXT_ROWS_DOC,
                                               CONTEXT_STATE_DOC)
from spiel_ext.engine import GameTree

_jit = numba.njit(cache=True, nogil=True)

# BeliefDecision's continuations: how the player's own play below I is
# valued.
CONTINUATIONS = ("average", "best_response")


# ----------------------------------------------------------------- kernels
@_jit
def argmax_profile(values: np.ndarray, legal: np.ndarray, even_split: bool,
                   out: np.ndarray) -> None:
  """One-hot argmax per row over legal actions (ties to the lowest id), or
  with ``even_split`` the uniform mix over all exact maximisers.

  Args:
    values: [rows, actions] action values.
    legal: [rows, actions], True where an action is legal.
    even_split: True to split ties evenly, False for the lowest id.
    out: [rows, actions], written: the profile.
  """
  for row in range(values.shape[0]):
    top = -np.inf
    for a in range(values.shape[1]):
      if legal[row, a] and values[row, a] > top:
        top = values[row, a]
    count = 0
    first = -1
    for a in range(values.shape[1]):
      out[row, a] = 0.0
      if legal[row, a] and values[row, a] == top:
        count += 1
        if first < 0:
          first = a
    if even_split:
      for a in range(values.shape[1]):
        if legal[row, a] and values[row, a] == top:
          out[row, a] = 1.0 / count
    else:
      out[row, first] = 1.0


# -------------------------------------------------------------- interfaces
class FPContext(NamedTuple):
  tree: GameTree
  player: int
  rows: slice
  legal: np.ndarray
  strategy: np.ndarray
  t: int
  min_action_prob: float
  initial_sigma: np.ndarray
  state: Mapping[str, np.ndarray] = types.MappingProxyType({})

# The docstring shares attribute text with the other rule context.
FPContext.__doc__ = (
    f"""What one player's fictitious-play update hands its rules.

  Attributes:
    tree: the compiled game.{CONTEXT_ROWS_DOC}
    strategy: the profile decided against and stepped from, [infosets,
      actions] (every player's rows): sigma_t in the solver's iterations.
      Read it; the solver writes the step's result.
    t: the step's t: the step mixes with weight 1/(t+1) (the iteration, or
      one less with ``first_step_one``).
    min_action_prob: eps of the perturbed game (0: the game itself).
    initial_sigma: sigma_1 (eps-mixed), [infosets, actions].{CONTEXT_STATE_DOC}
  """)


class DecisionRule(Protocol):
  """The profile b_t [player rows, actions] to mix in for
  ``context.player`` against ``context.strategy`` (before the eps
  perturbation)."""

  def decide(self, context: FPContext, /) -> np.ndarray:
    """The profile to mix in.

    Args:
      context: the player's :class:`FPContext`.

    Returns:
      b_t, [player rows, actions].
    """


class StepRule(Protocol):
  """The player's new rows of sigma after mixing ``profile`` (the decision
  rule's b_t) into ``context.strategy`` at step t."""

  def step(self, profile: np.ndarray, context: FPContext,
           /) -> np.ndarray:
    """The player's next rows of sigma.

    Args:
      profile: b_t, [player rows, actions].
      context: the player's :class:`FPContext`.

    Returns:
      The new rows, [player rows, actions].
    """


# ------------------------------------------------------------ decision rules
def _one_hot(tree: GameTree, player: int, best: np.ndarray) -> np.ndarray:
  rows = tree.player_rows[player]
  profile = np.zeros((rows.stop - rows.start, tree.num_distinct_actions))
  profile[np.arange(profile.shape[0]), best[rows]] = 1.0
  return profile


def _even_split(tree: GameTree, player: int,
                action_values: np.ndarray) -> np.ndarray:
  """The uniform mix over the exact maximisers of [infosets, A] action
  values, on ``player``'s rows."""
  rows = tree.player_rows[player]
  values = np.ascontiguousarray(action_values[rows])
  profile = np.empty_like(values)
  argmax_profile(values, tree.infoset_legal[rows], True, profile)
  return profile


class _EvenSplitRule(Protocol):
  """A rule with an ``even_split`` flag (checked in its ``__post_init__``)."""

  @property
  def even_split(self) -> bool:
    ...  # pragma: no cover


def _check_even_split(rule: _EvenSplitRule) -> None:
  object.__setattr__(rule, "even_split",
                     check_bool("even_split", rule.even_split))


@plain_data
@dataclasses.dataclass(frozen=True)
class FullBestResponse:
  """XFP: a full best response to the others' part of sigma_t.

  By default computed by backward induction in OpenSpiel's order, so that
  exact ties (common in small poker games) break as OpenSpiel's XFP breaks
  them. With ``even_split`` every infoset mixes its exact maximisers evenly
  (still a best response: each maximiser has the best value), as the BUFP
  authors' code splits ties; an infoset the others never reach has all
  action values 0, so it gets the uniform mix. With eps > 0 the response
  is taken in the eps-restricted space (Schulze 2023, eq. 24).

  Attributes:
    even_split: False (default: OpenSpiel's tie-breaking) or True.
  """

  even_split: bool = False

  def __post_init__(self) -> None:
    _check_even_split(self)

  def decide(self, context: FPContext) -> np.ndarray:
    """A best response to the others' part of sigma_t (see the class
    docstring).

    Args:
      context: the player's :class:`FPContext` (sigma_t is its
        ``strategy``, eps its ``min_action_prob``).

    Returns:
      b_t, a new [player rows, actions] array: one-hot rows, or with
      ``even_split`` the even mix over each infoset's exact maximisers.
    """
    tree, strategy, player = context.tree, context.strategy, context.player
    if self.even_split:
      _, _, action_values = tree.best_response(
          strategy, player, min_action_prob=context.min_action_prob)
      return _even_split(tree, player, action_values)
    best = tree.best_response_actions(
        strategy, player, min_action_prob=context.min_action_prob)
    return _one_hot(tree, player, best)


@plain_data
@dataclasses.dataclass(frozen=True)
class BestDecision:
  """GXFP: argmax of counterfactual action values under sigma_t (ties to
  the lowest action id, or with ``even_split`` split evenly).

  Attributes:
    even_split: False (default: ties to the lowest id) or True.
  """

  even_split: bool = False

  def __post_init__(self) -> None:
    _check_even_split(self)

  def decide(self, context: FPContext) -> np.ndarray:
    """The argmax of the counterfactual action values under sigma_t.

    Args:
      context: the player's :class:`FPContext` (sigma_t is its
        ``strategy``).

    Returns:
      b_t, a new [player rows, actions] array: one-hot rows (the lowest
      maximiser), or with ``even_split`` the even mix over the maximisers.
    """
    values = context.tree.player_counterfactual_values(
        context.strategy, context.player).cfv
    profile = np.empty_like(values)
    argmax_profile(values, context.legal, self.even_split, profile)
    return profile


@plain_data
@dataclasses.dataclass(frozen=True)
class BeliefDecision:
  """BUFP: argmax of belief-weighted action values, fallback belief off path.

  continuation="average" (default): the player's own sigma_t below I (Ju,
  Fang, Luo 2024, eq. 9, like GXFP's best decision). Where the others reach
  I the belief is proportional to x_{-i}, so the argmax is GXFP's (computed
  from the same counterfactual values, so the two agree exactly there); only
  unreached infosets use the fallback belief.

  continuation="best_response": the player's own later choices are the
  belief best decisions too, found by backward induction (a sequential best
  response to the beliefs). On reached infosets that is a full best
  response, so XFP's realization-weighted step stays a fictitious-play
  step; with the "average" continuation that step can stall, because an
  infoset the decisions stop reaching gets zero realization weight and
  never improves.

  Attributes:
    continuation: "average" (default) or "best_response".
    even_split: False (default: ties to the lowest id, or OpenSpiel's order
      where the decision is a plain best response) or True.
  """

  continuation: str = "average"
  even_split: bool = False

  def __post_init__(self) -> None:
    check_choice("continuation", self.continuation, CONTINUATIONS)
    _check_even_split(self)

  def decide(self, context: FPContext) -> np.ndarray:
    """The argmax of the belief-weighted action values, continued as
    ``continuation`` says (see the class docstring).

    Args:
      context: the player's :class:`FPContext` (sigma_t is its
        ``strategy``).

    Returns:
      b_t, a new [player rows, actions] array: one distribution over the
      legal actions per infoset of the player.
    """
    if self.continuation == "best_response":
      return self._best_response_continuation(context)
    return self._average_continuation(context)

  def _best_response_continuation(self, context: FPContext) -> np.ndarray:
    tree, strategy, player = context.tree, context.strategy, context.player
    belief, on_path = tree.beliefs(strategy, player)
    if on_path.all():
      # Beliefs proportional to x_{-i} everywhere: a plain best response.
      return FullBestResponse(self.even_split).decide(context)
    _, best, action_values = tree.weighted_best_response(
        strategy, player, infoset_weight=belief,
        min_action_prob=context.min_action_prob)
    if self.even_split:
      return _even_split(tree, player, action_values)
    return _one_hot(tree, player, best)

  def _average_continuation(self, context: FPContext) -> np.ndarray:
    tree, strategy, player = context.tree, context.strategy, context.player
    player_pass = tree.player_counterfactual_values(strategy, player)
    values = player_pass.cfv
    off_path = player_pass.others_reach == 0.0
    if off_path.any():
      # Where the others never reach I, value actions under the fallback
      # belief (which also covers infosets behind probability-0 chance).
      belief, _ = tree.beliefs(strategy, player)
      fallback = tree.belief_action_values(strategy, player, belief)
      values = np.where(off_path[:, None], fallback, values)
    profile = np.empty_like(values)
    argmax_profile(values, context.legal, self.even_split, profile)
    return profile
