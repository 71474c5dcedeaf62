"""The fictitious-play family: XFP, GXFP, BUFP(EF), BUFP(X) (SPEC 3.2).

One core, three small parts: what is mixed in each iteration (a decision
rule), how it is mixed (a step rule), and options shared by all.

Decision rules, for player i against the current average sigma_t:
  FullBestResponse  XFP (Heinrich, Lanctot, Silver 2015, Algorithm 1): a full
                    best response to sigma_t^{-i} (engine best-response pass).
  BestDecision      GXFP (Schulze, seed 002 eq. 4): at every infoset,
                    argmax_a of the counterfactual action value under sigma_t
                    (the opponents' and the player's own sigma_t below I).
  BeliefDecision    BUFP (Ju, Fang, Luo, seed 000 section 4): the same
                    argmax weighted by the belief B(I, h); where the others
                    never reach I the belief falls back to chance reach x
                    uniformly random opponents (GameTree.beliefs).
With min_action_prob = eps the mixed-in profile is b_eps = eps + (1 - |A|
eps) b, and XFP's best response is computed in the eps-restricted space
(seed 002 eq. 24).

Step rules, with alpha = 1/(t+1):
  EmpiricalStep     sigma_{t+1}(I) = (t sigma_t(I) + b_t(I)) / (t+1) at every
                    infoset (GXFP eq. 3, BUFP(EF), Hendon et al.'s EFFP
                    stepsize); optionally with exact integer counting.
  RealizationStep   sigma_{t+1}(I,a) = sigma_t + alpha x_b(I) (b - sigma_t) /
                    ((1-alpha) x_sigma(I) + alpha x_b(I))  (XFP; BUFP(X)),
                    x = the player's own realization weight; optionally
                    renormalised each iteration (Schulze eq. 18).
"""

from __future__ import annotations

import math

import numba
import numpy as np

from spiel_ext.algorithms.base import Solver, check_choice, check_real
from spiel_ext.engine import GameTree, passes
from spiel_ext.policy import policy_to_array

_jit = numba.njit(cache=True, nogil=True)

TIE_RULES = ("lowest", "even")


@_jit
def argmax_profile(values, legal, even_split, out):
  """One-hot argmax per row over legal actions (ties to the lowest id), or
  with ``even_split`` the uniform mix over all exact maximisers."""
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


# ------------------------------------------------------------ decision rules
class FullBestResponse:
  """XFP: a full best response to the others' part of sigma_t.

  Computed by backward induction in OpenSpiel's order, so that exact ties
  (common in small poker games) break as OpenSpiel's XFP breaks them.
  """

  def decide(self, tree: GameTree, strategy, player, min_action_prob, legal,
             even_split):
    del legal, even_split
    best = tree.best_response_actions(strategy, player,
                                      min_action_prob=min_action_prob)
    rows = tree.player_rows[player]
    profile = np.zeros((rows.stop - rows.start, tree.num_distinct_actions))
    profile[np.arange(profile.shape[0]), best[rows]] = 1.0
    return profile


class BestDecision:
  """GXFP: argmax of counterfactual action values under sigma_t."""

  def decide(self, tree: GameTree, strategy, player, min_action_prob, legal,
             even_split):
    del min_action_prob
    values = tree.player_counterfactual_values(strategy, player).cfv
    profile = np.empty_like(values)
    argmax_profile(values, legal, even_split, profile)
    return profile


