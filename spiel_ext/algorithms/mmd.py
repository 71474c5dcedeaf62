"""Magnetic mirror descent (MMD) with the dilated entropy.

Samuel Sokota, Ryan D'Orazio, J. Zico Kolter, Nicolas Loizou, Marc Lanctot,
Ioannis Mitliagkas, Noam Brown, Christian Kroer, "A Unified Approach to
Reinforcement Learning, Quantal Response Equilibria, and Two-Player
Zero-Sum Games", ICLR 2023, arXiv:2206.05825: the magnetic mirror
descent update (their Algorithm 3.1, the non-Euclidean proximal gradient
step of section 3, with the regulariser g = psi), run on the sequence form
with the dilated entropy psi as both mirror map and regulariser, as
OpenSpiel's ``open_spiel.python.algorithms.mmd_dilated.MMDDilatedEnt``,
which :class:`MMDSolver` matches iterate for iterate.

Each player i keeps a sequence-form strategy x_i (x_i(I, a) = x_i(I)
sigma_i(I, a), the player's own reach of I times the behavioural
strategy). One iteration updates both players from the same profile
(simultaneous updates, as OpenSpiel; alternating updates are an option):
with stepsize eta and
regularisation weight alpha,

  x_i <- argmax_x  eta <G_i, x> - alpha eta psi(x) - B_psi(x; x_i)

where G_i is the gradient of player i's sequence-form payoff (G_i(I, a) =
sum over the terminals z whose last own sequence is (I, a) of x_{-i}(z)
u_i(z), the opponent's and chance's reach times the utility) and B_psi the
Bregman divergence of psi. Its solution is the dilated-entropy prox of

  g_i = (-eta G_i - grad psi(x_i)) / (1 + eta alpha),
  grad psi(x_i)(I, a) = log sigma_i(I, a) + 1 - |C(I, a)|,

with |C(I, a)| the number of player i's infosets whose previous own
sequence is (I, a) (the gradient is 0 below infosets x_i does not reach).
The prox is computed on the tree bottom-up: at each infoset J of player
i, deepest first, sigma_i(J) = softmax(-g_i(J, .)), and the parent
sequence's entry of g_i grows by sum_b sigma_i(J, b) (g_i(J, b) +
log sigma_i(J, b)) (the kernels are in
:mod:`spiel_ext.engine.dilated_passes`; G_i is one forward reach pass of
the engine and one sweep over the terminals). With alpha > 0
the last iterate converges linearly to the alpha-QRE of the reduced normal
form for small enough stepsizes (the paper's Theorem 3.4; OpenSpiel's
default is eta = alpha / max |A|^2, A the sequence-form payoff matrix).
With alpha = 0 it is mirror descent ascent, whose average approaches a
Nash equilibrium (to within a stepsize-dependent error for a fixed
stepsize).

The average is OpenSpiel's: the uniform mean of the sequence forms x_0
(uniform play), x_1, ..., x_t, read back as a behavioural strategy
(sigma(I, a) = mean x(I, a) / sum_b mean x(I, b), uniform where that is 0).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pyspiel

from spiel_ext.algorithms.base import Solver, SolverConfig, set_field
from spiel_ext.algorithms.checks import check_bool, check_real, check_seed
from spiel_ext.engine import GameTree, dilated_passes, passes
from spiel_ext.policy import TabularPolicy, to_tabular_policy

__all__ = ["MAX_STEP_SCALE", "MMDConfig", "MMDSolver",
           "sequence_form_payoff_bound"]

# The largest stepsize * max(max|u|, alpha, 1): larger steps would overflow
# the prox's exponents and sums.
MAX_STEP_SCALE = 1e200


@dataclasses.dataclass(frozen=True, eq=False)
class MMDConfig(SolverConfig):
  """MMD's hyperparameters.

  Attributes:
    alpha: weight of the dilated-entropy regularisation, a finite number
      >= 0 (default 0.05, the alpha of OpenSpiel's MMD example on Leduc;
      OpenSpiel's constructor has no default). With alpha > 0 the last
      iterate converges to the alpha-QRE; with alpha = 0 (give a stepsize
      then) the average approaches a Nash equilibrium, to within an error
      that shrinks with the stepsize.
    stepsize: eta, a finite number > 0, or None (default) for OpenSpiel's
      alpha / max |A|^2 with A the game's sequence-form payoff matrix.
      None with alpha = 0 is refused (OpenSpiel warns and runs a stepsize
      of 0, which never changes the iterate).
    alternating_updates: False (default, OpenSpiel's MMD: both players
      update from the same profile) or True (player 1 updates against
      player 0's new strategy).
    seed: an int in 0..2**63 - 1 (default 0) or None; MMD draws no random
      numbers, the seed is kept for the common solver contract.
  """

  alpha: float = 0.05
  stepsize: float | None = None
  alternating_updates: bool = False
  seed: int | None = 0

  def __post_init__(self) -> None:
    set_field(self, "alpha", check_real("alpha", self.alpha, 0.0))
    if self.stepsize is not None:
      set_field(self, "stepsize",
                check_real("stepsize", self.stepsize, 0.0,
                           low_inclusive=False))
    elif self.alpha == 0.0:
      raise ValueError(
          "stepsize must be a finite number > 0 when alpha = 0; got None "
          "(the default alpha / max|A|^2 would be 0, a step that never "
          "moves).")
    set_field(self, "alternating_updates",
              check_bool("alternating_updates", self.alternating_updates))
    set_field(self, "seed", check_seed(self.seed))


def sequence_form_payoff_bound(tree: GameTree) -> float:
  """max |A[s0, s1]| over the two-player sequence-form payoff matrix
  A[s0, s1] = sum of chance(z) u_0(z) over the terminals z whose last
  sequences of players 0 and 1 are s0 and s1 (the empty sequence
  included): the L of OpenSpiel's default stepsize alpha / L^2.

  Args:
    tree: a compiled two-player game.

  Returns:
    The largest absolute entry (0 for a game whose payoffs are all 0).
  """
  terminals = tree.terminals
  chance = tree.uniform_reach()[terminals, tree.num_players]
  width = np.int64(tree.num_infosets) * tree.num_distinct_actions + 1
  # The empty sequence (-1) is column 0.
  keys = ((tree.own_edges[0][terminals] + 1) * width +
          tree.own_edges[1][terminals] + 1)
  _, entry = np.unique(keys, return_inverse=True)
  totals = np.bincount(entry.reshape(-1),
                       weights=chance * tree.utility[terminals, 0])
  return float(np.abs(totals).max()) if totals.size else 0.0


class MMDSolver(Solver):
  """Magnetic mirror descent with the dilated entropy; matches OpenSpiel's
  ``mmd_dilated.MMDDilatedEnt`` iterate for iterate, with the same
  positional arguments: ``MMDSolver(game, alpha, stepsize=None)``.

  ``current_policy()`` is the last iterate (the same TabularPolicy on every
  call, updated in place); ``average_policy()`` a fresh TabularPolicy of
  the average sequence form, as OpenSpiel's ``get_avg_policies()``. At an
  infoset a player's own strategy no longer reaches (a probability that
  underflowed to 0 above it) the current policy is uniform, as OpenSpiel
  reads a sequence form of weight 0; a probability that underflows to 0
  stays 0 (where OpenSpiel's log(0) turns the iterate into NaN).
  OpenSpiel's method names are aliases: ``update_sequences()``,
  ``get_policies()``, ``get_avg_policies()``, ``get_gap()``.

  Args:
    game: a pyspiel game, a game string or a compiled GameTree: a
      two-player zero-sum sequential game with perfect-recall infostate
      strings.
    args: OpenSpiel's positional form, ``alpha, stepsize`` in that order
      (or a lone config).
    config: an :class:`MMDConfig` (default: its defaults).
    shortcuts: the config's fields as keywords, e.g. ``alpha=0.1``,
      ``stepsize=1.0``.

  Raises:
    TypeError: a keyword that is no field of the config, or
      ``alternating_updates`` not a bool, ``seed`` not an int.
    ValueError: alpha not a finite number >= 0, stepsize not None or a
      finite number > 0 (or None with alpha = 0), a stepsize so large that
      stepsize * max(max|u|, alpha, 1) exceeds ``MAX_STEP_SCALE`` (1e200),
      a game that is not two-player zero-sum or lacks perfect recall, or
      one whose payoffs are all 0 with stepsize None.

  Attributes:
    own_reach: x_i(I), the acting player's own reach of each infoset under
      the current iterate, [infosets].
    average_sequence: the mean of the sequence forms x_0, ..., x_t,
      [infosets, actions].

  Example::

    solver = MMDSolver(pyspiel.load_game("kuhn_poker"), 0.05)
    for _ in range(1000):
      solver.evaluate_and_update_policy()
    spiel_ext.eval.nash_conv(solver.game, solver.current_policy())  # ~0.09
  """

  Config = MMDConfig
  _STATE_ARRAYS = ("_current", "own_reach", "average_sequence")
  _CURRENT_ARRAY = "_current"
  _POSITIONAL = ("alpha", "stepsize")

  def __init__(self, game: pyspiel.Game | str | GameTree, *args: Any,
               config: MMDConfig | None = None, **shortcuts: Any):
    config = self._positional(args, config, shortcuts)
    super().__init__(game, config, **shortcuts)

  def _check_game(self) -> None:
    tree = self._tree
    game_type = self._game.get_type()
    if tree.num_players != 2:
      raise ValueError(
          f"MMDSolver needs a two-player zero-sum game; {tree.game_string} "
          f"has {tree.num_players} players.")
    if game_type.utility != pyspiel.GameType.Utility.ZERO_SUM:
      raise ValueError(
          f"MMDSolver needs a two-player zero-sum game; {tree.game_string}'s "
          f"utility type is {game_type.utility.name}.")
    if not tree.perfect_recall:
      raise ValueError(
          f"{tree.game_string}'s infostate strings do not have perfect "
          "recall; the dilated entropy needs the sequence form.")

  def _build(self) -> None:
    tree = self._tree
    self._stepsize = self._resolve_stepsize()
    self._legal = tree.infoset_legal
    self._num_children = dilated_passes.children_per_sequence(
        tree.own_sequence, tree.num_infosets, tree.num_distinct_actions)
    self._current = tree.uniform_policy()
    self.own_reach = np.concatenate([
        passes.own_reach_of_infosets(
            tree.own_sequence, self._current, rows.start, rows.stop)
        for rows in tree.player_rows])
    self.average_sequence = self.own_reach[:, None] * self._current
    terminals = tree.terminals
    self._terminal_sequence = [tree.own_edges[player][terminals]
                               for player in range(2)]
    # Player 1's payoff is -u_0, as OpenSpiel's payoff matrix has it.
    payoff = np.ascontiguousarray(tree.utility[terminals, 0])
    self._terminal_payoff = [payoff, -payoff]

  def _resolve_stepsize(self) -> float:
    """``config.stepsize``, or OpenSpiel's default alpha / max|A|^2 on
    this game; refused where a step would overflow or never move."""
    tree = self._tree
    config = self._config
    if config.stepsize is not None:
      stepsize, name = config.stepsize, "stepsize"
    else:
      name = "alpha"
      bound = sequence_form_payoff_bound(tree)
      if bound == 0.0:
        raise ValueError(
            f"stepsize must be given for {tree.game_string}: its payoffs are "
            "all 0, so the default alpha / max|A|^2 is undefined.")
      with np.errstate(over="ignore"):
        stepsize = float(np.float64(config.alpha) / np.float64(bound)**2)
      if not stepsize > 0.0:
        raise ValueError(
            f"alpha = {config.alpha!r} gives the default stepsize alpha / "
            f"max|A|^2 = 0 on {tree.game_string}; give a stepsize > 0.")
    # |G_i| <= max |u|: keep eta G and eta alpha far from overflowing.
    largest_utility = float(np.abs(tree.utility).max(initial=0.0))
    if not (stepsize * max(largest_utility, config.alpha, 1.0)
            <= MAX_STEP_SCALE):
      raise ValueError(
          f"{name} = {getattr(config, name)!r} gives a stepsize of "
          f"{stepsize:g} on {tree.game_string}; stepsize * max(max|u|, "
          f"alpha, 1) must be at most {MAX_STEP_SCALE:g}.")
    return stepsize

  # -------------------------------------------------------------- options
  @property
  def alpha(self) -> float:
    """The regularisation weight (``config.alpha``)."""
    return self._config.alpha

  @property
  def stepsize(self) -> float:
    """The stepsize in use: ``config.stepsize``, or OpenSpiel's default
    alpha / max |A|^2 on this game."""
    return self._stepsize

  # ------------------------------------------------------- player updates
  def payoff_gradient(self, player: int) -> np.ndarray:
    """G_i: the gradient of ``player``'s sequence-form payoff at the
    current profile, on the player's rows ([player rows, actions]; the
    empty sequence left out).

    Args:
      player: 0 or 1.

    Returns:
      A new [player rows, num_distinct_actions] array.

    Raises:
      ValueError: ``player`` is not a player of the game.
    """
    tree = self._tree
    tree.check_player(player)
    rows = tree.player_rows[player]
    gradient = np.zeros((rows.stop - rows.start, tree.num_distinct_actions))
    dilated_passes.sequence_payoff_gradient(
        tree.parent, tree.parent_slot, tree.edge_policy_index,
        tree.chance_prob, self._current, player, tree.terminals,
        self._terminal_sequence[player], self._terminal_payoff[player],
        rows.start, gradient)
    return gradient

  def _compute_update(self, player: int) -> np.ndarray:
    return self.payoff_gradient(player)

  def _apply_update(self, player: int, update: np.ndarray, t: int) -> None:
    tree = self._tree
    rows = tree.player_rows[player]
    dilated_passes.mirror_descent_step(
        update, self._current, self.own_reach, self._num_children,
        self._legal, tree.own_sequence, rows.start, rows.stop,
        self._stepsize, self._config.alpha, self.average_sequence, t)

  # -------------------------------------------------------------- outputs
  def average_strategy(self) -> np.ndarray:
    """The average sequence form as a behavioural strategy, [infosets,
    actions]; uniform where its weight is 0.

    Returns:
      A new [num_infosets, num_distinct_actions] array.
    """
    totals = self.average_sequence.sum(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
      average = self.average_sequence / totals
    return np.where(totals > 0.0, average, self._tree.uniform_policy())

  def gap(self) -> float:
    """The saddle-point gap of the alpha-regularised game at the current
    iterate (OpenSpiel's ``get_gap()``): sum over the players of
    max_x' [u_i(x', x_{-i}) - alpha psi(x')] - [u_i(x) - alpha psi(x_i)],
    0 exactly at the alpha-QRE.

    Returns:
      The gap, a float (>= 0 up to rounding).

    Raises:
      ValueError: alpha = 0 (the regularised game is the game itself).
    """
    alpha = self._config.alpha
    if alpha == 0.0:
      raise ValueError("gap() needs alpha > 0; with alpha = 0 use "
                       "spiel_ext.eval.nash_conv on the policies.")
    tree = self._tree
    total = 0.0
    for player in range(2):
      rows = tree.player_rows[player]
      gradient = self.payoff_gradient(player)
      sequence = self.own_reach[rows, None] * self._current[rows]
      value = float(np.sum(gradient * sequence))
      entropy = dilated_passes.dilated_entropy_value(
          self._current, self.own_reach, self._legal, rows.start, rows.stop)
      response = np.empty(tree.policy_shape)
      root = dilated_passes.dilated_entropy_prox(
          -gradient / alpha, self._legal, tree.own_sequence, rows.start,
          rows.stop, response)
      total += -alpha * root - value + alpha * entropy
    return total

  # ------------------------------------------------- OpenSpiel's names
  def update_sequences(self) -> None:
    """Alias of :meth:`evaluate_and_update_policy` (OpenSpiel's name)."""
    self.evaluate_and_update_policy()

  def get_policies(self) -> TabularPolicy:
    """The last iterate as a fresh TabularPolicy (OpenSpiel's name).

    Returns:
      A new policy holding a copy of the current strategy.
    """
    return to_tabular_policy(self._tree, self._current, copy=True)

  def get_avg_policies(self) -> TabularPolicy:
    """Alias of :meth:`average_policy` (OpenSpiel's name).

    Returns:
      The average policy, a fresh TabularPolicy.
    """
    return self.average_policy()

  def get_gap(self) -> float:
    """Alias of :meth:`gap` (OpenSpiel's name).

    Returns:
      The gap, a float.

    Raises:
      ValueError: alpha = 0.
    """
    return self.gap()

