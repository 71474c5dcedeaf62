"""What the engine admits: game types it can compile, and games that fit.

Admission happens once per compile, before anything is built
(:func:`admit`): the game's type is checked, then its size is forecast and
a game above the limit is refused. The forecast is the count of its
histories from its rules where they are known
(:func:`~.game_sizes.count_histories`, milliseconds: spiel_ext's games and
OpenSpiel's ``leduc_poker``, whose deep raise chains random walks rarely
follow), else :func:`estimate_num_histories`, random walks (Knuth's
estimator). While building, the compiler counts histories and the memory
they take (:class:`SizeLimit`) and stops as soon as the limit is passed. A
tree that is already compiled (in memory or on disk) was admitted when it
was built: only a ``max_histories`` the caller gives is checked against its
known size (:func:`check_compiled_size`).

The limit is ``max_histories`` when the caller gives one, else half the
available memory. The peak memory of compiling a tree and solving it is
forecast from its shape (:func:`estimate_tree_bytes`, from the table
:data:`PEAK_BYTES`): a cost per history that grows with the number of
players (the walk's buffers, the stored arrays and the working arrays of the
passes), plus a cost per information set and per infoset and action, and the
bytes of its key string, which dominate in perfect-information games such as
tic_tac_toe. Before compiling, only the number of histories is known (the
forecast), so a game is refused there on its histories alone; the compiler
adds its infosets and keys as it finds them.
"""

from __future__ import annotations

import dataclasses
import os

import numpy as np
import pyspiel

from spiel_ext.checks import is_integer
from spiel_ext.engine.game_sizes import count_histories

# The peak memory of compiling a game and solving it (the walk's buffers and
# their conversion, the tree's arrays and schedules, CFR's iterations and
# NashConv's best responses), in bytes per unit of the tree's shape: the
# terms of :func:`peak_terms`. Fitted by benchmarks/bench_memory.py
# (``--fit``: the least largest relative error over its games), which prints
# the forecast beside the measured peak of each game: within 19% on games
# from 4-player kuhn_poker (1.3 MB) to a 52M-history battleship (8.5 GB).
# Re-calibrate with it when arrays change. Whole bytes, so that the
# compiler's running cap (:meth:`SizeLimit.cap_terms`) is exact.
PEAK_BYTES = {
    "history": 82,  # The tree's and the passes' arrays, the walk's buffers.
    "history_player": 25,  # Utilities, reach and values per player.
    "infoset": 150,  # Its key's str object, list slot and dict entries.
    "infoset_action": 106,  # Policies, regrets, sums, best responses.
    "key_byte": 1,  # The key strings' characters.
}


def peak_terms(num_histories: float, num_players: int,
               num_infosets: float = 0, key_bytes: float = 0,
               num_actions: int = 0) -> dict[str, float]:
  """The shape terms a tree's peak memory is forecast from, by the names of
  :data:`PEAK_BYTES`."""
  return {
      "history": num_histories,
      "history_player": num_histories * num_players,
      "infoset": num_infosets,
      "infoset_action": num_infosets * num_actions,
      "key_byte": key_bytes,
  }


def estimate_tree_bytes(num_histories: float, num_players: int,
                        num_infosets: float = 0, key_bytes: float = 0,
                        num_actions: int = 0) -> float:
  """The forecast peak memory of compiling and solving a tree of this shape,
  in bytes: :data:`PEAK_BYTES` times :func:`peak_terms`.

  The peak is that of a process that compiles the game and runs CFR and
  NashConv on it (the growth of its peak resident set size), which
  benchmarks/bench_memory.py measures and fits the table to: the forecast
  is within 19% of it on games of 8k to 52M histories, 2 to 6 players and
  up to 350k infosets.

  Args:
    num_histories: the number of histories.
    num_players: the number of players.
    num_infosets: the number of information sets.
    key_bytes: the total length of their keys.
    num_actions: the game's number of distinct actions.
  """
  terms = peak_terms(num_histories, num_players, num_infosets, key_bytes,
                     num_actions)
  return float(sum(PEAK_BYTES[name] * terms[name] for name in PEAK_BYTES))


def check_game_type(game: pyspiel.Game) -> None:
  """Raises ValueError if the engine cannot compile games of this type."""
  game_type = game.get_type()
  if game_type.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS:
    raise ValueError(
        f"{game} is a simultaneous-move game; the engine needs a sequential "
        "game. Convert it first: pyspiel.convert_to_turn_based(game) or "
        f"pyspiel.load_game_as_turn_based('{game_type.short_name}').")
  if game_type.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
    raise ValueError(f"{game} has {game_type.dynamics} dynamics; only "
                     "sequential games can be compiled.")
  if game_type.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC:
    raise ValueError(f"{game} has sampled chance: its chance outcomes cannot "
                     "be enumerated, so its tree cannot be compiled.")
  if not (game_type.provides_information_state_string or
          game_type.provides_observation_string):
    raise ValueError(f"{game} provides neither information state strings nor "
                     "observation strings, so its infosets have no key.")