class BeliefDecision:
  """BUFP: argmax of belief-weighted action values, fallback belief off path.

  continuation="average": the player's own sigma_t below I (seed 000 eq. 9,
  like GXFP's best decision). Where the others reach I the belief is
  proportional to x_{-i}, so the argmax is GXFP's (computed from the same
  counterfactual values, so the two agree exactly there); only unreached
  infosets use the fallback belief.

  continuation="best_response": the player's own later choices are the
  belief best decisions too, found by backward induction (a sequential best
  response to the beliefs). On reached infosets that is a full best
  response, so XFP's realization-weighted step stays a fictitious-play
  step; with the "average" continuation that step can stall, because an
  infoset the decisions stop reaching gets zero realization weight and
  never improves.
  """

  def __init__(self, continuation: str):
    self.continuation = continuation

  def decide(self, tree: GameTree, strategy, player, min_action_prob, legal,
             even_split):
    if self.continuation == "best_response":
      belief, on_path = tree.beliefs(strategy, player)
      if on_path.all():
        # Beliefs proportional to x_{-i} everywhere: a plain best response.
        best = tree.best_response_actions(strategy, player,
                                          min_action_prob=min_action_prob)
      else:
        _, best, _ = tree.weighted_best_response(
            strategy, player, infoset_weight=belief,
            min_action_prob=min_action_prob)
      rows = tree.player_rows[player]
      profile = np.zeros((rows.stop - rows.start, tree.num_distinct_actions))
      profile[np.arange(profile.shape[0]), best[rows]] = 1.0
      return profile
    player_pass = tree.player_counterfactual_values(strategy, player)
    values = player_pass.cfv
    off_path = player_pass.others_reach == 0.0
    if off_path.any():
      rows = tree.player_rows[player]
      fallback = tree.counterfactual_values(
          strategy, reach=tree.uniform_reach(),
          values=tree.values(strategy))[rows]
      values = np.where(off_path[:, None], fallback, values)
    profile = np.empty_like(values)
    argmax_profile(values, legal, even_split, profile)
    return profile


# ---------------------------------------------------------------- steps
def mix_in(profile, legal, min_action_prob):
  """b_eps = eps + (1 - |A| eps) b on legal actions."""
  if min_action_prob == 0.0:
    return profile
  num_actions = legal.sum(axis=1, keepdims=True)
  return legal * min_action_prob + (1.0 - num_actions * min_action_prob) * (
      profile)


class EmpiricalStep:
  """sigma_{t+1} = (t sigma_t + b_t) / (t + 1) at every infoset."""

  def step(self, solver, player, profile, t):
    rows = solver.tree.player_rows[player]
    solver.sigma[rows] = (t * solver.sigma[rows] +
                              mix_in(profile, solver.legal[rows],
                                     solver.min_action_prob)) / (t + 1)


class CountingStep:
  """The empirical step with exact integer counts of best decisions.

  sigma_{T+1} = (sigma_1 + sum_t b_t) / (T + 1) with sum_t b_t held in
  int64 units of 1/L, L = lcm(1..max |A|) (an even split over k maximisers
  adds L/k), so the average carries no round-off between iterations.
  """

  def __init__(self, tree: GameTree):
    self.unit = math.lcm(*range(1, int(tree.infoset_num_actions.max()) + 1))

  def step(self, solver, player, profile, t):
    rows = solver.tree.player_rows[player]
    solver.decision_counts[rows] += np.rint(profile * self.unit).astype(np.int64)
    solver.sigma[rows] = self.strategy(solver, rows, t)

  def strategy(self, solver, rows, t):
    legal = solver.legal[rows]
    eps = solver.min_action_prob
    mixed_counts = solver.decision_counts[rows] / self.unit
    if eps:
      num_actions = legal.sum(axis=1, keepdims=True)
      mixed_counts = t * eps * legal + (1.0 - num_actions * eps) * mixed_counts
    return (solver.initial_sigma[rows] + mixed_counts) / (t + 1)


@_jit
def realization_step(current, mixed, legal, x_sigma, x_best, alpha,
                     renormalize):
  """XFP's update of one player's rows, in place.

  sigma(I, a) += alpha x_b(I) (b(I, a) - sigma(I, a)) /
                 ((1 - alpha) x_sigma(I) + alpha x_b(I)),
  left unchanged where the denominator is 0; with ``renormalize`` each row
  is clipped at 0 and rescaled to sum to 1 (Schulze eq. 18).
  """
  for row in range(current.shape[0]):
    denominator = (1.0 - alpha) * x_sigma[row] + alpha * x_best[row]
    if denominator <= 0.0:
      continue
    scale = alpha * x_best[row] / denominator
    total = 0.0
    for a in range(current.shape[1]):
      if legal[row, a]:
        current[row, a] += scale * (mixed[row, a] - current[row, a])
        if renormalize and current[row, a] < 0.0:
          current[row, a] = 0.0
        total += current[row, a]
    if renormalize and total > 0.0:
      for a in range(current.shape[1]):
        current[row, a] /= total


