"""External-sampling Monte Carlo CFR, as OpenSpiel's ``ExternalSamplingSolver``.

Marc Lanctot, Kevin Waugh, Martin Zinkevich, Michael Bowling, "Monte Carlo
Sampling for Regret Minimization in Extensive Games", NeurIPS 2009,
section 3.2 (external sampling). One iteration walks the tree once per
player i = 0, 1, ..., n - 1, in turn (each walk sees the regrets the
previous ones left): the walk for i draws one outcome at every chance
history and one action at every other player's history (from the current
strategy), and explores every action at i's histories. For the
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
  player j = i + 1 (mod n) adds j's current strategy, unweighted, to its
  infoset's cumulative policy. With two players a history h of I is
  sampled with probability x_j(h) times chance's reach of h, so in
  expectation I gets x_j(I) sigma(I) times a chance factor that is the same
  every iteration: CFR's average. With n > 2 the reach of the other
  sampled players enters too, a bias OpenSpiel's solver shares.
- "full": after the walks, a full-width pass adds x_i(I) sigma(I) for every
  player and infoset (OpenSpiel sums x_i(h) over the histories of I, the
  same after normalisation).

OpenSpiel starts both tables at 1e-6 per entry (a uniform start); here they
start at 0, which regret matching also reads as uniform, so that iteration
1's regrets are exactly the sampled ones. Every random number comes from the
solver's generator: an iteration's walks consume a block of uniforms (as
many as they can use) in order; blocks are drawn several at a time (the
same stream as one at a time) and the undrawn ones are part of the state,
so a seed fixes the run and a checkpoint resumes it bit for bit.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numba
import numpy as np
import pyspiel

from spiel_ext.algorithms.base import Solver, SolverConfig, set_field
from spiel_ext.algorithms.checks import check_seed, short_repr
from spiel_ext.algorithms.regret_rules import regret_matching_rows
from spiel_ext.algorithms.solver_docs import example_section
from spiel_ext.engine import GameTree, passes
from spiel_ext.engine.sampling_passes import (external_sampling_draws,
                                              external_sampling_pass,
                                              tree_depth)

_jit = numba.njit(cache=True, nogil=True)

AVERAGE_TYPES = ("simple", "full")

# About how many uniforms the solver draws from its generator at once.
_UNIFORMS_PER_DRAW = 4096


def average_type_name(value: Any) -> str:
  """``value`` as "simple" or "full": the strings themselves, or OpenSpiel's
  ``external_sampling_mccfr.AverageType`` / ``pyspiel.MCCFRAverageType``
  members SIMPLE and FULL.

  Args:
    value: the ``average_type`` to read.

  Returns:
    "simple" or "full".

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
def _run_iteration(structure: np.ndarray, outcomes: np.ndarray,
                   legal: np.ndarray, schedule: np.ndarray,
                   tables: np.ndarray, uniforms: np.ndarray,
                   next_block: np.ndarray, int_scratch: np.ndarray,
                   float_scratch: np.ndarray) -> None:
  """One iteration: a walk and a regret update per player in turn, then the
  average's update (see :meth:`ExternalSamplingSolver._build` for the
  packed arguments). Uses block next_block[0] of ``uniforms`` and
  advances it."""
  node_player, infoset, action, subtree_end = (structure[0], structure[1],
                                               structure[2], structure[3])
  chance_prob = outcomes[0]
  cumulative_regret, cumulative_policy, current = (tables[0], tables[1],
                                                   tables[2])
  num_infosets, num_actions = current.shape
  num_players = outcomes.shape[0] - 1
  full_average = schedule[0] != 0
  depth = schedule[1]
  player_starts = schedule[2:num_players + 3]
  draws = schedule[num_players + 3:2 * num_players + 3]
  own_sequence = schedule[2 * num_players + 3:]
  most_draws = draws.max()
  visited = int_scratch[:num_infosets]
  averaged = int_scratch[num_infosets:num_infosets + most_draws]
  stack_node = int_scratch[num_infosets + most_draws:
                           num_infosets + most_draws + depth]
  stack_child = int_scratch[num_infosets + most_draws + depth:]
  cfv = float_scratch[:num_infosets * num_actions].reshape(
      (num_infosets, num_actions))
  stack_value = float_scratch[num_infosets * num_actions:]
  offset = next_block[0] * draws.sum()
  next_block[0] += 1
  for player in range(num_players):
    average_player = -1 if full_average else (player + 1) % num_players
    _, num_visited, num_averaged, _ = external_sampling_pass(
        node_player, infoset, action, chance_prob, outcomes[1 + player],
        subtree_end, current, player, average_player,
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
      regret_matching_rows(cumulative_regret[row:row + 1], legal[row:row + 1],
                           current[row:row + 1])
  if full_average:
    for player in range(num_players):
      start, stop = player_starts[player], player_starts[player + 1]
      reach = passes.own_reach_of_infosets(own_sequence, current, start, stop)
      for row in range(start, stop):
        for a in range(num_actions):
          cumulative_policy[row, a] += reach[row - start] * current[row, a]


class ExternalSamplingSolver(Solver):
  __doc__ = """External-sampling MCCFR with OpenSpiel's arguments and semantics.

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

  """ + example_section('ExternalSamplingSolver("kuhn_poker", seed=0)', 10000,
                        measure='"kuhn_poker"')

  Config = ExternalSamplingConfig
  _STATE_ARRAYS = ("cumulative_regret", "cumulative_policy", "_current",
                   "_uniforms", "_next_block")
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
    num_players = tree.num_players
    shape = (tree.num_infosets, tree.num_distinct_actions)
    # An iteration is one kernel call, and numba spends ~55 ns unboxing each
    # argument (most of an iteration on Kuhn), so the arrays are packed:
    # the regrets, the average's numerator and the current strategy are
    # views of one table.
    self._tables = np.zeros((3,) + shape)
    self.cumulative_regret = self._tables[0]
    self.cumulative_policy = self._tables[1]
    self._current = self._tables[2]
    self._current[...] = tree.uniform_policy()
    draws = np.array([
        external_sampling_draws(tree.parent, tree.node_player, player)
        for player in range(num_players)], dtype=np.int64)
    player_starts = [rows.start for rows in tree.player_rows]
    player_starts.append(tree.player_rows[-1].stop)
    self._structure = np.stack([tree.node_player, tree.infoset, tree.action,
                                tree.subtree_end]).astype(np.int32)
    self._outcomes = np.vstack([tree.chance_prob[None, :], tree.utility.T])
    depth = tree_depth(tree.parent) + 1
    # [full average?, stack depth, player row starts, draws per walk, own
    # sequences] (see _run_iteration).
    self._schedule = np.concatenate([
        [self._config.average_type == "full", depth], player_starts, draws,
        tree.own_sequence]).astype(np.int64)
    # Uniforms for several iterations are drawn at once (the same stream as
    # one draw per iteration); _next_block is the next iteration's block.
    block = max(int(draws.sum()), 1)
    self._blocks = max(1, _UNIFORMS_PER_DRAW // block)
    self._uniforms = np.zeros(self._blocks * block)
    self._next_block = np.array([self._blocks], dtype=np.int64)
    # The walks' scratch: [visited, averaged, stack nodes, stack children]
    # and [counterfactual values, stack values].
    self._int_scratch = np.zeros(
        tree.num_infosets + int(draws.max(initial=0)) + 2 * depth,
        dtype=np.int64)
    self._float_scratch = np.zeros(shape[0] * shape[1] + depth)
    self._arguments = (self._structure, self._outcomes, tree.infoset_legal,
                       self._schedule, self._tables, self._uniforms,
                       self._next_block, self._int_scratch,
                       self._float_scratch)

  # ------------------------------------------------------------ iteration
  def evaluate_and_update_policy(self) -> None:
    """Runs one iteration: a sampled walk and regret update per player, in
    turn (OpenSpiel's ``iteration()``), then the average's update."""
    if self._next_block[0] >= self._blocks:
      self._rng.random(out=self._uniforms)
      self._next_block[0] = 0
    _run_iteration(*self._arguments)
    self._iteration += 1

  def load_state_dict(self, state: dict[str, Any]) -> None:
    """Restores a :meth:`state_dict` (see :meth:`Solver.load_state_dict`),
    the generator's undrawn uniforms included.

    Args:
      state: a :meth:`state_dict` of this class, game and config.

    Raises:
      ValueError: as :meth:`Solver.load_state_dict`, or a block index
        outside the checkpoint's uniforms.
    """
    next_block = np.asarray(state.get("_next_block")) if isinstance(
        state, dict) else None
    if (next_block is None or next_block.shape != (1,) or
        next_block.dtype.kind not in "iu" or
        not 0 <= int(next_block[0]) <= self._blocks):
      raise ValueError(f"checkpoint array _next_block is corrupt: "
                       f"{short_repr(next_block)} (expected one int in "
                       f"0..{self._blocks}).")
    super().load_state_dict(state)

  # -------------------------------------------------------------- outputs
  def average_strategy(self) -> np.ndarray:
    """Normalised cumulative policy; uniform where nothing was accumulated
    (as OpenSpiel's average policy at infosets never sampled).

    Returns:
      A new [num_infosets, num_distinct_actions] array.

    Raises:
      RuntimeError: the cumulative policy holds NaN or infinite entries.
    """
    return self._normalised_average(self.cumulative_policy)
