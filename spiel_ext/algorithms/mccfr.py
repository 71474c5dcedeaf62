"""Chance-sampled CFR (Monte Carlo CFR with chance sampling).

Marc Lanctot, Kevin Waugh, Martin Zinkevich, Michael Bowling, "Monte Carlo
Sampling for Regret Minimization in Extensive Games", NeurIPS 2009,
section 3 (chance sampling): each player update draws one outcome at every
chance node and traverses every player action below them; the sampled
counterfactual value of eq. (6) is then the opponents' reach times the
utility, because the chance reach cancels against its sampling probability.
The engine does this with a ``chance_prob`` override
(:meth:`GameTree.sample_chance`); regrets, averaging and regret matching
are the regret-minimisation core's.

The defaults follow RLCard's CFR agent (Zha et al., "RLCard: A Toolkit
for Reinforcement Learning in Card Games", 2019), which the BUFP paper's
experiments use. One iteration is one traversal per player, each after a
new deal; both players' regrets come from the same current strategy, which
is updated once after both traversals. A deal is a deck shuffled once:
every branch of a traversal that reaches a chance event draws the same
card (RLCard restores the deck on each step back). The average strategy
accumulates t x own reach x sigma only at the infosets the deal reaches.
In expectation these give vanilla CFR's updates; they differ in variance.
"""

from __future__ import annotations

import dataclasses

import numba
import numpy as np

from spiel_ext.algorithms.base import SolverConfig, set_field
from spiel_ext.algorithms.checks import check_bool
from spiel_ext.algorithms.regret import (RegretMinimizationSolver,
                                         check_regret_options)
from spiel_ext.algorithms.regret_rules import (AveragingRule, PlainRegrets,
                                               PowerAveraging, RegretMatching,
                                               RegretRule, StrategyRule)
from spiel_ext.algorithms.solver_docs import example_section
from spiel_ext.engine import GameView, PlayerPass, passes

_jit = numba.njit(cache=True, nogil=True)


@_jit
def _chance_depths(parent: np.ndarray, node_player: np.ndarray,
                   chance: int) -> np.ndarray:
  """For every history, how many chance nodes lie above it (parents come
  before their children)."""
  depth = np.zeros(parent.shape[0], dtype=np.int64)
  for h in range(1, parent.shape[0]):
    depth[h] = depth[parent[h]] + (node_player[parent[h]] == chance)
  return depth


@_jit
def _sampled_reach(parent: np.ndarray, sample: np.ndarray,
                   out: np.ndarray) -> None:
  """out[h] = 1 if every chance edge above h is the drawn one, else 0."""
  out[0] = 1.0
  for h in range(1, parent.shape[0]):
    out[h] = out[parent[h]] * sample[h]


@dataclasses.dataclass(frozen=True, eq=False)
class ChanceSampledCFRConfig(SolverConfig):
  """Chance-sampled CFR's hyperparameters (defaults: RLCard's CFR agent).

  Attributes:
    alternating_updates: False (default, RLCard's order: every player's
      regrets from the same current strategy) or True.
    linear_averaging: True (default, RLCard's weight t on iteration t's
      average contribution) or False (uniform weights, as vanilla CFR).
    correlated_chance: True (default, RLCard's deck) or False. True: the
      k-th chance event of every branch draws with the same random number,
      so branches that reach chance nodes with the same outcomes draw the
      same outcome (one public card per traversal in Leduc). False: every
      chance node draws independently.
    sampled_averaging: True (default, RLCard's) or False. True: the average
      accumulates at an infoset only when the deal reaches it (once per
      history of it the deal reaches). False: at every infoset, every
      iteration, as full-width CFR does.
    random_init: False (default: zero regrets) or True for U(0,
      init_scale) cumulative regrets and policies drawn with ``seed``.
    init_scale: the random start's upper end, in (0, 1e6] (default 1).
    seed: an int in 0..2**63 - 1 (default 0) or None; seeds the chance
      draws (and ``random_init``).
  """

  alternating_updates: bool = False
  linear_averaging: bool = True
  correlated_chance: bool = True
  sampled_averaging: bool = True
  random_init: bool = False
  init_scale: float = 1.0
  seed: int | None = 0

  def __post_init__(self) -> None:
    for name in ("linear_averaging", "correlated_chance",
                 "sampled_averaging"):
      set_field(self, name, check_bool(name, getattr(self, name)))
    check_regret_options(self)

  def rules(self) -> tuple[RegretRule, AveragingRule, StrategyRule]:
    """The variant's three rules.

    Returns:
      (regret rule, averaging rule, strategy rule): ``PlainRegrets()``,
      ``PowerAveraging(1.0)`` (or ``0.0`` without linear averaging),
      ``RegretMatching()``.
    """
    return (PlainRegrets(),
            PowerAveraging(1.0 if self.linear_averaging else 0.0),
            RegretMatching())


class ChanceSampledCFRSolver(RegretMinimizationSolver):
  __doc__ = """CFR with chance sampling, as RLCard's CFR agent runs it.

  Args:
    game: a pyspiel game, a game string or a compiled GameTree (sequential,
      perfect-recall infostate strings, any number of players).
    config: a :class:`ChanceSampledCFRConfig` (default: its defaults),
      which documents every hyperparameter: alternating_updates,
      linear_averaging, correlated_chance, sampled_averaging, random_init,
      init_scale, seed.
    shortcuts: the config's fields as keywords (``seed=3``).

  Raises:
    TypeError: a bool option that is not a bool, or ``seed`` not an int.
    ValueError: ``seed`` outside 0..2**63 - 1 or a game the engine cannot
      compile.

  """ + example_section('ChanceSampledCFRSolver("kuhn_poker", seed=0)', 2000,
                        measure='"kuhn_poker"')

  Config = ChanceSampledCFRConfig

  def _build(self) -> None:
    super()._build()
    config = self._config
    self._correlated = config.correlated_chance
    self._sampled_averaging = config.sampled_averaging
    tree = self._tree
    if self._correlated:
      depth = _chance_depths(tree.parent, tree.node_player, passes.CHANCE)
      # The chance nodes in the order sample_chance_outcomes visits them.
      self._chance_depth = depth[tree.node_player == passes.CHANCE]
      self._num_depths = int(self._chance_depth.max(initial=-1)) + 1
    if self._sampled_averaging:
      self._player_histories = [
          np.flatnonzero(tree.node_player == player)
          for player in range(tree.num_players)]

  def _sample(self) -> GameView:
    """The game (a GameView) with one chance outcome drawn at every chance
    node."""
    tree = self._tree
    if not self._correlated:
      uniforms = self._rng.random(tree.num_chance_nodes)
    else:
      uniforms = self._rng.random(self._num_depths)[self._chance_depth]
    return tree.with_chance_sample(uniforms)

  def _compute_update(self, player: int) -> PlayerPass:
    tree = self._tree
    sample = self._sample()
    update = sample.player_counterfactual_values(self._current, player)
    if not self._sampled_averaging:
      return update
    reached = np.empty(tree.num_histories)
    _sampled_reach(tree.parent, sample.chance_prob, reached)
    histories = self._player_histories[player]
    rows = tree.player_rows[player]
    visits = np.bincount(tree.infoset[histories] - rows.start,
                         weights=reached[histories],
                         minlength=rows.stop - rows.start)
    # The average's increment is weight x own reach x sigma (see
    # absorb_iteration): scaling own reach by the visits counts it only
    # where the deal went.
    return PlayerPass(update.cfv, update.own_reach * visits,
                      update.others_reach)
