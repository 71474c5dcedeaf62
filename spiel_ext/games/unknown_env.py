"""Games with unknown chance and rewards: ``spiel_ext_unknown_env``.

The unknown-environment setting of Qiu, Wang, Ma, Wen, Zhang, "Combining
Counterfactual Regret Minimization with Information Gain to Solve Extensive
Games with Unknown Environments", 2023, arXiv:2110.07892 (after Zhou, Li,
Zhu, "Posterior Sampling for Multi-Agent Reinforcement Learning: Solving
Extensive Games with Imperfect Information", ICLR 2020). An environment
instance keeps a two-player base game's tree shape; its chance distribution
c* and its rewards are hidden from the learner, and every random draw that
makes them comes from ``env_seed``:

  chance=game (default)  c*(h) = the base game's own chance probabilities
                         at every chance node h, as in the authors' code
                         (e.g. the card deal of Leduc(k)).
  chance=dirichlet       c*(h) ~ Dirichlet(1, ..., 1) over the outcomes of
                         every chance node h, drawn from env_seed.
  rewards (both)         r(z) ~ Uniform(-1, 1) at every terminal z; an
                         episode ending at z pays player 0 +1 with
                         probability (1 + r(z)) / 2 and -1 otherwise
                         (player 1 the negative), so r(z) is player 0's
                         expected reward. Stored as the same law written
                         p(z) = (1 - r(z)) / 2 ~ Uniform[0, 1], player 0's
                         probability of receiving -1 (``loss_prob``).
                         An env_seed draws the same rewards under both
                         chance models.

The learners of both papers do not know c* even when it is the base game's:
they start from a Dirichlet(1, ..., 1) prior at every chance node and a
Beta(1, 1) prior on each terminal's win probability (the law that drew it).
The base game's payoffs are dropped. Any two-player sequential game the
engine can compile is a valid base, with or without chance nodes (without
them only the rewards are hidden). Two views:

- ``spiel_ext_unknown_env(game=kuhn_poker(),env_seed=0)``: the *true game* as
  a pyspiel game for evaluation. After each base terminal a final chance
  node draws the +-1 reward, so OpenSpiel's tools and our engine compute
  exact values of the expected game (c*, E[r]). Chance outcomes keep their
  place even when their hidden probability is 0 (as in Leduc(k)'s deal;
  OpenSpiel's Python ``cfr.CFRSolver`` asserts positive chance
  probabilities; its C++ CFR and its evaluators accept 0). A base game with
  parameters nests in parentheses:
  ``spiel_ext_unknown_env(game=spiel_ext_bid_leduc(max_bid=4),env_seed=0)``
  (add ``chance=dirichlet`` for the Dirichlet variant).
- :class:`Environment`: what a learner gets. It shows the rules (the base
  game's tree: its shape, infosets and legal actions, never c* or p) and
  plays episodes: given a joint strategy over the rules' infosets it
  samples one trajectory, chance outcomes included, and a +-1 reward, and
  counts episodes.

Strings and tensors are the base game's (its rules are unchanged), with the
drawn reward appended once known: the strings end in `` reward +1`` /
`` reward -1``, the tensors in a ``drawn_reward`` piece [2] (one-hot: -1,
+1; zeros before the draw). A base game without information-state (or
observation) tensors gives an instance without them: the GameType flags
``provides_*_tensor`` are set per instance from the base game's.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

import numpy as np
import pyspiel

from spiel_ext.games.common import (Observer, PrivateInfo, check_integer,
                                    poker_game_type)

if TYPE_CHECKING:
  from spiel_ext.engine import GameTree

CHANCE = int(pyspiel.PlayerId.CHANCE)
TERMINAL = int(pyspiel.PlayerId.TERMINAL)
LOSS, WIN = 0, 1  # Outcomes of the reward chance node (player 0's -1 / +1).
_NAME = "spiel_ext_unknown_env"
_DEFAULTS = {"game": {"name": "kuhn_poker"}, "env_seed": 0,
             "chance": "game"}
# The hidden chance distribution: the base game's own, or Dirichlet draws.
CHANCE_MODELS = ("game", "dirichlet")
# Strategy rows must sum to 1 over the legal actions within this.
STRATEGY_TOLERANCE = 1e-6


def _game_type(information_state_tensor: bool = True,
               observation_tensor: bool = True) -> pyspiel.GameType:
  return poker_game_type(_NAME, "Unknown-environment game (spiel_ext)",
                         _DEFAULTS,
                         information_state_tensor=information_state_tensor,
                         observation_tensor=observation_tensor)


def check_chance_model(chance: object) -> str:
  """``chance`` if it is one of CHANCE_MODELS; ValueError naming it else."""
  if not isinstance(chance, str) or chance not in CHANCE_MODELS:
    raise ValueError(f"{_NAME}: chance must be one of {list(CHANCE_MODELS)}; "
                     f"got {chance!r}.")
  return chance


@dataclasses.dataclass(frozen=True)
class HiddenParameters:
  """c* and p on the base tree: chance_prob[h] is the hidden probability of
  the edge into h from a chance node (1 elsewhere); loss_prob[z] = p(z) at
  terminals (0 elsewhere), player 0's probability of receiving -1 (its
  expected reward there is r(z) = 1 - 2 p(z))."""
  chance_prob: np.ndarray
  loss_prob: np.ndarray

  @classmethod
  def sample(cls, tree: GameTree, env_seed: int,
             chance: str = "game") -> "HiddenParameters":
    """Draws the hidden parameters from ``env_seed``.

    Both models make the same draws, visiting the chance nodes and
    terminals in history order: a Dirichlet(1, ..., 1) at each chance node
    (over its outcomes in its children's order) and p at each terminal. So
    an ``env_seed`` has the same p under both; "game" then replaces the
    Dirichlet draws by the base game's own chance probabilities.

    Args:
      tree: the compiled base game.
      env_seed: the instance (an integer >= 0).
      chance: "game" or "dirichlet" (see CHANCE_MODELS).

    Raises:
      ValueError: ``chance`` is not one of CHANCE_MODELS.
    """
    check_chance_model(chance)
    rng = np.random.default_rng(env_seed)
    start, members = tree.children_lists()
    chance_prob = np.ones(tree.num_histories)
    loss_prob = np.zeros(tree.num_histories)
    kinds = tree.node_player
    for h in np.flatnonzero((kinds == CHANCE) | (kinds == TERMINAL)):
      if kinds[h] == CHANCE:
        children = members[start[h]:start[h + 1]]
        chance_prob[children] = rng.dirichlet(np.ones(len(children)))
      else:
        loss_prob[h] = rng.uniform()
    if chance == "game":
      chance_prob = tree.chance_prob.astype(np.float64, copy=True)
    return cls(chance_prob, loss_prob)


def base_tree_for(game: str | dict) -> GameTree:
  """The compiled base game (a game string, or the parameter dict pyspiel
  passes for ``game=name(...)``).

  Raises:
    ValueError: the base game cannot be loaded or compiled, or does not
      have two players.
  """
  from spiel_ext.engine import compile_game, load_game  # pylint: disable=g-import-not-at-top
  if isinstance(game, dict):
    params = dict(game)
    name = params.pop("name")
    if name not in pyspiel.registered_names():
      load_game(name)  # Raises the engine's one-line "unknown game" error.
    try:
      base = pyspiel.load_game(name, params)
    except (pyspiel.SpielError, RuntimeError) as error:
      raise ValueError(f"{_NAME}: cannot load the base game {name!r}: "
                       f"{' '.join(str(error).split())}") from None
  else:
    base = load_game(game)
  if base.num_players() != 2:
    raise ValueError(f"{_NAME}: the base game must have two players; {base} "
                     f"has {base.num_players()}.")
  return compile_game(base)


class _Instance:
  """What every state of one environment instance shares: the base tree,
  the hidden parameters, and each history's children by action.

  pyspiel clones Python states with ``copy.deepcopy``: an instance is
  shared by the clones, never copied. pyspiel serializes Python states by
  pickling their attributes: an instance pickles as None, and the restored
  state takes its game's instance again (see ``UnknownEnvState.shared``).
  """

  def __init__(self, tree: GameTree, hidden: HiddenParameters):
    self.tree = tree
    self.hidden = hidden
    self._start, self._members = tree.children_lists()
    self._by_action: dict[int, dict[int, int]] = {}

  def __deepcopy__(self, memo) -> "_Instance":
    return self

  def __copy__(self) -> "_Instance":
    return self

  def __reduce__(self):
    return (_detached, ())

  def children(self, history: int) -> dict[int, int]:
    """The children of ``history`` by action id, in increasing action id."""
    table = self._by_action.get(history)
    if table is None:
      members = self._members[self._start[history]:self._start[history + 1]]
      actions = self.tree.action[members]
      order = np.argsort(actions, kind="stable")
      table = dict(zip(actions[order].tolist(), members[order].tolist()))
      self._by_action[history] = table
    return table


def _detached() -> None:
  """What a pickled :class:`_Instance` or :class:`_BaseState` unpickles
  as."""
  return None


class _BaseState:
  """Holds an unknown-environment state's base-game state.

  A state clone copies it with the base state's ``clone()``: a deep copy
  would pickle the base state, which rebuilds its game (for a Python base
  game, a new game object per clone). It pickles as None, and the restored
  state rebuilds it from its history (see ``UnknownEnvState.base_state``).
  """
  __slots__ = ("state",)

  def __init__(self, state: pyspiel.State):
    self.state = state

  def __deepcopy__(self, memo) -> "_BaseState":
    return _BaseState(self.state.clone())

  def __reduce__(self):
    return (_detached, ())


class UnknownEnvGame(pyspiel.Game):
  """The true game of one environment instance.

  Args:
    params: pyspiel's parameter dict: ``game`` (the base game, default
      ``kuhn_poker()``), ``env_seed`` (an integer >= 0, default 0) and
      ``chance`` ("game", the default, or "dirichlet"; see the module
      docstring).

  Raises:
    ValueError: a bad ``env_seed`` or ``chance``, or a base game that cannot
      be loaded or compiled or does not have two players.
  """

  def __init__(self, params=None):
    values = dict(_DEFAULTS)
    values.update(params or {})
    env_seed = check_integer(_NAME, "env_seed", values["env_seed"], 0)
    chance = check_chance_model(values["chance"])
    self.base_tree = base_tree_for(values["game"])
    self.hidden = HiddenParameters.sample(self.base_tree, env_seed, chance)
    self.instance = _Instance(self.base_tree, self.hidden)
    base = self.base_tree.game
    base_type = base.get_type()
    info = pyspiel.GameInfo(
        num_distinct_actions=base.num_distinct_actions(),
        max_chance_outcomes=max(base.max_chance_outcomes(), 2),
        num_players=2, min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
        max_game_length=base.max_game_length())
    game_type = _game_type(base_type.provides_information_state_tensor,
                           base_type.provides_observation_tensor)
    super().__init__(game_type, info, params or {})

  def new_initial_state(self):
    return UnknownEnvState(self)

  def make_py_observer(self, iig_obs_type=None, params=None):
    return UnknownEnvObserver(self.base_tree.game, iig_obs_type, params)


class UnknownEnvState(pyspiel.State):
  """A base-tree history (``node``) plus, after a base terminal, the drawn
  reward."""

  def __init__(self, game: UnknownEnvGame):
    super().__init__(game)
    self._instance = game.instance
    self.node = 0
    self.reward: float | None = None
    self._base: _BaseState | None = None

  @property
  def shared(self) -> _Instance:
    """The game's tree, hidden parameters and children tables."""
    if self._instance is None:  # Restored from a serialized state.
      self._instance = self.get_game().instance
    return self._instance

  @property
  def base_state(self) -> pyspiel.State:
    """The base game's state at this node (built once, then kept up to
    date; do not modify it)."""
    if self._base is None:  # Not built yet, or restored from a serialized
      self._base = _BaseState(self.shared.tree.state(self.node))  # state.
    return self._base.state

  def _kind(self) -> int:
    return int(self.shared.tree.node_player[self.node])

  def current_player(self):
    kind = self._kind()
    if kind == TERMINAL:
      return (pyspiel.PlayerId.TERMINAL if self.reward is not None else
              pyspiel.PlayerId.CHANCE)
    return kind

  def chance_outcomes(self):
    hidden = self.shared.hidden
    if self._kind() == TERMINAL:
      loss = float(hidden.loss_prob[self.node])
      return [(LOSS, loss), (WIN, 1.0 - loss)]
    return [(action, float(hidden.chance_prob[child]))
            for action, child in self.shared.children(self.node).items()]

  def _legal_actions(self, player):
    return list(self.shared.children(self.node))

  def _apply_action(self, action):
    if self._kind() == TERMINAL:
      self.reward = 1.0 if action == WIN else -1.0
      return
    self.node = self.shared.children(self.node)[action]
    if self._base is not None:
      self._base.state.apply_action(action)

  def is_terminal(self):
    return self.reward is not None

  def returns(self):
    if self.reward is None:
      return [0.0, 0.0]
    return [self.reward, -self.reward]

  def _action_to_string(self, player, action):
    if self._kind() == TERMINAL:
      return "Reward:-1" if action == LOSS else "Reward:+1"
    return self.base_state.action_to_string(player, action)

  def __str__(self):
    suffix = "" if self.reward is None else f" reward {self.reward:+.0f}"
    return f"{self.base_state}{suffix}"


