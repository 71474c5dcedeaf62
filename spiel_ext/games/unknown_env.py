"""Games with unknown chance and rewards (seed 004; SPEC 3.3 and 4).

An environment instance keeps a two-player base game's tree shape and
replaces everything numeric with hidden parameters drawn from ``env_seed``:

  c*(h) ~ Dirichlet(1, ..., 1)  at every chance node h (over its outcomes),
  p(z)  ~ Uniform[0, 1]         at every terminal z: player 0 receives -1
                                with probability p(z) and +1 otherwise
                                (player 1 the negative).

The base game's payoffs are dropped. Two views:

- ``spiel_ext_unknown_env(game=kuhn_poker(),env_seed=0)``: the *true game* as
  a pyspiel game for evaluation. After each base terminal a final chance
  node draws the +-1 reward, so OpenSpiel's tools and our engine compute
  exact values of the expected game (c*, E[r]).
- :class:`Environment`: what a learner gets. It shows the rules (the base
  game's compiled tree: its shape, infosets and legal actions, never c* or
  p) and plays episodes: given a joint strategy over the rules' infosets it
  samples one trajectory, chance outcomes included, and a +-1 reward, and
  counts episodes.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pyspiel

from spiel_ext.games.common import StringObserver, poker_game_type

from spiel_ext.engine import CHANCE, TERMINAL, GameTree, compile_game, load_game

LOSS, WIN = 0, 1  # Outcomes of the reward chance node (player 0's -1 / +1).
_DEFAULTS = {"game": {"name": "kuhn_poker"}, "env_seed": 0}

_GAME_TYPE = poker_game_type("spiel_ext_unknown_env",
                             "Unknown-environment game (spiel_ext, seed 004)",
                             _DEFAULTS)


@dataclasses.dataclass(frozen=True)
class HiddenParameters:
  """c* and p on the base tree: chance_prob[h] is the hidden probability of
  the edge into h from a chance node (1 elsewhere); loss_prob[z] = p(z) at
  terminals (0 elsewhere)."""
  chance_prob: np.ndarray
  loss_prob: np.ndarray

  @classmethod
  def sample(cls, tree: GameTree, env_seed: int) -> "HiddenParameters":
    rng = np.random.default_rng(env_seed)
    chance_prob = np.ones(tree.num_histories)
    loss_prob = np.zeros(tree.num_histories)
    children = [[] for _ in range(tree.num_histories)]
    for h in range(1, tree.num_histories):
      children[tree.parent[h]].append(h)
    for h in range(tree.num_histories):
      if tree.node_player[h] == CHANCE:
        chance_prob[children[h]] = rng.dirichlet(np.ones(len(children[h])))
      elif tree.node_player[h] == TERMINAL:
        loss_prob[h] = rng.uniform()
    return cls(chance_prob, loss_prob)


def base_tree_for(game) -> GameTree:
  """The compiled base game (a game string, or the parameter dict pyspiel
  passes for ``game=name(...)``), checked for what seed 004 assumes."""
  if isinstance(game, dict):
    game = dict(game)
    name = game.pop("name")
    if name.startswith("spiel_ext_"):
      load_game(name)  # Registers our games.
    base = pyspiel.load_game(name, game)
  else:
    base = load_game(game)
  if base.num_players() != 2:
    raise ValueError(f"spiel_ext_unknown_env: the base game must have two "
                     f"players; {base} has {base.num_players()}.")
  return compile_game(base)


def _children_by_action(tree: GameTree) -> list[dict[int, int]]:
  table = [dict() for _ in range(tree.num_histories)]
  for h in range(1, tree.num_histories):
    table[tree.parent[h]][int(tree.action[h])] = h
  return table


# Per-instance data the states look up by game string: pyspiel clones Python
# states with deepcopy, which must not copy the tree.
_INSTANCES: dict[str, tuple[GameTree, HiddenParameters, list]] = {}


class UnknownEnvGame(pyspiel.Game):
  """The true game of one environment instance."""

  def __init__(self, params=None):
    values = dict(_DEFAULTS)
    values.update(params or {})
    try:
      env_seed = int(values["env_seed"])
    except (TypeError, ValueError):
      raise ValueError("spiel_ext_unknown_env: env_seed must be an integer; "
                       f"got {values['env_seed']!r}.") from None
    if env_seed < 0:
      raise ValueError(f"spiel_ext_unknown_env: env_seed must be >= 0; got "
                       f"{env_seed}.")
    self.base_tree = base_tree_for(values["game"])
    self.hidden = HiddenParameters.sample(self.base_tree, env_seed)
    self.children = _children_by_action(self.base_tree)
    base = self.base_tree.game
    info = pyspiel.GameInfo(
        num_distinct_actions=base.num_distinct_actions(),
        max_chance_outcomes=max(base.max_chance_outcomes(), 2),
        num_players=2, min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
        max_game_length=base.max_game_length() + 1)
    super().__init__(_GAME_TYPE, info, params or {})
    self.key = f"{self.base_tree.game_string}|{env_seed}"
    _INSTANCES[self.key] = (self.base_tree, self.hidden, self.children)

  def new_initial_state(self):
    return UnknownEnvState(self)

  def make_py_observer(self, iig_obs_type=None, params=None):
    return UnknownEnvObserver(iig_obs_type, params)


class UnknownEnvState(pyspiel.State):
  """A base-tree history (``node``) plus, after a base terminal, the drawn
  reward."""

  def __init__(self, game: UnknownEnvGame):
    super().__init__(game)
    self._key = game.key
    self.node = 0
    self.reward: float | None = None

  @property
  def _tree(self) -> GameTree:
    return _INSTANCES[self._key][0]

  @property
  def _hidden(self) -> HiddenParameters:
    return _INSTANCES[self._key][1]

  @property
  def _children(self) -> list:
    return _INSTANCES[self._key][2]

  @property
  def base_state(self) -> pyspiel.State:
    """The base game's state at this node (rebuilt by replay)."""
    return self._tree.state(self.node)

  def current_player(self):
    kind = int(self._tree.node_player[self.node])
    if kind == TERMINAL:
      return (pyspiel.PlayerId.TERMINAL if self.reward is not None else
              pyspiel.PlayerId.CHANCE)
    return kind

  def chance_outcomes(self):
    if self._tree.node_player[self.node] == TERMINAL:
      loss = float(self._hidden.loss_prob[self.node])
      return [(LOSS, loss), (WIN, 1.0 - loss)]
    children = self._children[self.node]
    return [(action, float(self._hidden.chance_prob[children[action]]))
            for action in sorted(children)]

  def _legal_actions(self, player):
    del player
    return sorted(self._children[self.node])

  def _apply_action(self, action):
    if self._tree.node_player[self.node] == TERMINAL:
      self.reward = 1.0 if action == WIN else -1.0
      return
    self.node = self._children[self.node][action]

  def is_terminal(self):
    return self.reward is not None

  def returns(self):
    if self.reward is None:
      return [0.0, 0.0]
    return [self.reward, -self.reward]

  def _action_to_string(self, player, action):
    if self._tree.node_player[self.node] == TERMINAL:
      return "Reward:-1" if action == LOSS else "Reward:+1"
    return self.base_state.action_to_string(player, action)

  def __str__(self):
    suffix = "" if self.reward is None else f" reward {self.reward:+.0f}"
    return f"{self.base_state}{suffix}"


