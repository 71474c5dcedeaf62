"""Preference-CFR: CFR steered towards preferred actions.

Qi Ju, Thomas Tellier, Meng Sun, Zhemei Fang, Yunfeng Luo, "Preference-CFR:
Beyond Nash Equilibrium for Better Game Strategies", ICML 2025,
arXiv:2411.01217, eqs. 10-13. Two strategy rules for the regret-minimisation
core, with the preference degree delta(I, a) >= 1 and the vulnerability
degree beta(I) >= 0:

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
  (Zealoter/PrefCFR, ``PrefCFR.py``) divides sampled cumulative regret by
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

Degrees can be given by action label for the whole game (``{"Raise": 5}``),
per player (``{0: {"Bet": 10}}``), per infoset key (``{"0": {"Bet": 10}}``)
or as a full array (the shapes of :data:`PreferenceSpec`, normalised by
:func:`normalise_preference`), and restricted to a set of infosets with
``where`` (for example :class:`FirstDecisions`). The base accumulates
regrets and weights the average as CFR, CFR+ or DCFR
(:class:`~spiel_ext.algorithms.cfr.CFRConfig` and its siblings say how);
its hyperparameters are :class:`PrefCFRConfig`, where DCFR's exponents are
``dcfr_alpha``, ``dcfr_beta`` and ``dcfr_gamma`` and the vulnerability
degree is ``vulnerability``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import Any, Callable, NamedTuple, Union

import numba
import numpy as np

from spiel_ext.algorithms.base import SolverConfig, set_field
from spiel_ext.algorithms.cfr import CFRConfig, CFRPlusConfig, DCFRConfig
from spiel_ext.algorithms.checks import check_choice, check_real, short_repr
from spiel_ext.checks import is_integer
from spiel_ext.algorithms.protocol import config_to_plain, plain_data
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
# The largest preference degree delta and vulnerability degree beta. The
# kernels form delta (R - beta W), W <= t, and sum it over an infoset's actions; with
# both degrees <= 1e100, |R| <= t (max utility - min utility), t <= 1e18
# and utilities below 1e80 in size, that sum stays below 1e300: finite, so
# the strategy (a ratio of such numbers) is never inf / inf = NaN, as it
# was with a degree of 1e308 on an action whose regret passes 1.8.
MAX_DEGREE = 1e100


# ------------------------------------------------------------------ kernels
@_jit
def _fallback(delta, legal, row, out):
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
def preference_regret_matching(cumulative_regret, legal, delta, shifts, out):
  """Pref-CFR(RM), eq. (10) with the vulnerability shift W beta of eq. (12)
  (``shifts[row]``)."""
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
def preference_best_response(cumulative_regret, legal, delta, shifts, out):
  """Pref-CFR(BR), eqs. (11) and (13): the pure argmax of delta * B."""
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
    return {"cumulative_reach": np.zeros(tree.num_infosets)}

  def strategy(self, cumulative_regret: np.ndarray, context: UpdateContext,
               out: np.ndarray) -> None:
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


# --------------------------------------------------------- infoset scopes
@plain_data
@dataclasses.dataclass(frozen=True)
class FirstDecisions:
  """Selects each player's first decision: infosets with no earlier own move.

  ``FirstDecisions(player=0)`` is "player 0's first decision" (Kuhn: the
  J/Q/K opening infosets; Leduc: the pre-flop opening infosets); with no
  player, every player's first decision. A frozen value (it checkpoints as
  ``{"__type__": "FirstDecisions", "player": 0}``).

  Args:
    player: None (every player) or a player id, an int >= 0; it must be a
      player of the game the scope is applied to.

  Raises:
    ValueError: ``player`` is not None or an int >= 0 (at construction), or
      not a player of the game (when applied).
  """

  player: int | None = None

  def __post_init__(self):
    player = self.player
    if player is not None and (not is_integer(player) or player < 0):
      raise ValueError("FirstDecisions: player must be None or a player id "
                       f"(an int >= 0); got {player!r}.")
    object.__setattr__(self, "player", None if player is None else int(player))

  def __call__(self, tree: GameTree) -> np.ndarray:
    if self.player is not None and self.player >= tree.num_players:
      raise ValueError(
          f"FirstDecisions: player must be None or in 0..{tree.num_players - 1}"
          f" for {tree.game_string}; got {self.player}.")
    rows = []
    for row in range(tree.num_infosets):
      acting = int(tree.infoset_player[row])
      if self.player is not None and acting != self.player:
        continue
      history = int(tree.parent[tree.infoset_history[row]])
      while history >= 0 and tree.node_player[history] != acting:
        history = int(tree.parent[history])
      if history < 0:
        rows.append(row)
    return np.asarray(rows, dtype=np.int64)


# Where a preference or vulnerability spec applies: None (every infoset); a
# callable tree -> infoset rows, such as FirstDecisions; or an iterable of
# infoset keys (str) or rows (int).
Scope = Union[Callable[[GameTree], Any], Iterable, None]


def check_scope(where: Scope) -> Scope:
  """``where`` in its normal form (an iterable of keys or rows as a tuple),
  if it has one of the forms of :data:`Scope`.

  Raises:
    ValueError: naming ``where``, for anything else.
  """
  if where is None or callable(where):
    return where
  if isinstance(where, (str, bytes)) or not isinstance(where, Iterable):
    raise ValueError("where must be None, a callable tree -> rows (e.g. "
                     "FirstDecisions(player=0)) or a list of infoset keys or "
                     f"rows; got {where!r}.")
  return tuple(where)


def resolve_scope(tree: GameTree, where: Scope) -> np.ndarray:
  """Boolean [infosets] mask of the infosets ``where`` selects.

  Args:
    tree: the compiled game.
    where: None (every infoset); a callable ``tree -> rows`` returning
      infoset rows (ints in 0..num_infosets-1), such as
      :class:`FirstDecisions`; or an iterable of infoset keys or rows.

  Raises:
    ValueError: naming ``where``, for anything else or rows out of range.
  """
  where = check_scope(where)
  mask = np.zeros(tree.num_infosets, dtype=bool)
  if where is None:
    mask[:] = True
    return mask
  if callable(where):
    mask[_callable_rows(tree, where)] = True
    return mask
  rows = [_infoset_row(tree, item, "where") for item in where]
  mask[np.asarray(rows, dtype=np.int64)] = True
  return mask


def _callable_rows(tree: GameTree, where: Callable) -> np.ndarray:
  result = where(tree)
  try:
    rows = np.asarray(result)
  except (TypeError, ValueError):
    rows = None
  wanted = (f"where({tree!r}) must return infoset rows: integers in "
            f"0..{tree.num_infosets - 1}")
  if rows is None or rows.ndim != 1 or (
      rows.size and rows.dtype.kind not in "iu"):
    raise ValueError(f"{wanted}; got {short_repr(result)}.")
  bad = (rows < 0) | (rows >= tree.num_infosets)
  if bad.any():
    raise ValueError(f"{wanted}; got row {int(rows[bad][0])}.")
  return rows.astype(np.int64)


def _infoset_row(tree: GameTree, item, name: str) -> int:
  if isinstance(item, str):
    if item not in tree.key_to_infoset:
      raise ValueError(f"{name}: unknown infoset key {item!r} for "
                       f"{tree.game_string}.")
    return tree.key_to_infoset[item]
  if is_integer(item) and 0 <= item < tree.num_infosets:
    return int(item)
  raise ValueError(f"{name}: {item!r} is neither an infoset key nor a row in "
                   f"0..{tree.num_infosets - 1}.")


def action_labels(tree: GameTree, row: int) -> dict[str, int]:
  """{action_to_string: action} for the legal actions of infoset ``row``."""
  state = tree.state(int(tree.infoset_history[row]))
  player = int(tree.infoset_player[row])
  return {state.action_to_string(player, int(a)): int(a)
          for a in np.flatnonzero(tree.infoset_legal[row])}


def _check_degree_array(name: str, array: np.ndarray, shape: tuple[int, ...],
                        low: float, cells: np.ndarray | None = None) -> None:
  if array.shape != shape:
    raise ValueError(f"{name} array must have shape {shape}; got "
                     f"{array.shape}.")
  values = array if cells is None else array[cells]
  if array.dtype.kind not in "biuf" or not np.isfinite(values).all() or (
      values < low).any() or (values > MAX_DEGREE).any():
    raise ValueError(f"{name} degrees must be finite numbers >= {low:g} "
                     f"and <= {MAX_DEGREE:g}"
                     f"{'' if cells is None else ' on legal actions'}.")


# ------------------------------------------------------------- preferences
# A preference spec: the preference degrees delta(I, a) >= 1 (1 where not
# given), in one of five shapes:
#   None                                     every degree 1;
#   {label: delta}                           the action with that label
#                                            (action_to_string) at every
#                                            infoset in scope where it is
#                                            legal, e.g. {"Raise": 5};
#   {player: {label or action id: delta}}    at that player's infosets in
#                                            scope, e.g. {0: {"Bet": 10}};
#   {infoset key: {label or action id: delta}}  at that infoset (scope
#                                            aside), e.g. {"0": {"Bet": 10}};
#   an [infosets, actions] array             every degree (entries of
#                                            illegal actions are ignored).
# The mapping shapes may be mixed in one dict.
PreferenceSpec = Union[None, Mapping[Any, Any], np.ndarray]


class PreferenceGroup(NamedTuple):
  """Degrees a preference spec gives to one set of infosets.

  Attributes:
    kind: "scope" (every infoset in scope), "player" (``key``'s infosets
      in scope) or "infoset" (the infoset ``key``).
    key: the player id or infoset key (None for "scope").
    degrees: ((label or action id, delta), ...), each delta checked.
  """
  kind: str
  key: Any
  degrees: tuple[tuple[Any, float], ...]


def normalise_preference(
    preference: PreferenceSpec) -> np.ndarray | tuple[PreferenceGroup, ...]:
  """A :data:`PreferenceSpec` in one form: the array as given (its shape
  and values are checked against the game later), or its groups of
  checked degrees (None: no group). Game-free: labels, players and
  infoset keys are checked when the groups are applied to a game
  (:func:`preference_degrees`).

  Raises:
    ValueError: a degree that is not a number in [1, 1e100], or a spec of
      none of the five shapes.
  """
  if preference is None:
    return ()
  if isinstance(preference, np.ndarray):
    return preference
  if not isinstance(preference, Mapping):
    raise ValueError("preference must be None, a dict or an array; got "
                     f"{type(preference).__name__}.")

  def degrees(mapping: Mapping) -> tuple[tuple[Any, float], ...]:
    return tuple((label, check_real(f"preference[{label!r}]", value, 1.0,
                                    MAX_DEGREE))
                 for label, value in mapping.items())

  groups = []
  for key, value in preference.items():
    if isinstance(value, Mapping):
      kind = "player" if is_integer(key) else "infoset"
      groups.append(PreferenceGroup(kind, key, degrees(value)))
    else:
      groups.append(PreferenceGroup("scope", None, degrees({key: value})))
  return tuple(groups)


def _apply_preference(tree: GameTree,
                      normal: np.ndarray | tuple[PreferenceGroup, ...],
                      where: Scope) -> np.ndarray:
  """The [infosets, actions] degrees of a :func:`normalise_preference`
  result on ``tree``."""
  delta = np.ones((tree.num_infosets, tree.num_distinct_actions))
  if isinstance(normal, np.ndarray):
    _check_degree_array("preference", normal, delta.shape, 1.0,
                        tree.infoset_legal)
    delta[tree.infoset_legal] = normal[tree.infoset_legal]
    return delta
  if not normal:
    return delta
  scoped_rows = np.flatnonzero(resolve_scope(tree, where))
  labels_cache: dict[int, dict[str, int]] = {}

  def labels(row):
    if row not in labels_cache:
      labels_cache[row] = action_labels(tree, row)
    return labels_cache[row]

  for group in normal:
    if group.kind == "scope":
      rows, origin = scoped_rows, "the scope"
    elif group.kind == "player":
      if not 0 <= group.key < tree.num_players:
        raise ValueError(f"preference: unknown player {group.key}; players "
                         f"are 0..{tree.num_players - 1}.")
      rows = [r for r in scoped_rows if tree.infoset_player[r] == group.key]
      origin = f"player {group.key} in scope"
    else:
      rows = [_infoset_row(tree, group.key, "preference")]
      origin = f"infoset {group.key!r}"
    if not len(rows):
      raise ValueError(f"preference: {origin} holds no infoset; check "
                       "where= and the player ids.")
    for label, number in group.degrees:
      hits = 0
      for row in rows:
        if is_integer(label):
          if 0 <= label < tree.num_distinct_actions and (
              tree.infoset_legal[row, label]):
            delta[row, label] = number
            hits += 1
        elif label in labels(row):
          delta[row, labels(row)[label]] = number
          hits += 1
      if hits == 0:
        known = sorted({name for row in rows for name in labels(row)})
        raise ValueError(f"preference: action {label!r} is not legal at any "
                         f"infoset of {origin}; known labels: {known}.")
  return delta


def preference_degrees(tree: GameTree, preference: PreferenceSpec,
                       where: Scope = None) -> np.ndarray:
  """The [infosets, actions] array of delta(I, a) for a preference spec.

  Args:
    tree: the compiled game.
    preference: a :data:`PreferenceSpec`: None (all 1); ``{label: delta}``
      for every infoset in scope where an action with that label is legal;
      ``{player: {label: delta}}``; ``{infoset key: {label or action id:
      delta}}``; or a full [infosets, actions] array (entries of illegal
      actions are ignored).
    where: the infosets the label- and player-level specs apply to (see
      :func:`resolve_scope`).

  Raises:
    ValueError: delta < 1 or > 1e100, NaN, an unknown label, infoset or
      player, or a scope that selects no infoset.
  """
  return _apply_preference(tree, normalise_preference(preference), where)


# A vulnerability spec: the vulnerability degrees beta(I) >= 0 (0 where not
# given): a number for every infoset in scope, {player: beta} for that
# player's infosets in scope, {infoset key: beta}, or an [infosets] array.
VulnerabilitySpec = Union[float, Mapping[Any, float], np.ndarray]


def normalise_vulnerability(
    vulnerability: VulnerabilitySpec) -> float | dict[Any, float] | np.ndarray:
  """A :data:`VulnerabilitySpec` with its numbers checked (a number as a
  float, a mapping's values as floats; an array as given, checked against
  the game later).

  Raises:
    ValueError: a degree that is not a number in [0, 1e100].
  """
  if isinstance(vulnerability, np.ndarray):
    return vulnerability
  if isinstance(vulnerability, Mapping):
    return {key: check_real(f"vulnerability[{key!r}]", value, 0.0,
                            MAX_DEGREE)
            for key, value in vulnerability.items()}
  return check_real("vulnerability", vulnerability, 0.0, MAX_DEGREE)


def _apply_vulnerability(tree: GameTree,
                         normal: float | dict[Any, float] | np.ndarray,
                         where: Scope) -> np.ndarray:
  beta = np.zeros(tree.num_infosets)
  if isinstance(normal, np.ndarray):
    _check_degree_array("vulnerability", normal, beta.shape, 0.0)
    return normal.astype(np.float64)
  scope = resolve_scope(tree, where)
  if isinstance(normal, dict):
    for key, number in normal.items():
      if is_integer(key):
        if not 0 <= key < tree.num_players:
          raise ValueError(f"vulnerability: unknown player {key}; players "
                           f"are 0..{tree.num_players - 1}.")
        beta[scope & (tree.infoset_player == key)] = number
      else:
        beta[_infoset_row(tree, key, "vulnerability")] = number
    return beta
  beta[scope] = normal
  return beta


def vulnerability_degrees(tree: GameTree, vulnerability: VulnerabilitySpec,
                          where: Scope = None) -> np.ndarray:
  """The [infosets] array of beta(I).

  Args:
    tree: the compiled game.
    vulnerability: a number for every infoset in scope, ``{player: beta}``,
      ``{infoset key: beta}`` or a full [infosets] array; each beta a finite
      number >= 0.
    where: the infosets a number or player-level spec applies to.

  Raises:
    ValueError: beta < 0 or > 1e100, NaN, an unknown infoset or player.
  """
  return _apply_vulnerability(tree, normalise_vulnerability(vulnerability),
                              where)


# ------------------------------------------------------------------ config
@dataclasses.dataclass(frozen=True, eq=False)
class PrefCFRConfig(SolverConfig):
  __doc__ = f"""Pref-CFR's hyperparameters (Ju et al. 2025, eqs. 10-13).

  Attributes:
    preference: the preference degrees delta in [1, 1e100], a
      :data:`PreferenceSpec` (default None: all 1), e.g. ``{{"Raise": 5}}``;
      see :func:`preference_degrees` and ``MAX_DEGREE`` for the bound.
    vulnerability: the vulnerability degrees beta in [0, 1e100] (default
      0, plain Pref-CFR), in ``vulnerability_unit``: a number, ``{{player:
      beta}}``, ``{{infoset key: beta}}`` or an [infosets] array (see
      :func:`vulnerability_degrees`).
    where: the infosets the label-, player- and number-level specs apply to
      (default None: all), e.g. ``FirstDecisions(player=0)``, any callable
      ``tree -> rows`` or a list of infoset keys or rows (see
      :func:`resolve_scope`).
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
    Pref-CFR runs (its strategy rule is Pref-CFR's own)."""
    options = dict(alternating_updates=self.alternating_updates,
                   random_init=self.random_init, init_scale=self.init_scale,
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

  def _make_rules(self):
    # The degrees are the config's specs applied to this game.
    config = self._config
    tree = self._tree
    resolve_scope(tree, config.where)  # Checked even when no spec reads it.
    # pylint: disable=protected-access
    self.preference = _apply_preference(tree, config._preference,
                                        config.where)
    self.vulnerability = _apply_vulnerability(tree, config._vulnerability,
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