class UnknownEnvObserver(Observer):
  """The base game's own strings and tensors (the rules are unchanged), plus
  the drawn reward once it is known.

  Tensors come from the base game's observer for the same observation type
  and keep its named pieces; a ``drawn_reward`` piece [2] follows.
  """

  def __init__(self, base_game: pyspiel.Game, iig_obs_type=None,
               params=None):
    from open_spiel.python.observation import make_observation  # pylint: disable=g-import-not-at-top
    self._base_game = base_game
    self._base_observer = None
    self._tensor_problem = ""
    try:
      self._base_observer = make_observation(base_game, iig_obs_type)
    except (pyspiel.SpielError, RuntimeError, ValueError) as error:
      self._tensor_problem = " ".join(str(error).split())
    if self._base_observer is None and not self._tensor_problem:
      self._tensor_problem = "it has no observer for this observation type"
    super().__init__(iig_obs_type, params)

  def pieces(self):
    base_tensor = getattr(self._base_observer, "tensor", None)
    if base_tensor is None:
      self._tensor_problem = (self._tensor_problem or
                              "its observer has no tensor")
      return [("drawn_reward", (2,))]
    views = self._base_observer.dict or {}
    pieces = [(name, tuple(view.shape)) for name, view in views.items()]
    if sum(view.size for view in views.values()) != base_tensor.size:
      pieces = [("base", tuple(base_tensor.shape))]
    return pieces + [("drawn_reward", (2,))]

  def fill(self, state, player):
    if self._tensor_problem:
      raise ValueError(f"{_NAME}: the base game {self._base_game} provides no "
                       f"tensor for this observation type "
                       f"({self._tensor_problem}).")
    self._base_observer.set_from(state.base_state, player)
    base_tensor = self._base_observer.tensor
    self.tensor[:base_tensor.size] = base_tensor.ravel()
    if state.reward is not None:
      self.dict["drawn_reward"][LOSS if state.reward < 0 else WIN] = 1

  def string_from(self, state, player):
    base = state.base_state
    if self.private == PrivateInfo.SINGLE_PLAYER and self.public:
      text = (base.information_state_string(player) if self.perfect_recall
              else base.observation_string(player))
    elif self._base_observer is not None:
      text = self._base_observer.string_from(base, player)
    else:
      raise ValueError(f"{_NAME}: the base game {self._base_game} has no "
                       "observer for this observation type.")
    if state.reward is not None:
      text += f" reward {state.reward:+.0f}"
    return text


