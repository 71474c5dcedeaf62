"""External-sampling Monte Carlo CFR, as OpenSpiel's ``ExternalSamplingSolver``.

Marc Lanctot, Kevin Waugh, Martin Zinkevich, Michael Bowling, "Monte Carlo
Sampling for Regret Minimization in Extensive Games", NeurIPS 2009,
section 3.2 (external sampling) and Algorithm 1. One iteration walks the
tree once per player i = 0, 1, ..., n - 1, in turn (each walk sees the
regrets the previous ones left): the walk for i draws one outcome at every
chance history and one action at every other player's history (from the
current strategy), and explores every action at i's histories. For the
sampled terminals z in Z_I below an infoset I of i it adds the sampled
counterfactual regret

  r~(I, a) = v~(I, a) - sum_b sigma(I, b) v~(I, b),
  v~(I, a) = sum_{z in Z_I sampled} u_i(z) x_i(z[I]a, z),

the value of eq. (6) with q(z) = x_{-i}(z), whose expectation is CFR's
counterfactual regret v_i(I, a) - v_i(I) (Lemma 1); then
sigma(I) <- regret matching on R(I). The walk is the engine's
(:func:`spiel_ext.engine.sampling_passes.external_sampling_pass`); regret
matching is the CFR family's kernel.

The average strategy, as OpenSpiel's two ``average_type`` options:

- "simple" (the default): in the walk for i, each sampled history of
  player i + 1 (mod n) adds that player's current strategy, unweighted,
  to its infoset's cumulative policy. In expectation that is
  sigma(I) times the player's own reach (the sampling probability of the
  others and of chance is the same every iteration); with n > 2 players it
  is biased, as OpenSpiel's is.
- "full": after the walks, a full-width pass adds x_i(I) sigma(I) for every
  player and infoset (OpenSpiel sums x_i(h) over the histories of I, the
  same after normalisation).

OpenSpiel starts both tables at 1e-6 per entry (a uniform start); here they
start at 0, which regret matching also reads as uniform, so that iteration
1's regrets are exactly the sampled ones. All random numbers come from the
solver's generator: each iteration draws a block of uniforms (as many as the
walks can use) that the walks consume in order, so a seed fixes the run and
a checkpoint resumes it bit for bit.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numba
import numpy as np
import pyspiel

from spiel_ext.algorithms.base import Solver, SolverConfig, set_field
from spiel_ext.algorithms.checks import check_seed, short_repr
from spiel_ext.algorithms.regret_rules import regret_matching
from spiel_ext.engine import GameTree, passes
from spiel_ext.engine.sampling_passes import (external_sampling_draws,
                                              external_sampling_pass,
                                              tree_depth)

_jit = numba.njit(cache=True, nogil=True)

AVERAGE_TYPES = ("simple", "full")


def average_type_name(value: Any) -> str:
  """``value`` as "simple" or "full": the strings themselves, or OpenSpiel's
  ``external_sampling_mccfr.AverageType`` / ``pyspiel.MCCFRAverageType``
  members SIMPLE and FULL.

  Raises:
    ValueError: naming ``average_type`` and the accepted values.
  """
  name = value
  if type(value).__name__ in ("AverageType", "MCCFRAverageType"):
    name = str(getattr(value, "name", "")).lower()
  if not isinstance(name, str) or name not in AVERAGE_TYPES:
    raise ValueError(
        "average_type must be 'simple' or 'full' (or OpenSpiel's "
        f"AverageType.SIMPLE / FULL); got {short_repr(value)}.")
  return name


@dataclasses.dataclass(frozen=True, eq=False)
class ExternalSamplingConfig(SolverConfig):
  """External-sampling MCCFR's hyperparameters (OpenSpiel's defaults).

  Attributes:
    average_type: "simple" (default, as OpenSpiel: each walk adds the
      current strategy of the next player at the histories it samples) or
      "full" (a full-width pass weighted by own reach after the walks).
      OpenSpiel's ``AverageType.SIMPLE`` / ``FULL`` (Python) and
      ``pyspiel.MCCFRAverageType`` members are accepted and stored as the
      strings.
    seed: an int in 0..2**63 - 1 (default 0, as OpenSpiel's C++ solver) or
      None (fresh entropy), seeding the solver's generator, which draws
      every chance outcome and sampled action.
  """

  average_type: str = "simple"
  seed: int | None = 0

  def __post_init__(self) -> None:
    set_field(self, "average_type", average_type_name(self.average_type))
    set_field(self, "seed", check_seed(self.seed))


@_jit
def _run_iteration(node_player, infoset, action, chance_prob, utility,
                   subtree_end, legal, own_sequence, player_starts, draws,
                   full_average, uniforms, cumulative_regret,
                   cumulative_policy, current, cfv, visited, averaged,
                   stack_node, stack_child, stack_value):
  """One iteration: a walk and a regret update per player in turn, then the
  average's update. ``uniforms`` holds sum(draws) uniforms, draws[i] of
  them for player i's walk."""
  num_players = player_starts.shape[0] - 1
  num_actions = current.shape[1]
  offset = 0
  for player in range(num_players):
    average_player = -1 if full_average else (player + 1) % num_players
    _, num_visited, num_averaged, _ = external_sampling_pass(
        node_player, infoset, action, chance_prob, utility, subtree_end,
        current, player, average_player,
        uniforms[offset:offset + draws[player]], cfv, visited, averaged,
        stack_node, stack_child, stack_value)
    offset += draws[player]
    for j in range(num_averaged):
      row = averaged[j]
      for a in range(num_actions):
        cumulative_policy[row, a] += current[row, a]
    for j in range(num_visited):
      row = visited[j]
      value = 0.0
      for a in range(num_actions):
        value += current[row, a] * cfv[row, a]
      for a in range(num_actions):
        if legal[row, a]:
          cumulative_regret[row, a] += cfv[row, a] - value
      regret_matching(cumulative_regret[row:row + 1], legal[row:row + 1],
                      current[row:row + 1])
  if full_average:
    for player in range(num_players):
      start, stop = player_starts[player], player_starts[player + 1]
      reach = passes.own_reach_of_infosets(own_sequence, current, start, stop)
      for row in range(start, stop):
        for a in range(num_actions):
          cumulative_policy[row, a] += reach[row - start] * current[row, a]


class ExternalSamplingSolver(Solver):
  """External-sampling MCCFR with OpenSpiel's arguments and semantics.

  A drop-in for ``open_spiel.python.algorithms.external_sampling_mccfr.
  ExternalSamplingSolver(game, average_type)`` and pyspiel's C++
  ``ExternalSamplingMCCFRSolver(game, seed, avg_type)``: one
  ``evaluate_and_update_policy()`` (or ``iteration()``) is one sampled walk
  per player, in turn, as their ``iteration()`` / ``run_iteration()``.
  ``average_policy()`` is a fresh TabularPolicy keyed as OpenSpiel's
  (uniform at infosets never averaged), ``current_policy()`` the regret-
  matched strategy, one TabularPolicy updated in place.

  Args:
    game: a pyspiel game, a game string or a compiled GameTree (sequential,
      perfect-recall infostate strings, any number of players, zero-sum or
      not).
    args: OpenSpiel's positional form: ``average_type`` (or a lone config).
    config: an :class:`ExternalSamplingConfig` (default: its defaults).
    shortcuts: the config's fields as keywords (``average_type="full"``,
      ``seed=3``).

  Raises:
    TypeError: ``seed`` not an int, or a keyword that is no field of the
      config.
    ValueError: ``average_type`` not "simple" or "full", ``seed`` outside
      0..2**63 - 1, or a game the engine cannot compile or whose infostate
      strings lack perfect recall.

  Attributes:
    cumulative_regret: R, [infosets, actions].
    cumulative_policy: the average's numerator, [infosets, actions].

  Example::

    solver = ExternalSamplingSolver("kuhn_poker", seed=0)
    for _ in range(10000):
      solver.evaluate_and_update_policy()
    spiel_ext.eval.nash_conv("kuhn_poker", solver.average_policy())
  """

  Config = ExternalSamplingConfig
  _STATE_ARRAYS = ("cumulative_regret", "cumulative_policy", "_current")
  _CURRENT_ARRAY = "_current"
  _POSITIONAL = ("average_type",)

  def __init__(self, game: pyspiel.Game | str | GameTree, *args: Any,
               config: ExternalSamplingConfig | None = None,
               **shortcuts: Any):
    config = self._positional(args, config, shortcuts)
    super().__init__(game, config, **shortcuts)

  def _check_game(self) -> None:
    if not self._tree.perfect_recall:
      raise ValueError(
          f"{self._tree.game_string}'s infostate strings do not have perfect "
          "recall; external sampling visits an infoset once per walk only "
          "under perfect recall.")

  def _build(self) -> None:
    tree = self._tree
    shape = (tree.num_infosets, tree.num_distinct_actions)
    self.cumulative_regret = np.zeros(shape)
    self.cumulative_policy = np.zeros(shape)
    self._current = tree.uniform_policy()
    self._full_average = self._config.average_type == "full"
    self._draws = np.array([
        external_sampling_draws(tree.parent, tree.node_player, player)
        for player in range(tree.num_players)], dtype=np.int64)
    self._player_starts = np.array(
        [rows.start for rows in tree.player_rows] +
        [tree.player_rows[-1].stop], dtype=np.int64)
    # Scratch the walks write into (no state: each walk overwrites what it
    # reads).
    self._uniforms = np.empty(int(self._draws.sum()))
    self._cfv = np.zeros(shape)
    self._visited = np.empty(max(tree.num_infosets, 1), dtype=np.int64)
    self._averaged = np.empty(max(int(self._draws.max(initial=0)), 1),
                              dtype=np.int64)
    depth = tree_depth(tree.parent) + 1
    self._stack_node = np.empty(depth, dtype=np.int64)
    self._stack_child = np.empty(depth, dtype=np.int64)
    self._stack_value = np.empty(depth)
    self._arguments = (
        tree.node_player, tree.infoset, tree.action, tree.chance_prob,
        tree.utility, tree.subtree_end, tree.infoset_legal,
        tree.own_sequence, self._player_starts, self._draws,
        self._full_average, self._uniforms, self.cumulative_regret,
        self.cumulative_policy, self._current, self._cfv, self._visited,
        self._averaged, self._stack_node, self._stack_child,
        self._stack_value)

  # ------------------------------------------------------------ iteration
  def evaluate_and_update_policy(self) -> None:
    """Runs one iteration: a sampled walk and regret update per player, in
    turn (OpenSpiel's ``iteration()``), then the average's update."""
    self._rng.random(out=self._uniforms)
    _run_iteration(*self._arguments)
    self._iteration += 1

  # -------------------------------------------------------------- outputs
  def average_strategy(self) -> np.ndarray:
    """Normalised cumulative policy; uniform where nothing was accumulated
    (as OpenSpiel's average policy at infosets never sampled)."""
    totals = self.cumulative_policy.sum(axis=1, keepdims=True)
    empty = totals == 0.0
    with np.errstate(invalid="ignore", divide="ignore"):
      average = self.cumulative_policy / totals
    if empty.any():
      return np.where(empty, self._tree.uniform_policy(), average)
    return average