class RealizationStep:
  """XFP's realization-weighted step (Heinrich et al. 2015, Algorithm 1)."""

  def __init__(self, renormalize: bool):
    self.renormalize = renormalize

  def step(self, solver, player, profile, t):
    tree = solver.tree
    rows = tree.player_rows[player]
    legal = solver.legal[rows]
    mixed = mix_in(profile, legal, solver.min_action_prob)
    x_sigma = passes.own_reach_of_infosets(tree.own_sequence, solver.sigma,
                                           rows.start, rows.stop)
    best_profile = solver.sigma.copy()
    best_profile[rows] = mixed
    x_best = passes.own_reach_of_infosets(tree.own_sequence, best_profile,
                                          rows.start, rows.stop)
    realization_step(solver.sigma[rows], mixed, legal, x_sigma, x_best,
                     1.0 / (t + 1), self.renormalize)


# ------------------------------------------------------------------ core
class FictitiousPlaySolver(Solver):
  """Full-width fictitious play with pluggable decision and step rules.

  Use XFPSolver, GXFPSolver or BUFPSolver; this is their shared loop. The
  average strategy sigma_t is the solver's policy: ``average_policy()`` and
  ``current_policy()`` both return it.
  """

  # sigma: the average strategy; initial_sigma: sigma_1 (eps-mixed);
  # decision_counts: integer counts of best decisions (CountingStep).
  _STATE_ARRAYS = ("sigma", "initial_sigma", "decision_counts")

  def __init__(self, game, *, decision, step, alternating_updates: bool,
               initial_policy="uniform", min_action_prob: float = 0.0,
               tie_break: str = "lowest", seed: int | None = 0,
               constructor_arguments: dict | None = None):
    super().__init__(game, seed=seed, **(constructor_arguments or {}))
    tree = self._tree
    if not tree.perfect_recall:
      raise ValueError(
          f"{tree.game_string}'s infostate strings do not have perfect "
          "recall; fictitious play's realization weights need it.")
    if not isinstance(alternating_updates, bool):
      raise ValueError("alternating_updates must be True or False; got "
                       f"{alternating_updates!r}.")
    check_choice("tie_break", tie_break, TIE_RULES)
    largest = int(tree.infoset_num_actions.max())
    eps = check_real("min_action_prob", min_action_prob, 0.0, 1.0 / largest)
    if eps >= 1.0 / largest:
      raise ValueError(f"min_action_prob must be in [0, 1/|A|) = [0, "
                       f"{1.0 / largest:g}) for {tree.game_string}; got "
                       f"{min_action_prob}.")
    self._decision = decision
    self._step = step(tree) if step is CountingStep else step
    self._alternating = alternating_updates
    self.min_action_prob = eps
    self._even_split = tie_break == "even"
    self.legal = tree.infoset_legal
    self.initial_sigma = mix_in(self._initial_strategy(initial_policy),
                                self.legal, eps)
    self.sigma = self.initial_sigma.copy()
    self.decision_counts = np.zeros(self.legal.shape, dtype=np.int64)

  def _initial_strategy(self, initial_policy) -> np.ndarray:
    tree = self._tree
    if isinstance(initial_policy, str):
      check_choice("initial_policy", initial_policy, ("uniform", "random"))
      if initial_policy == "uniform":
        return tree.uniform_policy()
      raw = np.where(self.legal, self._rng.gamma(1.0, size=self.legal.shape),
                     0.0)
      return raw / raw.sum(axis=1, keepdims=True)
    strategy = policy_to_array(tree, initial_policy)
    sums = (strategy * self.legal).sum(axis=1)
    if (strategy < 0).any() or not np.allclose(sums, 1.0):
      raise ValueError("initial_policy must give each infoset a probability "
                       "distribution over its legal actions.")
    return strategy * self.legal

  def best_decisions(self, player: int,
                     strategy: np.ndarray | None = None) -> np.ndarray:
    """What this solver would mix in for ``player`` now ([player rows, A],
    before the eps perturbation)."""
    self._tree.check_player(player)
    strategy = self.sigma if strategy is None else strategy
    rows = self._tree.player_rows[player]
    return self._decision.decide(self._tree, strategy, player,
                                 self.min_action_prob, self.legal[rows],
                                 self._even_split)

  def _run_iteration(self) -> None:
    t = self._iteration
    players = range(self._tree.num_players)
    if self._alternating:
      for player in players:
        self._step.step(self, player, self.best_decisions(player), t)
    else:
      profiles = [self.best_decisions(player) for player in players]
      for player in players:
        self._step.step(self, player, profiles[player], t)

  def current_strategy(self) -> np.ndarray:
    return self.sigma.copy()

  def average_strategy(self) -> np.ndarray:
    return self.sigma.copy()