def true_game_string(game: str, env_seed: int, chance: str = "game") -> str:
  """``spiel_ext_unknown_env(game=...,env_seed=...)`` for a base game string
  (pyspiel needs the nested game in parentheses: ``kuhn_poker()``), with
  ``,chance=dirichlet`` appended unless ``chance`` is the default "game".

  Raises:
    ValueError: ``chance`` is not one of CHANCE_MODELS.
  """
  check_chance_model(chance)
  game = str(game)
  if "(" not in game:
    game += "()"
  suffix = "" if chance == "game" else f",chance={chance}"
  return (f"spiel_ext_unknown_env(game={game},env_seed={int(env_seed)}"
          f"{suffix})")


@dataclasses.dataclass
class Episode:
  """One played episode: the base-tree histories from the root to the
  terminal (so every chance outcome and action is visible) and player 0's
  sampled reward."""
  histories: list[int]
  reward: float

  @property
  def terminal(self) -> int:
    return self.histories[-1]


class Environment:
  """The learner's side of an unknown environment.

  Args:
    game: the base game's string (two players), e.g. ``"kuhn_poker"``.
    env_seed: the instance (an integer >= 0): which hidden parameters.
    chance: "game" (default: the hidden chance distribution is the base
      game's own) or "dirichlet" (drawn from ``env_seed``).

  Attributes:
    rules: the rules as a compiled tree: the base game's tree shape,
      infosets and legal actions, with no numbers of its own: its
      ``chance_prob`` is uniform over each chance node's outcomes (the mean
      of the Dirichlet(1, ..., 1) prior) and its ``utility`` is 0. (Its
      ``game`` is the base pyspiel game, for strings and legal actions;
      that game's ``chance_outcomes()`` are the base game's, the hidden c*
      when chance="game": learners must not read them.)
    episodes: episodes played so far.

  Raises:
    ValueError: a bad ``env_seed``, ``chance`` or base game.
  """

  def __init__(self, game: str = "kuhn_poker", env_seed: int = 0,
               chance: str = "game"):
    check_integer("Environment", "env_seed", env_seed, 0)
    hidden_game = pyspiel.load_game(true_game_string(game, env_seed, chance))
    self.rules: GameTree = _rules_only(hidden_game.base_tree)
    self.game_string = str(hidden_game)
    self.episodes = 0
    self._legal_weights = self.rules.infoset_legal.astype(np.float64)
    self._sample = _episode_sampler(self.rules, hidden_game.hidden)

  def play_episode(self, strategy: np.ndarray,
                   rng: np.random.Generator) -> Episode:
    """Plays one episode and returns what the learner observes.

    Args:
      strategy: the joint behaviour strategy, a [infosets, actions] array
        over ``rules``' rows; each row finite, non-negative and summing to
        1 (within 1e-6) over the infoset's legal actions.
      rng: the random generator of the episode's chance draws and actions.

    Returns:
      The episode (its histories and player 0's reward); ``episodes`` is
      incremented only once it has been played.

    Raises:
      TypeError: ``rng`` is not a numpy.random.Generator, or ``strategy``
        is not a real-valued array.
      ValueError: ``strategy`` has the wrong shape or is not a distribution
        at some infoset (the message names the first such infoset).
    """
    if not isinstance(rng, np.random.Generator):
      raise TypeError(f"rng must be a numpy.random.Generator (e.g. "
                      f"numpy.random.default_rng(seed)); got "
                      f"{type(rng).__name__}.")
    _check_strategy(self.rules, self._legal_weights, strategy)
    episode = self._sample(strategy, rng)
    self.episodes += 1
    return episode


