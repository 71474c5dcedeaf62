"""Preference-CFR: CFR steered towards preferred actions.

Qi Ju, Thomas Tellier, Meng Sun, Zhemei Fang, Yunfeng Luo, "Preference-CFR:
Beyond Nash Equilibrium for Better Game Strategies", ICML 2025,
arXiv:2411.01217, eqs. 10-13. Two strategy rules for the regret-minimisation
core, with the preference degree delta(I, a) >= 1 and the vulnerability
degree beta(I) >= 0::

  B(I, a) = R(I, a) / W(I) - beta(I)                                 (12)
  Pref-CFR(RM): sigma(I, a) = delta B+(I, a) / sum_b delta B+(I, b)  (10)
  Pref-CFR(BR): sigma(I) = pure argmax_a delta(I, a) B(I, a),
                ties to the lowest action id                      (11, 13)
  when some B+(I, a) > 0; otherwise sigma(I, a) = (delta - 1) / sum (delta - 1),
  or uniform when every delta(I, .) = 1 (where the paper's formula is 0/0;
  uniform makes Pref-CFR(RM) with delta = 1, beta = 0 exactly CFR).

The unit of beta is set by W(I):

- ``"conditional"`` (the default, the authors' unit): W(I) = sum_t
  x_{-i}^t(I), the others' and chance's reach of I summed over iterations,
  so R / W is the regret *conditional on reaching I*. The authors' code
  (Zealoter/PrefCFR) divides sampled cumulative regret by
  the infoset's visit count, whose expectation is the same.
- ``"reach_weighted"``: W(I) = T, the iterations, so R / T is the
  reach-weighted average counterfactual regret.

At a player's first decision where only chance acts before it with
probability 1/k (k private hands), W = T / k, so a reach-weighted beta b is
the conditional beta k b: 0.05 reach-weighted on Leduc's 6 hands is 0.3
conditional.

The kernels work with W * B = R - W beta, which has the same sign and
proportions; with delta = 1 and beta = 0 that is R itself, so Pref-CFR(RM)
then reproduces CFR bit for bit.

The degrees are stated in :mod:`spiel_ext.algorithms.preferences` (by
label, player, infoset key or array, within the infosets of ``where``),
whose names import from here too. The base accumulates regrets and weights
the average as CFR, CFR+ or DCFR
(:class:`~spiel_ext.algorithms.cfr.CFRConfig` and its siblings say how);
the hyperparameters are :class:`PrefCFRConfig` (DCFR's exponents
``dcfr_alpha``, ``dcfr_beta``, ``dcfr_gamma``; the vulnerability degree
``vulnerability``).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numba
import numpy as np

from spiel_ext.algorithms.base import SolverConfig, set_field
from spiel_ext.algorithms.cfr import CFRConfig, CFRPlusConfig, DCFRConfig, Rules
from spiel_ext.algorithms.checks import check_choice
# The preference language's public names, importable from here as before
# it had its own module.
from spiel_ext.algorithms.preferences import (  # pylint: disable=unused-import
    MAX_DEGREE, FirstDecisions, PreferenceGroup, PreferenceSpec, Scope,
    VulnerabilitySpec, action_labels, apply_preference, apply_vulnerability,
    check_scope, normalise_preference, normalise_vulnerability,
    preference_degrees, resolve_scope, vulnerability_degrees)
from spiel_ext.algorithms.protocol import config_to_plain
from spiel_ext.algorithms.regret import (REGRET_OPTIONS_DOC,
                                         RegretMinimizationSolver,
                                         check_regret_options)
from spiel_ext.algorithms.regret_rules import (UpdateContext,
                                               check_dcfr_parameters)
from spiel_ext.engine import GameTree

_jit = numba.njit(cache=True, nogil=True)

VARIANTS = ("rm", "br")
VULNERABILITY_UNITS = ("conditional", "reach_weighted")
# The bases Pref-CFR runs on: how regrets accumulate and the average is
# weighted (regret matching is replaced by the preference rule).
BASES = ("cfr", "cfr+", "dcfr")


# ------------------------------------------------------------------ kernels
@_jit
def _fallback(delta: np.ndarray, legal: np.ndarray, row: int,
              out: np.ndarray) -> None:
  """(delta - 1) / sum(delta - 1) over legal actions; uniform if every
  delta = 1."""
  total = 0.0
  count = 0
  for a in range(delta.shape[1]):
    if legal[row, a]:
      total += delta[row, a] - 1.0
      count += 1
  for a in range(delta.shape[1]):
    if not legal[row, a]:
      out[row, a] = 0.0
    elif total > 0.0:
      out[row, a] = (delta[row, a] - 1.0) / total
    else:
      out[row, a] = 1.0 / count


@_jit
def preference_regret_matching(cumulative_regret: np.ndarray,
                               legal: np.ndarray, delta: np.ndarray,
                               shifts: np.ndarray, out: np.ndarray) -> None:
  """Pref-CFR(RM), eq. (10) with the vulnerability shift W beta of eq. (12):
  each row's strategy is proportional to delta (R - shift)+ over its legal
  actions, or the module docstring's fallback when none is positive.

  Args:
    cumulative_regret: R, [rows, actions] (the player's rows).
    legal: [rows, actions], True where an action is legal.
    delta: the preference degrees on the same rows, [rows, actions].
    shifts: W(I) beta(I) per row, [rows].
    out: [rows, actions], overwritten with the strategy.
  """
  for row in range(cumulative_regret.shape[0]):
    shift = shifts[row]
    total = 0.0
    for a in range(cumulative_regret.shape[1]):
      if legal[row, a]:
        shifted = cumulative_regret[row, a] - shift
        if shifted > 0.0:
          total += delta[row, a] * shifted
    if total > 0.0:
      for a in range(cumulative_regret.shape[1]):
        shifted = cumulative_regret[row, a] - shift
        if legal[row, a] and shifted > 0.0:
          out[row, a] = delta[row, a] * shifted / total
        else:
          out[row, a] = 0.0
    else:
      _fallback(delta, legal, row, out)


@_jit
def preference_best_response(cumulative_regret: np.ndarray, legal: np.ndarray,
                             delta: np.ndarray, shifts: np.ndarray,
                             out: np.ndarray) -> None:
  """Pref-CFR(BR), eqs. (11) and (13): each row plays the legal action of
  largest delta (R - shift), the lowest id on ties, when some R - shift > 0;
  otherwise the module docstring's fallback.

  Args:
    cumulative_regret, legal, delta, shifts, out: as for
      :func:`preference_regret_matching`.
  """
  for row in range(cumulative_regret.shape[0]):
    shift = shifts[row]
    best = -1
    top = -np.inf
    any_positive = False
    for a in range(cumulative_regret.shape[1]):
      if legal[row, a]:
        shifted = cumulative_regret[row, a] - shift
        if shifted > 0.0:
          any_positive = True
        score = delta[row, a] * shifted
        if score > top:
          top = score
          best = a
    if any_positive:
      for a in range(cumulative_regret.shape[1]):
        out[row, a] = 1.0 if a == best else 0.0
    else:
      _fallback(delta, legal, row, out)


class PreferenceRule:
  """Strategy rule of Pref-CFR for the regret-minimisation core
  (a :class:`regret_rules.StrategyRule`), with this solver's degrees.

  In the ``"conditional"`` unit the rule keeps W(I), the others' and
  chance's reach of I summed over iterations, as its own array
  ``cumulative_reach`` (``initial_state``): each update adds
  ``context.others_reach`` before the strategy is computed. In the
  ``"reach_weighted"`` unit W is the iteration count t; ``cumulative_reach``
  is kept all the same, so that it can be read and is checkpointed alike.

  Args:
    variant: "rm" or "br".
    delta: the preference degrees, [infosets, actions].
    beta: the vulnerability degrees, [infosets].
    conditional: True for the "conditional" unit, False for
      "reach_weighted".
  """

  def __init__(self, variant: str, delta: np.ndarray, beta: np.ndarray,
               conditional: bool = True):
    self.kernel = (preference_regret_matching if variant == "rm" else
                   preference_best_response)
    self.delta = delta
    self.beta = beta
    self.conditional = conditional

  def initial_state(self, tree: GameTree) -> dict[str, np.ndarray]:
    """The rule's own array, created once by the solver.

    Args:
      tree: the compiled game.

    Returns:
      {"cumulative_reach": zeros, [infosets]}.
    """
    return {"cumulative_reach": np.zeros(tree.num_infosets)}

  def strategy(self, cumulative_regret: np.ndarray, context: UpdateContext,
               out: np.ndarray) -> None:
    """Adds the others' reach to W, then writes the preference strategy.

    Args:
      cumulative_regret: R on the player's rows, [rows, actions].
      context: the update's
        :class:`~spiel_ext.algorithms.regret_rules.UpdateContext`; its
        ``state`` holds ``cumulative_reach`` on the rows, and
        ``others_reach`` is None before any update.
      out: [rows, actions], overwritten with the next current strategy.
    """
    cumulative_reach = context.state["cumulative_reach"]
    if context.others_reach is not None:
      cumulative_reach += context.others_reach
    rows = context.rows
    if self.conditional:
      shifts = self.beta[rows] * cumulative_reach
    else:
      shifts = self.beta[rows] * float(max(context.t, 1))
    self.kernel(cumulative_regret, context.legal, self.delta[rows], shifts,
                out)


# ------------------------------------------------------------------ config
@dataclasses.dataclass(frozen=True, eq=False)
class PrefCFRConfig(SolverConfig):
  __doc__ = f"""Pref-CFR's hyperparameters (Ju et al. 2025, eqs. 10-13).

  Attributes:
    preference: the preference degrees delta in [1, 1e100], a
      :data:`~spiel_ext.algorithms.preferences.PreferenceSpec` (default
      None: all 1), e.g. ``{{"Raise": 5}}``; see
      :func:`~spiel_ext.algorithms.preferences.preference_degrees` and
      ``MAX_DEGREE`` for the bound.
    vulnerability: the vulnerability degrees beta in [0, 1e100] (default
      0, plain Pref-CFR), in ``vulnerability_unit``: a number, ``{{player:
      beta}}``, ``{{infoset key: beta}}`` or an [infosets] array (see
      :func:`~spiel_ext.algorithms.preferences.vulnerability_degrees`).
    where: the infosets the label-, player- and number-level specs apply to
      (default None: all), e.g. ``FirstDecisions(player=0)``, any callable
      ``tree -> rows`` or a list of infoset keys or rows (see
      :func:`~spiel_ext.algorithms.preferences.resolve_scope`).
    variant: "br" (default; Pref-CFR(BR), the paper's preferred rule) or
      "rm" (Pref-CFR(RM)).
    base: how regrets accumulate and the average is weighted: "cfr"
      (default; plain regrets, uniform averaging), "cfr+" (regret
      matching+ accumulation, linear averaging) or "dcfr" (DCFR's
      discounts, with ``dcfr_alpha``, ``dcfr_beta``, ``dcfr_gamma``).
    dcfr_alpha, dcfr_beta, dcfr_gamma: DCFR's exponents when base="dcfr",
      as ``alpha``, ``beta``, ``gamma`` of
      :class:`~spiel_ext.algorithms.cfr.DCFRConfig` (defaults 1.5, 0, 2;
      alpha and beta any finite number, gamma in [0, 1000]). The
      vulnerability degree is ``vulnerability``, not ``dcfr_beta``.
    vulnerability_unit: what beta is compared with (see the module
      docstring): "conditional" (default; the authors' unit, regret
      conditional on reaching the infoset: cumulative regret divided by the
      infoset's cumulative reach by the others and chance) or
      "reach_weighted" (cumulative regret divided by the iterations). At a
      first decision behind a chance deal of k hands, reach-weighted b is
      conditional k * b.{REGRET_OPTIONS_DOC}
  """

  preference: PreferenceSpec = None
  vulnerability: VulnerabilitySpec = 0.0
  where: Scope = None
  variant: str = "br"
  base: str = "cfr"
  dcfr_alpha: float = 1.5
  dcfr_beta: float = 0.0
  dcfr_gamma: float = 2.0
  vulnerability_unit: str = "conditional"
  alternating_updates: bool = True
  random_init: bool = False
  init_scale: float = 1.0
  seed: int | None = 0

  def __post_init__(self) -> None:
    check_choice("variant", self.variant, VARIANTS)
    check_choice("vulnerability_unit", self.vulnerability_unit,
                 VULNERABILITY_UNITS)
    check_choice("base", self.base, BASES)
    alpha, beta, gamma = check_dcfr_parameters(
        self.dcfr_alpha, self.dcfr_beta, self.dcfr_gamma, prefix="dcfr_")
    set_field(self, "dcfr_alpha", alpha)
    set_field(self, "dcfr_beta", beta)
    set_field(self, "dcfr_gamma", gamma)
    set_field(self, "where", check_scope(self.where))
    # The specs' game-free checks, once; the solver applies these forms.
    set_field(self, "_preference", normalise_preference(self.preference))
    set_field(self, "_vulnerability",
              normalise_vulnerability(self.vulnerability))
    check_regret_options(self)

  def base_config(self) -> CFRConfig | CFRPlusConfig | DCFRConfig:
    """The config of the base solver, whose regret and averaging rules
    Pref-CFR runs (its strategy rule is Pref-CFR's own).

    Returns:
      A CFRConfig ("cfr"), CFRPlusConfig ("cfr+") or DCFRConfig ("dcfr",
      with ``dcfr_alpha``, ``dcfr_beta``, ``dcfr_gamma``), with this
      config's alternating_updates, random_init, init_scale and seed.
    """
    options: dict[str, Any] = dict(alternating_updates=self.alternating_updates,
                                   random_init=self.random_init,
                                   init_scale=self.init_scale,
                                   seed=self.seed)
    if self.base == "dcfr":
      return DCFRConfig(self.dcfr_alpha, self.dcfr_beta, self.dcfr_gamma,
                        **options)
    return (CFRConfig if self.base == "cfr" else CFRPlusConfig)(**options)


# ----------------------------------------------------------------- solver
class PrefCFRSolver(RegretMinimizationSolver):
  """Preference-CFR on any regret-matching base (CFR, CFR+, DCFR).

  With neutral degrees (no preference, vulnerability 0) and variant="rm" it
  is its base exactly. ``current_policy()`` returns the same TabularPolicy on
  every call, updated in place; ``average_policy()`` a fresh one.

  Args:
    game: a pyspiel game, game string or compiled GameTree (any number of
      players).
    config: a :class:`PrefCFRConfig` (default: its defaults), which
      documents every hyperparameter: preference, vulnerability, where,
      variant, base, dcfr_alpha, dcfr_beta, dcfr_gamma,
      vulnerability_unit, alternating_updates, random_init, init_scale,
      seed.
    shortcuts: the config's fields as keywords, e.g.
      ``preference={"Raise": 5}``. The old keywords ``alpha``, ``beta`` and
      ``gamma`` (DCFR's exponents) still work, with a DeprecationWarning:
      they are ``dcfr_alpha``, ``dcfr_beta`` and ``dcfr_gamma``.

  Raises:
    TypeError: a bool option that is not a bool, ``seed`` not an int, or a
      keyword that is no field of the config.
    ValueError: a bad degree, scope, variant, base or DCFR parameter (the
      message names it), ``seed`` outside 0..2**63 - 1, or a game the
      engine cannot compile.

  Attributes:
    preference: delta, [infosets, actions].
    vulnerability: beta, [infosets].
    cumulative_reach: W(I) of the "conditional" unit, [infosets] (kept in
      both units).

  Example::

    solver = PrefCFRSolver("kuhn_poker", preference={"Bet": 5},
                           where=FirstDecisions(player=0), variant="br")
    for _ in range(10_000):
      solver.evaluate_and_update_policy()
    solver.average_policy().policy_for_key("0")  # J opens: bets more often
  """

  Config = PrefCFRConfig
  _RENAMED = {"alpha": "dcfr_alpha", "beta": "dcfr_beta",
              "gamma": "dcfr_gamma"}

  @property
  def vulnerability_unit(self) -> str:
    """What beta is compared with (the config's)."""
    return self._config.vulnerability_unit

  @property
  def cumulative_reach(self) -> np.ndarray:
    """W(I) of the "conditional" unit, [infosets]: the preference rule's
    own array (kept in both units)."""
    return self._rule_state["cumulative_reach"]

  def _make_rules(self) -> Rules:
    # The degrees are the config's specs applied to this game.
    config = self._config
    tree = self._tree
    resolve_scope(tree, config.where)  # Checked even when no spec reads it.
    # pylint: disable=protected-access
    self.preference = apply_preference(tree, config._preference,
                                       config.where)
    self.vulnerability = apply_vulnerability(tree, config._vulnerability,
                                             config.where)
    # pylint: enable=protected-access
    regret_rule, averaging, _ = config.base_config().rules()
    return regret_rule, averaging, PreferenceRule(
        config.variant, self.preference, self.vulnerability,
        config.vulnerability_unit == "conditional")

  # ----------------------------------------------------------- checkpoint
  def _plain_config(self) -> dict[str, Any]:
    where = self._config.where
    if callable(where) and not isinstance(where, FirstDecisions):
      # A callable scope is written as the rows it selects on this game.
      return config_to_plain(self._config, where=np.flatnonzero(
          resolve_scope(self._tree, where)).tolist())
    return config_to_plain(self._config)

  @classmethod
  def _legacy_config(cls, hyperparameters: dict[str, Any]) -> PrefCFRConfig:
    # Pickled before the conditional unit existed: beta was reach-weighted.
    hyperparameters = dict(hyperparameters)
    hyperparameters.setdefault("vulnerability_unit", "reach_weighted")
    return super()._legacy_config(hyperparameters)

  def _legacy_state(self, state: dict[str, Any]) -> dict[str, Any]:
    if "cumulative_reach" not in state:
      state = dict(state, cumulative_reach=np.zeros(self._tree.num_infosets))
    return state
