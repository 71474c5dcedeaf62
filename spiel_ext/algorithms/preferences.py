"""Pref-CFR's preference language: degrees, scopes, and their arrays.

Qi Ju, Thomas Tellier, Meng Sun, Zhemei Fang, Yunfeng Luo, "Preference-CFR:
Beyond Nash Equilibrium for Better Game Strategies", ICML 2025,
arXiv:2411.01217. Pref-CFR (:mod:`spiel_ext.algorithms.pref_cfr`) steers
CFR with two degrees per infoset I: the preference degree delta(I, a) >= 1
of each action a, weighing its regret in Pref-CFR(RM) (eq. 10) and
Pref-CFR(BR) (eqs. 11, 13), 1 being no preference; and the vulnerability
degree beta(I) >= 0, subtracted from the infoset's average regret
(eq. 12), 0 being none. This module is the language they are stated in:

- a :data:`PreferenceSpec` gives delta by action label for every infoset
  (``{"Raise": 5}``), per player (``{0: {"Bet": 10}}``), per infoset key
  (``{"0": {"Bet": 10}}``) or as a full [infosets, actions] array;
- a :data:`VulnerabilitySpec` gives beta as a number, per player, per
  infoset key or as a full [infosets] array;
- a :data:`Scope` (``where``) restricts the label-, player- and
  number-level specs to some infosets: None (all), a callable
  ``tree -> rows`` such as :class:`FirstDecisions`, or keys or rows.

A spec is checked game-free when a config is built
(:func:`normalise_preference`, :func:`normalise_vulnerability`,
:func:`check_scope`), then against the game when it is resolved to the
per-row arrays the kernels read (:func:`apply_preference`,
:func:`apply_vulnerability`; :func:`preference_degrees` and
:func:`vulnerability_degrees` do both). Degrees are at most
:data:`MAX_DEGREE`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import Any, Callable, NamedTuple, Union

import numpy as np

from spiel_ext.algorithms.checks import check_real, short_repr
from spiel_ext.algorithms.protocol import plain_data
from spiel_ext.checks import is_integer
from spiel_ext.engine import GameTree

# The largest preference degree delta and vulnerability degree beta. The
# kernels form delta (R - beta W), W <= t, and sum it over an infoset's
# actions; with both degrees <= 1e100, |R| <= t (max utility - min utility),
# t <= 1e18 and utilities below 1e80 in size, that sum stays below 1e300:
# finite, so the strategy (a ratio of such numbers) is never inf / inf =
# NaN, as it was with a degree of 1e308 on an action whose regret passes 1.8.
MAX_DEGREE = 1e100


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

  def __post_init__(self) -> None:
    player = self.player
    if player is not None and (not is_integer(player) or player < 0):
      raise ValueError("FirstDecisions: player must be None or a player id "
                       f"(an int >= 0); got {player!r}.")
    object.__setattr__(self, "player", None if player is None else int(player))

  def __call__(self, tree: GameTree) -> np.ndarray:
    """The rows of the first decisions on ``tree``.

    Args:
      tree: the compiled game.

    Returns:
      The infoset rows, int64, ascending, of the infosets (of ``player``,
      or of every player) that no own decision of their player precedes.

    Raises:
      ValueError: ``player`` is not a player of ``tree``.
    """
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
  """``where`` in its normal form, if it has one of the forms of
  :data:`Scope`.

  Args:
    where: None, a callable ``tree -> rows`` or an iterable of infoset keys
      or rows (not a str or bytes).

  Returns:
    None or the callable as given; an iterable as a tuple.

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
  """The infosets ``where`` selects on ``tree``.

  Args:
    tree: the compiled game.
    where: None (every infoset); a callable ``tree -> rows`` returning
      infoset rows (ints in 0..num_infosets-1), such as
      :class:`FirstDecisions`; or an iterable of infoset keys or rows.

  Returns:
    A boolean [infosets] mask, True on the selected rows.

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


def _infoset_row(tree: GameTree, item: Any, name: str) -> int:
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
  """The labels of the legal actions of infoset ``row``.

  Args:
    tree: the compiled game.
    row: an infoset row, in 0..num_infosets-1.

  Returns:
    {action_to_string: action id} for the actions legal at ``row``, the
    labels as OpenSpiel writes them for the acting player.
  """
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
# given), in one of five shapes (the mapping shapes may be mixed in a dict):
#   None: every degree 1;
#   {label: delta}: the action of that label (action_to_string) at every
#     infoset in scope where it is legal, e.g. {"Raise": 5};
#   {player: {label or action id: delta}}: at that player's infosets in
#     scope, e.g. {0: {"Bet": 10}};
#   {infoset key: {label or action id: delta}}: at that infoset (scope
#     aside), e.g. {"0": {"Bet": 10}};
#   an [infosets, actions] array: every degree (illegal actions' ignored).
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
  """A :data:`PreferenceSpec` in one form, its degrees checked.

  Game-free: labels, players and infoset keys are checked when the result
  is applied to a game (:func:`apply_preference`).

  Args:
    preference: a :data:`PreferenceSpec`.

  Returns:
    An array as given (its shape and values are checked against the game
    later), or a tuple of :class:`PreferenceGroup`, one per key of the
    dict in its order (None gives the empty tuple).

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