# Chance nodes of games that declare more possible outcomes than this
# (``game.max_chance_outcomes()``) are not enumerated by the size estimate:
# a Python game builds its outcome list anew on every call (about 4 s for
# 10^7 outcomes), so a few walks through such nodes took minutes.
_ENUMERATED_CHANCE_OUTCOMES = 100_000


def estimate_num_histories(game: pyspiel.Game, samples: int = 200,
                           seed: int = 0, *,
                           stop_above: float | None = None) -> float:
  """Knuth's unbiased estimate of the number of histories in ``game``.

  Each random root-to-leaf walk estimates the tree size as
  1 + b_0 + b_0 b_1 + ... with b_k the branching factor met at depth k.

  At a chance node of a game declaring more than 100,000 possible chance
  outcomes (``game.max_chance_outcomes()``), the outcomes are not listed:
  b_k is the declared number and the walk continues through a random
  outcome id below it (ending there if the game refuses that id, or the
  state it leads to fails). Every other node is enumerated as before.

  Args:
    game: the game.
    samples: the number of walks averaged.
    seed: seeds the walks' choices.
    stop_above: if given, return as soon as the estimate is certain to be
      above it (the walks so far already sum to more than ``samples`` times
      it, less one per walk to come); what is returned is then the estimate
      of the walks so far, also above ``stop_above``.

  Returns:
    The estimate (above 1e18 it is returned as soon as a walk passes 1e18).
  """
  rng = np.random.default_rng(seed)
  total = 0.0
  for walk in range(samples):
    estimate = _walk_estimate(game, rng)
    if estimate > 1e18:
      return estimate
    total += estimate
    # Each walk still to come adds at least 1 to the total.
    if stop_above is not None and (
        total + samples - walk - 1) / samples > stop_above:
      return total / (walk + 1)
  return total / samples


def _walk_estimate(game: pyspiel.Game, rng: np.random.Generator) -> float:
  """One random walk's 1 + b_0 + b_0 b_1 + ... (stopped past 1e18)."""
  declared_outcomes = game.max_chance_outcomes()
  listed_chance = declared_outcomes <= _ENUMERATED_CHANCE_OUTCOMES
  guessed = False  # Whether an outcome id was applied without listing.
  state = game.new_initial_state()
  estimate, width = 1.0, 1.0
  while not state.is_terminal() and estimate <= 1e18:
    try:
      if state.is_chance_node() and not listed_chance:
        branching = declared_outcomes
        action = int(rng.integers(declared_outcomes))
        guessed = True
      else:
        actions = (state.legal_actions() if not state.is_chance_node() else
                   [a for a, _ in state.chance_outcomes()])
        if not actions:
          break
        branching = len(actions)
        action = actions[rng.integers(len(actions))]
      width *= branching
      estimate += width
      state.apply_action(action)
    except Exception:  # pylint: disable=broad-except
      if not guessed:
        raise
      break  # The game refused a guessed outcome id: the walk ends here.
  return estimate


def check_max_histories(max_histories: object) -> int | None:
  """``max_histories`` as an int >= 1 or None; ValueError/TypeError else."""
  if max_histories is None:
    return None
  if not is_integer(max_histories):
    raise TypeError(f"max_histories must be an int >= 1 or None; got "
                    f"{max_histories!r} ({type(max_histories).__name__}).")
  if max_histories < 1:
    raise ValueError(f"max_histories must be an int >= 1 or None; got "
                     f"{max_histories}.")
  return int(max_histories)


def _available_memory_bytes() -> int:
  try:
    with open("/proc/meminfo") as meminfo:
      for line in meminfo:
        if line.startswith("MemAvailable:"):
          return int(line.split()[1]) * 1024
  except OSError:
    pass
  return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"))