def _rules_only(tree: GameTree) -> GameTree:
  """A copy of ``tree`` without its numbers: chance uniform over each chance
  node's outcomes, utilities 0 (the arrays of ``tree`` are not touched)."""
  from spiel_ext.engine import GameTree as Tree  # pylint: disable=g-import-not-at-top
  arrays = tree.arrays()
  num_children = np.bincount(tree.parent[1:], minlength=tree.num_histories)
  chance_prob = np.ones(tree.num_histories)
  below_chance = np.flatnonzero(tree.parent_slot == tree.num_players)
  chance_prob[below_chance] = 1.0 / num_children[tree.parent[below_chance]]
  arrays["chance_prob"] = chance_prob
  arrays["utility"] = np.zeros_like(tree.utility)
  return Tree(tree.game, arrays, tree.infoset_keys)


def _check_strategy(tree: GameTree, legal_weights: np.ndarray,
                    strategy: np.ndarray) -> None:
  """Raises unless ``strategy`` is a distribution over the legal actions at
  every infoset. ``legal_weights`` is ``tree.infoset_legal`` as floats.

  Vectorised: a NaN fails ``>= 0``, and an infinity makes its row's total
  over the legal actions infinite or NaN.
  """
  tree.check_policy(strategy, "strategy")
  if strategy.dtype.kind not in "fiu":
    raise TypeError(f"strategy must be an array of real numbers; got dtype "
                    f"{strategy.dtype}.")
  with np.errstate(invalid="ignore"):
    totals = np.einsum("ij,ij->i", strategy, legal_weights)
    if (strategy >= 0).all() and np.abs(totals - 1.0).max() <= (
        STRATEGY_TOLERANCE):
      return
    bad = ~(strategy >= 0).all(axis=1) | ~(
        np.abs(totals - 1.0) <= STRATEGY_TOLERANCE)
  row = int(np.argmax(bad))
  raise ValueError(
      f"strategy is not a probability distribution at infoset "
      f"{tree.infoset_keys[row]!r} (row {row}): {strategy[row].tolist()} "
      f"over legal actions {np.flatnonzero(legal_weights[row]).tolist()}; "
      f"every row must be finite, non-negative and sum to 1 (within "
      f"{STRATEGY_TOLERANCE:g}) over the legal actions.")


def _episode_sampler(tree: GameTree, hidden: HiddenParameters):
  """A closure that samples episodes; c* and p live only in its cells."""
  start, members = tree.children_lists()
  chance_prob = hidden.chance_prob.copy()
  loss_prob = hidden.loss_prob.copy()

  def sample(strategy: np.ndarray, rng: np.random.Generator) -> Episode:
    h = 0
    path = [0]
    while tree.node_player[h] != TERMINAL:
      options = members[start[h]:start[h + 1]]
      if tree.node_player[h] == CHANCE:
        probs = chance_prob[options]
      else:
        probs = strategy[tree.infoset[h], tree.action[options]]
      # What rng.choice(len(options), p=probs / probs.sum()) draws (the
      # same stream), without its per-call checks.
      cdf = (probs / probs.sum()).cumsum()
      cdf /= cdf[-1]
      h = int(options[cdf.searchsorted(rng.random(), side="right")])
      path.append(h)
    reward = -1.0 if rng.random() < loss_prob[h] else 1.0
    return Episode(path, reward)

  return sample


pyspiel.register_game(_game_type(), UnknownEnvGame)
