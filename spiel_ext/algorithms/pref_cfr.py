"""Preference-CFR (Ju, Tellier, Sun, Fang, Luo; seed 003, eqs. 10-13).

Two strategy rules for the regret-minimisation core, with the preference
degree delta(I, a) >= 1 and the vulnerability degree beta(I) >= 0:

  B(I, a) = R(I, a) / T - beta(I)                                    (12)
  Pref-CFR(RM): sigma(I, a) = delta B+(I, a) / sum_b delta B+(I, b)  (10)
  Pref-CFR(BR): sigma(I) = pure argmax_a delta(I, a) B(I, a),
                ties to the lowest action id                      (11, 13)
  when some B+(I, a) > 0; otherwise sigma(I, a) = (delta - 1) / sum (delta - 1),
  or uniform when every delta(I, .) = 1 (the paper's 0/0; SPEC 3.1).

The kernels work with T * B = R - T beta, which has the same sign and
proportions; with delta = 1 and beta = 0 that is R itself, so Pref-CFR(RM)
then reproduces CFR bit for bit.

Degrees can be given by action label for the whole game (``{"Raise": 5}``),
per player (``{0: {"Bet": 10}}``), per infoset key (``{"0": {"Bet": 10}}``)
or as a full array, and restricted to a set of infosets with ``where`` (for
example :class:`FirstDecisions`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

import numba
import numpy as np

from spiel_ext.algorithms.base import check_choice
from spiel_ext.algorithms.regret import (DiscountedRegrets, PlainRegrets,
                                         PlusRegrets, PowerAveraging,
                                         RegretMinimizationSolver,
                                         check_dcfr_parameters)
from spiel_ext.engine import GameTree

_jit = numba.njit(cache=True, nogil=True)

VARIANTS = ("rm", "br")
BASES = ("cfr", "cfr+", "dcfr")


# ------------------------------------------------------------------ kernels
@_jit
def _fallback(delta, legal, row, out):
  """(delta - 1) / sum(delta - 1) over legal actions; uniform if all delta = 1."""
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
def preference_regret_matching(cumulative_regret, legal, delta, beta, t, out):
  """Pref-CFR(RM), eq. (10) with the vulnerability shift of eq. (12)."""
  for row in range(cumulative_regret.shape[0]):
    shift = beta[row] * t
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
def preference_best_response(cumulative_regret, legal, delta, beta, t, out):
  """Pref-CFR(BR), eqs. (11) and (13): the pure argmax of delta * B."""
  for row in range(cumulative_regret.shape[0]):
    shift = beta[row] * t
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
  """Strategy rule of Pref-CFR for the regret-minimisation core."""

  def __init__(self, variant: str, delta: np.ndarray, beta: np.ndarray):
    self.kernel = (preference_regret_matching if variant == "rm" else
                   preference_best_response)
    self.delta = delta
    self.beta = beta

  def strategy(self, cumulative_regret, legal, t, rows, out):
    self.kernel(cumulative_regret, legal, self.delta[rows], self.beta[rows],
                float(max(t, 1)), out)


# --------------------------------------------------------- infoset scopes
class FirstDecisions:
  """Selects each player's first decision: infosets with no earlier own move.

  ``FirstDecisions(player=0)`` is "player 0's first decision" (Kuhn: the
  J/Q/K opening infosets; Leduc: the pre-flop opening infosets); with no
  player, every player's first decision.
  """

  def __init__(self, player: int | None = None):
    self.player = player

  def __call__(self, tree: GameTree) -> np.ndarray:
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

  def __repr__(self) -> str:
    return f"FirstDecisions(player={self.player})"


def resolve_scope(tree: GameTree, where) -> np.ndarray:
  """Boolean [infosets] mask of the infosets ``where`` selects."""
  mask = np.zeros(tree.num_infosets, dtype=bool)
  if where is None:
    mask[:] = True
    return mask
  if callable(where):
    rows = where(tree)
  elif isinstance(where, (str, bytes)) or not isinstance(where, Iterable):
    raise ValueError("where must be None, a callable tree -> rows (e.g. "
                     "FirstDecisions(player=0)) or a list of infoset keys or "
                     f"rows; got {where!r}.")
  else:
    rows = [_infoset_row(tree, item, "where") for item in where]
  mask[np.asarray(rows, dtype=np.int64)] = True
  return mask


def _infoset_row(tree: GameTree, item, name: str) -> int:
  if isinstance(item, str):
    if item not in tree.key_to_infoset:
      raise ValueError(f"{name}: unknown infoset key {item!r} for "
                       f"{tree.game_string}.")
    return tree.key_to_infoset[item]
  if isinstance(item, (int, np.integer)) and 0 <= item < tree.num_infosets:
    return int(item)
  raise ValueError(f"{name}: {item!r} is neither an infoset key nor a row in "
                   f"0..{tree.num_infosets - 1}.")


def action_labels(tree: GameTree, row: int) -> dict[str, int]:
  """{action_to_string: action} for the legal actions of infoset ``row``."""
  state = tree.state(int(tree.infoset_history[row]))
  player = int(tree.infoset_player[row])
  return {state.action_to_string(player, int(a)): int(a)
          for a in np.flatnonzero(tree.infoset_legal[row])}


def _degree(name: str, value, low: float) -> float:
  try:
    number = float(value)
  except (TypeError, ValueError):
    raise ValueError(f"{name} must be a number; got {value!r}.") from None
  if math.isnan(number) or number < low or math.isinf(number):
    raise ValueError(f"{name} must be a finite number >= {low:g}; got "
                     f"{value!r}.")
  return number


def preference_degrees(tree: GameTree, preference, where=None) -> np.ndarray:
  """The [infosets, actions] array of delta(I, a) for a preference spec.

  Args:
    tree: the compiled game.
    preference: None (all 1); ``{label: delta}`` for every infoset in scope
      where an action with that label is legal; ``{player: {label: delta}}``;
      ``{infoset key: {label or action id: delta}}``; or a full array.
    where: the infosets the spec applies to (see :func:`resolve_scope`).

  Raises:
    ValueError: delta < 1, NaN, an unknown label, infoset or player.
  """
  delta = np.ones((tree.num_infosets, tree.num_distinct_actions))
  if preference is None:
    return delta
  if isinstance(preference, np.ndarray):
    if preference.shape != delta.shape:
      raise ValueError(f"preference array must have shape {delta.shape}; got "
                       f"{preference.shape}.")
    values = preference[tree.infoset_legal]
    if np.isnan(values).any() or (values < 1).any():
      raise ValueError("preference degrees must be >= 1 and not NaN.")
    delta[tree.infoset_legal] = values
    return delta
  if not isinstance(preference, Mapping):
    raise ValueError("preference must be None, a dict or an array; got "
                     f"{type(preference).__name__}.")
  scope = resolve_scope(tree, where)
  labels_cache: dict[int, dict[str, int]] = {}

  def labels(row):
    if row not in labels_cache:
      labels_cache[row] = action_labels(tree, row)
    return labels_cache[row]

  def apply_labels(rows, mapping, origin):
    for label, value in mapping.items():
      number = _degree(f"preference[{label!r}]", value, 1.0)
      hits = 0
      for row in rows:
        if isinstance(label, (int, np.integer)) and not isinstance(label, bool):
          if tree.infoset_legal[row, label]:
            delta[row, label] = number
            hits += 1
        elif label in labels(row):
          delta[row, labels(row)[label]] = number
          hits += 1
      if hits == 0:
        known = sorted({name for row in rows for name in labels(row)})
        raise ValueError(f"preference: action {label!r} is not legal at any "
                         f"infoset of {origin}; known labels: {known}.")

  scoped_rows = np.flatnonzero(scope)
  for key, value in preference.items():
    if isinstance(value, Mapping):
      if isinstance(key, (int, np.integer)) and not isinstance(key, bool):
        if not 0 <= key < tree.num_players:
          raise ValueError(f"preference: unknown player {key}.")
        rows = [r for r in scoped_rows if tree.infoset_player[r] == key]
        apply_labels(rows, value, f"player {key} in scope")
      else:
        row = _infoset_row(tree, key, "preference")
        apply_labels([row], value, f"infoset {key!r}")
    else:
      apply_labels(scoped_rows, {key: value}, "the scope")
  return delta


def vulnerability_degrees(tree: GameTree, vulnerability,
                          where=None) -> np.ndarray:
  """The [infosets] array of beta(I): a number for every infoset in scope,
  ``{player: beta}``, ``{infoset key: beta}`` or a full array."""
  beta = np.zeros(tree.num_infosets)
  if isinstance(vulnerability, np.ndarray):
    if vulnerability.shape != beta.shape:
      raise ValueError(f"vulnerability array must have shape {beta.shape}; "
                       f"got {vulnerability.shape}.")
    if np.isnan(vulnerability).any() or (vulnerability < 0).any():
      raise ValueError("vulnerability degrees must be >= 0 and not NaN.")
    return vulnerability.astype(np.float64)
  scope = resolve_scope(tree, where)
  if isinstance(vulnerability, Mapping):
    for key, value in vulnerability.items():
      number = _degree(f"vulnerability[{key!r}]", value, 0.0)
      if isinstance(key, (int, np.integer)) and not isinstance(key, bool):
        if not 0 <= key < tree.num_players:
          raise ValueError(f"vulnerability: unknown player {key}.")
        beta[scope & (tree.infoset_player == key)] = number
      else:
        beta[_infoset_row(tree, key, "vulnerability")] = number
    return beta
  beta[scope] = _degree("vulnerability", vulnerability, 0.0)
  return beta


# ----------------------------------------------------------------- solver
class PrefCFRSolver(RegretMinimizationSolver):
  """Preference-CFR on any regret-matching base (CFR, CFR+, DCFR).

  Args:
    game: a pyspiel game, game string or compiled tree (any number of
      players).
    preference: preference degrees delta (see :func:`preference_degrees`).
    vulnerability: vulnerability degrees beta (see
      :func:`vulnerability_degrees`); 0 gives plain Pref-CFR.
    where: infosets the label- and player-level specs apply to, e.g.
      ``FirstDecisions(player=0)`` or a list of infoset keys.
    variant: "br" (Pref-CFR(BR), the paper's preferred rule) or "rm".
    base: "cfr" (plain regrets, uniform averaging), "cfr+" (regret
      matching+ accumulation, linear averaging) or "dcfr".
    alpha, beta_discount, gamma: DCFR's parameters when base="dcfr".
    alternating_updates, random_init, seed: as for CFRSolver.
  """

  def __init__(self, game, *, preference: Any = None,
               vulnerability: Any = 0.0, where: Any = None,
               variant: str = "br", base: str = "cfr", alpha: float = 1.5,
               beta_discount: float = 0.0, gamma: float = 2.0,
               alternating_updates: bool = True, random_init: bool = False,
               seed: int | None = 0):
    check_choice("variant", variant, VARIANTS)
    check_choice("base", base, BASES)
    alpha, beta_discount, gamma = check_dcfr_parameters(alpha, beta_discount,
                                                        gamma)
    from spiel_ext.engine import compile_game  # pylint: disable=g-import-not-at-top
    tree = compile_game(game)
    delta = preference_degrees(tree, preference, where)
    beta = vulnerability_degrees(tree, vulnerability, where)
    if base == "cfr":
      regret_rule, averaging = PlainRegrets(), PowerAveraging(0.0)
    elif base == "cfr+":
      regret_rule, averaging = PlusRegrets(), PowerAveraging(1.0)
    else:
      regret_rule = DiscountedRegrets(alpha, beta_discount)
      averaging = PowerAveraging(gamma)
    self.preference = delta
    self.vulnerability = beta
    super().__init__(tree, regret_rule=regret_rule, averaging=averaging,
                     strategy_rule=PreferenceRule(variant, delta, beta),
                     alternating_updates=alternating_updates,
                     random_init=random_init, seed=seed,
                     preference=preference, vulnerability=vulnerability,
                     where=where, variant=variant, base=base, alpha=alpha,
                     beta_discount=beta_discount, gamma=gamma)