class XFPSolver(FictitiousPlaySolver):
  """XFP; matches ``open_spiel.python.algorithms.fictitious_play.XFPSolver``.

  Args:
    game: a pyspiel game, game string or compiled tree.
    alternating_updates: False (OpenSpiel's XFP: both best responses to
      sigma_t) or True.
    renormalize: Schulze's renormalisation step (seed 002 eq. 18).
    min_action_prob: eps of the perturbed game (seed 002 eq. 24).
    initial_policy: "uniform", "random" (Dirichlet(1) with ``seed``) or any
      policy.
  """

  def __init__(self, game, *, alternating_updates: bool = False,
               renormalize: bool = False, min_action_prob: float = 0.0,
               initial_policy="uniform", seed: int | None = 0):
    super().__init__(game, decision=FullBestResponse(),
                     step=RealizationStep(bool(renormalize)),
                     alternating_updates=alternating_updates,
                     initial_policy=initial_policy,
                     min_action_prob=min_action_prob, seed=seed,
                     constructor_arguments=dict(
                         alternating_updates=alternating_updates,
                         renormalize=renormalize,
                         min_action_prob=min_action_prob,
                         initial_policy=initial_policy))


class GXFPSolver(FictitiousPlaySolver):
  """GXFP (Schulze, seed 002 eqs. 3-4).

  Args:
    integer_counting: keep exact integer counts of best decisions.
    tie_break: "lowest" action id or "even" split among maximisers.
    alternating_updates, min_action_prob, initial_policy, seed: as XFP.
  """

  def __init__(self, game, *, alternating_updates: bool = False,
               integer_counting: bool = False, tie_break: str = "lowest",
               min_action_prob: float = 0.0, initial_policy="uniform",
               seed: int | None = 0):
    super().__init__(game, decision=BestDecision(),
                     step=CountingStep if integer_counting else EmpiricalStep(),
                     alternating_updates=alternating_updates,
                     initial_policy=initial_policy,
                     min_action_prob=min_action_prob, tie_break=tie_break,
                     seed=seed, constructor_arguments=dict(
                         alternating_updates=alternating_updates,
                         integer_counting=integer_counting,
                         tie_break=tie_break, min_action_prob=min_action_prob,
                         initial_policy=initial_policy))


STEPSIZES = ("ef", "x")
CONTINUATIONS = ("average", "best_response")


class BUFPSolver(FictitiousPlaySolver):
  """Belief-update fictitious play (seed 000 section 4).

  Args:
    stepsize: "ef" (BUFP(EF): the empirical step at every infoset, reached or
      not) or "x" (BUFP(X): XFP's realization-weighted step with the belief
      best decisions in place of the best response).
    continuation: how the player's own play below I is valued when choosing
      at I: "average" (sigma_t, seed 000 eq. 9) or "best_response" (the
      belief best decisions, by backward induction). Default: "average" for
      "ef", "best_response" for "x" (see BeliefDecision for why).
    tie_break, alternating_updates, min_action_prob, initial_policy, seed: as
      GXFP (tie_break applies to the "average" continuation).
  """

  def __init__(self, game, *, stepsize: str = "ef",
               continuation: str | None = None,
               alternating_updates: bool = False, tie_break: str = "lowest",
               min_action_prob: float = 0.0, initial_policy="uniform",
               seed: int | None = 0):
    check_choice("stepsize", stepsize, STEPSIZES)
    if continuation is None:
      continuation = "average" if stepsize == "ef" else "best_response"
    check_choice("continuation", continuation, CONTINUATIONS)
    super().__init__(game, decision=BeliefDecision(continuation),
                     step=EmpiricalStep() if stepsize == "ef" else
                     RealizationStep(False),
                     alternating_updates=alternating_updates,
                     initial_policy=initial_policy,
                     min_action_prob=min_action_prob, tie_break=tie_break,
                     seed=seed, constructor_arguments=dict(
                         stepsize=stepsize, continuation=continuation,
                         alternating_updates=alternating_updates,
                         tie_break=tie_break, min_action_prob=min_action_prob,
                         initial_policy=initial_policy))