class UnknownEnvObserver(StringObserver):
  """The base game's own infostate/observation strings (rules unchanged),
  plus the drawn reward once it is known."""

  def string_from(self, state, player):
    base = state.base_state
    text = (base.information_state_string(player) if self.perfect_recall
            else base.observation_string(player))
    if state.reward is not None:
      text += f" reward {state.reward:+.0f}"
    return text


def true_game_string(game: str, env_seed: int) -> str:
  """``spiel_ext_unknown_env(game=...,env_seed=...)`` for a base game string
  (pyspiel needs the nested game in parentheses: ``kuhn_poker()``)."""
  game = str(game)
  if "(" not in game:
    game += "()"
  return f"spiel_ext_unknown_env(game={game},env_seed={int(env_seed)})"


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

  Attributes:
    rules: the base game's compiled tree (tree shape, infosets, legal
      actions). Its own chance probabilities and payoffs are the base
      game's, not the environment's: learners must not use them.
    episodes: episodes played so far.
  """

  def __init__(self, game: str = "kuhn_poker", env_seed: int = 0):
    hidden_game = pyspiel.load_game(true_game_string(game, env_seed))
    self.rules: GameTree = hidden_game.base_tree
    self.game_string = str(hidden_game)
    self.episodes = 0
    self._sample = _episode_sampler(self.rules, hidden_game.hidden)

  def play_episode(self, strategy: np.ndarray,
                   rng: np.random.Generator) -> Episode:
    """Plays one episode with the joint ``strategy`` ([infosets, actions]
    over ``rules``' rows) and returns what the learner observes."""
    self.rules.check_policy(strategy, "strategy")
    if not isinstance(rng, np.random.Generator):
      raise ValueError("rng must be a numpy.random.Generator.")
    self.episodes += 1
    return self._sample(strategy, rng)


def _episode_sampler(tree: GameTree, hidden: HiddenParameters):
  """A closure that samples episodes; c* and p live only in its cells."""
  children = [[] for _ in range(tree.num_histories)]
  for h in range(1, tree.num_histories):
    children[tree.parent[h]].append(h)
  chance_prob = hidden.chance_prob.copy()
  loss_prob = hidden.loss_prob.copy()

  def sample(strategy: np.ndarray, rng: np.random.Generator) -> Episode:
    h = 0
    path = [0]
    while tree.node_player[h] != TERMINAL:
      options = children[h]
      if tree.node_player[h] == CHANCE:
        probs = chance_prob[options]
      else:
        probs = strategy[tree.infoset[h], tree.action[options]]
      h = options[rng.choice(len(options), p=probs / probs.sum())]
      path.append(h)
    reward = -1.0 if rng.random() < loss_prob[h] else 1.0
    return Episode(path, reward)

  return sample


pyspiel.register_game(_GAME_TYPE, UnknownEnvGame)