@dataclasses.dataclass(frozen=True)
class SizeLimit:
  """How large a tree may get: a history count, or else a memory budget.

  Attributes:
    max_histories: the caller's limit, or None for the memory budget.
    max_bytes: half the memory available when the limit was made (used
      only without max_histories).
  """
  max_histories: int | None
  max_bytes: float

  @classmethod
  def for_request(cls, max_histories: int | None) -> "SizeLimit":
    return cls(max_histories, _available_memory_bytes() / 2)

  def history_cap(self, num_players: int, num_infosets: int = 0,
                  key_bytes: int = 0, num_actions: int = 0) -> float:
    """How many histories fit, given the infosets found so far."""
    if self.max_histories is not None:
      return self.max_histories
    spare, per_history, per_infoset, per_key_byte = self.cap_terms(
        num_players, num_actions)
    return max(0.0, spare - num_infosets * per_infoset -
               key_bytes * per_key_byte) // per_history

  def cap_terms(self, num_players: int,
                num_actions: int = 0) -> tuple[float, float, float, float]:
    """The cap as ``(spare, per_history, per_infoset, per_key_byte)``:
    ``history_cap(num_players, infosets, key_bytes, num_actions)`` is
    ``max(0, spare - infosets * per_infoset - key_bytes * per_key_byte) //
    per_history``, which a compiler can keep up to date as it finds
    infosets (exactly: the terms are whole numbers)."""
    if self.max_histories is not None:
      return float(self.max_histories), 1.0, 0.0, 0.0
    per_infoset = estimate_tree_bytes(0, num_players, 1, 0, num_actions)
    return (self.max_bytes, estimate_tree_bytes(1, num_players),
            per_infoset, estimate_tree_bytes(0, num_players, 0, 1))

  def check_estimate(self, game: pyspiel.Game, estimate: float,
                     how: str = "an estimated") -> None:
    """Refuses a game whose estimated size alone is above the limit
    (``how`` says what the size is, in the error)."""
    if estimate > self.history_cap(game.num_players()):
      raise self.error(game, estimate, how)

  def error(self, game: pyspiel.Game, num_histories: float, how: str,
            num_infosets: int = 0, key_bytes: int = 0) -> ValueError:
    """The error for a game above the limit, with its size."""
    return _too_large(game, num_histories, how, self.max_histories,
                      self.max_bytes, num_infosets, key_bytes)


def admit(game: pyspiel.Game, max_histories: int | None) -> SizeLimit:
  """Admits ``game`` for compiling, once, before anything is built.

  Checks its type (:func:`check_game_type`), then refuses it if the
  forecast of its size is above the limit (``max_histories``, or half the
  available memory when None): the count from its rules where they are
  known (:func:`~.game_sizes.count_histories`), else the random walks'
  estimate (:func:`estimate_num_histories`).

  Returns:
    The limit the compiler then enforces while building.

  Raises:
    ValueError: a game type the engine cannot compile, or too large.
  """
  check_game_type(game)
  limit = SizeLimit.for_request(max_histories)
  cap = limit.history_cap(game.num_players())
  # Counted on well past the cap, so that a refusal says how far above it
  # the game is: the count is exact, or a lower bound past 1000 caps.
  counted = count_histories(game, stop_above=1000 * cap)
  if counted is not None:
    limit.check_estimate(game, counted, "at least")
  else:
    limit.check_estimate(game, estimate_num_histories(game, stop_above=cap))
  return limit


def check_compiled_size(game: pyspiel.Game, num_histories: int,
                        max_histories: int | None) -> None:
  """Refuses a tree that is already compiled (in memory, on disk or given)
  with more than ``max_histories`` histories; None admits any size (the
  tree fitted in memory when it was built)."""
  if max_histories is not None and num_histories > max_histories:
    raise _too_large(game, num_histories, "it has", max_histories, 0.0)


class GameTooLarge(ValueError):
  """A game above the size limit. ``size`` is the message without its
  advice (for a game whose caller cannot pass ``max_histories``, such as a
  nested base game).

  Args:
    size: what is too large, and the limit.
    advice: what the caller can do.
  """

  def __init__(self, size: str, advice: str):
    super().__init__(f"{size} {advice}")
    self.size = size


def _too_large(game: pyspiel.Game, num_histories: float, how: str,
               max_histories: int | None, max_bytes: float,
               num_infosets: int = 0, key_bytes: int = 0) -> GameTooLarge:
  """The error for a game above the limit, with its size."""
  # Counts from a game's rules are ints, possibly beyond the floats.
  num_histories = float(min(num_histories, 1e300))
  gib = estimate_tree_bytes(num_histories, game.num_players(), num_infosets,
                            key_bytes, game.num_distinct_actions()) / 2**30
  if max_histories is not None:
    limit = f"the limit of max_histories={max_histories}"
    advice = "Pass a larger max_histories if the machine has the memory."
  else:
    limit = f"half the available memory ({max_bytes / 2**30:.3g} GiB)"
    advice = ("Pass max_histories=<count> to compile it anyway if the "
              "machine has the memory.")
  return GameTooLarge(
      f"{game} is too large to compile: {how} {num_histories:.3g} "
      f"histories, about {gib:.3g} GiB, above {limit}.", advice)