def _group_rows(tree: GameTree, group: PreferenceGroup,
                scoped_rows: np.ndarray) -> tuple[Any, str]:
  """(the rows ``group`` applies to, how a message names them)."""
  rows: np.ndarray | list[int]
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
  return rows, origin


def _set_degree(tree: GameTree, delta: np.ndarray, rows: Iterable[int],
                origin: str, label: Any, number: float,
                labels: Callable[[int], dict[str, int]]) -> None:
  """Writes ``number`` on the action ``label`` at each of ``rows`` where it
  is legal."""
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


def apply_preference(tree: GameTree,
                     normal: np.ndarray | tuple[PreferenceGroup, ...],
                     where: Scope = None) -> np.ndarray:
  """The preference degrees of a normalised spec on ``tree``.

  Args:
    tree: the compiled game.
    normal: a result of :func:`normalise_preference`.
    where: the infosets the "scope" and "player" groups apply to (see
      :func:`resolve_scope`); not read for an array or no group.

  Returns:
    delta(I, a), float64 [infosets, actions]: 1 where no group (or, for an
    array, an illegal action) gives a degree.

  Raises:
    ValueError: an array of another shape or with a degree outside
      [1, 1e100] (or NaN) on a legal action; a bad ``where``; an unknown
      label, infoset or player; or a group whose infosets (in scope) are
      none.
  """
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

  def labels(row: int) -> dict[str, int]:
    if row not in labels_cache:
      labels_cache[row] = action_labels(tree, row)
    return labels_cache[row]

  for group in normal:
    rows, origin = _group_rows(tree, group, scoped_rows)
    for label, number in group.degrees:
      _set_degree(tree, delta, rows, origin, label, number, labels)
  return delta


def preference_degrees(tree: GameTree, preference: PreferenceSpec,
                       where: Scope = None) -> np.ndarray:
  """The preference degrees delta(I, a) a spec gives on ``tree``.

  Args:
    tree: the compiled game.
    preference: a :data:`PreferenceSpec`: None (all 1); ``{label: delta}``
      for every infoset in scope where an action with that label is legal;
      ``{player: {label: delta}}``; ``{infoset key: {label or action id:
      delta}}``; or a full [infosets, actions] array (entries of illegal
      actions are ignored).
    where: the infosets the label- and player-level specs apply to (see
      :func:`resolve_scope`).

  Returns:
    delta, float64 [infosets, actions] (1 where the spec gives none).

  Raises:
    ValueError: delta < 1 or > 1e100, NaN, an unknown label, infoset or
      player, or a scope that selects no infoset.
  """
  return apply_preference(tree, normalise_preference(preference), where)


# ----------------------------------------------------------- vulnerability
# A vulnerability spec: the vulnerability degrees beta(I) >= 0 (0 where not
# given): a number for every infoset in scope, {player: beta} for that
# player's infosets in scope, {infoset key: beta}, or an [infosets] array.
VulnerabilitySpec = Union[float, Mapping[Any, float], np.ndarray]


def normalise_vulnerability(
    vulnerability: VulnerabilitySpec) -> float | dict[Any, float] | np.ndarray:
  """A :data:`VulnerabilitySpec` with its numbers checked.

  Game-free: players, infoset keys and an array's shape are checked when
  the result is applied to a game (:func:`apply_vulnerability`).

  Args:
    vulnerability: a :data:`VulnerabilitySpec`.

  Returns:
    A number as a float, a mapping as a dict of floats, an array as given.

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


def apply_vulnerability(tree: GameTree,
                        normal: float | dict[Any, float] | np.ndarray,
                        where: Scope = None) -> np.ndarray:
  """The vulnerability degrees of a normalised spec on ``tree``.

  Args:
    tree: the compiled game.
    normal: a result of :func:`normalise_vulnerability`.
    where: the infosets a number or a player's degree applies to (see
      :func:`resolve_scope`); an infoset key's degree applies regardless.

  Returns:
    beta(I), float64 [infosets] (0 where the spec gives none; an array as
    a float64 copy).

  Raises:
    ValueError: an array of another shape or with a degree outside
      [0, 1e100] (or NaN), an unknown infoset or player, or a bad
      ``where``.
  """
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
  """The vulnerability degrees beta(I) a spec gives on ``tree``.

  Args:
    tree: the compiled game.
    vulnerability: a number for every infoset in scope, ``{player: beta}``,
      ``{infoset key: beta}`` or a full [infosets] array; each beta a finite
      number >= 0.
    where: the infosets a number or player-level spec applies to.

  Returns:
    beta, float64 [infosets] (0 where the spec gives none).

  Raises:
    ValueError: beta < 0 or > 1e100, NaN, an unknown infoset or player.
  """
  return apply_vulnerability(tree, normalise_vulnerability(vulnerability),
                             where)
