"""Exploration for the unknown-environment learners: the information bonus
and the exploring strategies.

The information bonus of Qiu, Wang, Ma, Wen, Zhang, "Combining
Counterfactual Regret Minimization with Information Gain to Solve Extensive
Games with Unknown Environments", arXiv:2110.07892 (VCFR), eq. 10: a
modelled game's terminal rewards become r' = r + eta * KL(z), with KL(z) an
information gain at terminal z. :class:`InformationBonus` holds the options
in which the paper's text and the authors' code (github chenqiu01/VCFR)
differ:

- ``players``: "zero_sum" (the authors' ``vime.py:128-130``): player 1's
  reward is r + eta KL and player 0's is -(r + eta KL), a zero-sum shift
  toward player 1; "both": eta KL added to both players' rewards (the
  reading of the text's r' = r + eta KL for each player; the modelled game
  is then not zero-sum).
- ``normalisation``: "median" (``vime.py:104-109``): KL divided by the mean
  of the last 10 per-iteration medians over terminals, so eta is in units
  of a typical gain whatever the model; "none": raw KL (the text).
- ``information``: where KL comes from: "conjugate", the exact expected KL
  of the Beta posterior at z (:class:`~spiel_ext.algorithms.posterior.
  ConjugatePosterior`); "bnn", our Bayesian neural network trained on the
  observed outcomes, VIME's expected gain; "bnn_sampled", the authors' KL:
  the network's VIME second-order term (step 0.01) at this iteration's
  posterior-drawn reward under a Gaussian likelihood, with 10 fresh weight
  draws per terminal, the network then trained one pass on the drawn
  rewards (``vime.py:62-69,170-195``, ``bnn.py:388-433``; hidden 64, lr
  0.01, batch 1000, prior sd 0.5, their initialisation), with no bonus and
  no training on the first call as theirs. Its normalised spread over
  terminals matches theirs (coefficient of variation 0.91 on unknown
  Leduc(4) after 50 iterations; theirs 0.93): most of it is the Monte
  Carlo noise of the per-terminal draws.

The exploring strategies of posterior-sampling CFR (Zhou, Li, Zhu,
"Posterior Sampling for Multi-Agent Reinforcement Learning: Solving
Extensive Games with Imperfect Information", ICLR 2020; the authors' code,
github DongdongBai/submit, ``cfrpsrl.py``) are pure strategies of player i
against the other player's average strategy, computed by the engine's best
response:

- "br_dirc": a best response in a second posterior draw.
- "default": the pure strategy maximising V_draw(s) - V_avg(s), its value
  in the second draw minus its value in the average model (the
  chance-reach-weighted average of all CFR draws so far,
  :class:`AverageModel`): in sequence form both are linear in s, so this is
  a best response to the terminal utility c_draw(z) u_draw(z) - c_avg(z)
  u_avg(z), with c the chance reach, under the other player's reach.

Two quirks of the authors' exploration pass are not copied (each changes
which actions explore, not what exploration means): reach probabilities
restart at 1 after each of the exploring player's own actions, and player
1's pass reuses value buffers player 0's pass wrote.
"""

from __future__ import annotations

import collections
import dataclasses
from typing import TYPE_CHECKING, Any

import numpy as np

from spiel_ext.algorithms.checks import check_choice, check_int, check_real
from spiel_ext.algorithms.contract import (SolverConfig, config_property,
                                           set_field)
from spiel_ext.algorithms.model_kernels import (add_to_average_model,
                                                average_model_game,
                                                gathered_median, median,
                                                scaled_by_mean,
                                                shift_utility,
                                                shift_utility_scaled,
                                                utility_difference)
from spiel_ext.algorithms.protocol import resolve_config
from spiel_ext.engine import CHANCE, GameTree, GameView
from spiel_ext.engine.model_passes import chance_reach_of
from spiel_ext.engine.response_passes import both_best_responses

if TYPE_CHECKING:
  from spiel_ext.algorithms.bnn import BNNRewardModel
  from spiel_ext.algorithms.posterior import ConjugatePosterior
  from spiel_ext.games.unknown_env.learner import Episode

BONUS_PLAYERS = ("zero_sum", "both")
NORMALISATIONS = ("median", "none")
INFORMATION_MODELS = ("conjugate", "bnn", "bnn_sampled")
# The authors' normalisation: the mean of the last 10 medians.
MEDIAN_WINDOW = 10
# eta: the bonus eta KL is added to rewards of size 1; an information gain
#   is at most a few nats (normalised: at most the number of terminals
#   times the median window), so with eta <= 1e100 the modelled utilities
#   and 10^18 iterations of regrets stay below 1e130.
MAX_ETA = 1e100
# kl_every (information="bnn"): any iteration count; int64.
MAX_KL_EVERY = 2**63 - 1
# The bonus weight of the paper's text (the authors' code uses 0.01).
DEFAULT_ETA = 0.005


def check_eta(eta: Any) -> float:
  """``eta`` as a float in [0, 1e100]; ValueError naming it otherwise.

  Args:
    eta: the value to check.

  Returns:
    ``eta`` as a float.

  Raises:
    ValueError: ``eta`` is not a finite number in [0, 1e100].
  """
  return check_real("eta", eta, 0.0, MAX_ETA)


@dataclasses.dataclass(frozen=True, eq=False)
class BonusConfig(SolverConfig):
  """The options of :class:`InformationBonus`, checked once, here.

  The learners with a bonus extend it (their ``Config`` is a
  ``BonusConfig``), so each option is written once.

  Attributes:
    eta: the weight, in [0, 1e100] (default 0.005, the paper's text; the
      authors' code uses 0.01).
    players: "zero_sum" (default, the authors') or "both" (see the module
      docstring).
    normalisation: "median" (default, the authors') or "none".
    information: "conjugate" (default; exact), "bnn" (our network) or
      "bnn_sampled" (the authors' KL; both need the ``bnn`` extra).
    kl_every: for information="bnn": an int in 1..2**63 - 1 (default 10),
      recompute the gain every this many calls (in between, the last one).

  Raises:
    ValueError: an option out of its range or choices, naming it.
  """
  eta: float = DEFAULT_ETA
  players: str = "zero_sum"
  normalisation: str = "median"
  information: str = "conjugate"
  kl_every: int = 10

  def __post_init__(self) -> None:
    checked = {
        "eta": check_eta(self.eta),
        "players": check_choice("players", self.players, BONUS_PLAYERS),
        "normalisation": check_choice("normalisation", self.normalisation,
                                      NORMALISATIONS),
        "information": check_choice("information", self.information,
                                    INFORMATION_MODELS),
        "kl_every": check_int("kl_every", self.kl_every, 1, MAX_KL_EVERY)}
    for name, value in checked.items():
      set_field(self, name, value)
    # A learner's config extends this one and another: theirs go on.
    super().__post_init__()


class InformationBonus:
  """r' = r + eta KL(z) on a modelled game's terminal utilities.

  Constructed as ``InformationBonus(rules, config)`` or with the options
  as keywords, ``InformationBonus(rules, eta=0.01, information="bnn")``.

  Args:
    rules: the base game's compiled tree.
    config: a :class:`BonusConfig` (a learner passes its own config, which
      extends it), or None for the defaults.
    seed: the network's seed (information "bnn" and "bnn_sampled").
    **options: :class:`BonusConfig`'s fields, replacing ``config``'s.

  Raises:
    ValueError: a bad option (see :class:`BonusConfig`).
    TypeError: ``config`` is not a BonusConfig, or an unknown keyword.
  """

  def __init__(self, rules: GameTree, config: BonusConfig | None = None, *,
               seed: int | None = 0, **options: Any):
    self.config = resolve_config(BonusConfig, config, options,
                                 "InformationBonus")
    information = self.config.information
    self._terminals = rules.terminals
    self._medians: collections.deque = collections.deque(
        maxlen=MEDIAN_WINDOW)
    self._calls = 0
    self._gain: np.ndarray | None = None
    self.reward_model: BNNRewardModel | None = None
    if information != "conjugate":
      # Only here: importing spiel_ext.algorithms must not import the
      # network's module (its users need the optional PyTorch).
      # pylint: disable-next=g-import-not-at-top
      from spiel_ext.algorithms.bnn import BNNRewardModel
      network_options: dict[str, Any] = (
          dict(hidden=64, learning_rate=0.01, batch_size=1000,
               likelihood="gaussian", kl_step_size=0.01, noise_samples=10,
               kl_noise="fresh", init="authors", prior_sigma=0.5)
          if information == "bnn_sampled" else {})
      # seed=None reaches the network's own check (a one-line error).
      self.reward_model = BNNRewardModel(
          rules, seed=seed, **network_options)  # type: ignore[arg-type]

  # The options, read from the config (written once, there).
  eta = config_property("eta", "The bonus weight")
  players = config_property("players", "Whose rewards get the bonus")
  normalisation = config_property("normalisation", "The gain's normalisation")
  information = config_property("information", "Where the gain comes from")
  kl_every = config_property(
      "kl_every", "How often the network's gain is recomputed")

  def _network(self) -> BNNRewardModel:
    """The reward network (information "bnn" or "bnn_sampled")."""
    assert self.reward_model is not None
    return self.reward_model

  def observe(self, episode: Episode) -> None:
    """The network of information="bnn" learns from observed outcomes.

    Args:
      episode: an :class:`~spiel_ext.games.unknown_env.learner.Episode`
        (ignored for the other information models).
    """
    if self.information == "bnn":
      self._network().observe(episode.histories, episode.reward)

  def _raw_gain(self, posterior: ConjugatePosterior,
                utility: np.ndarray) -> np.ndarray | None:
    """[terminals] KL before normalisation (None: no bonus this call)."""
    if self.information == "conjugate":
      return posterior.information_gain()[self._terminals]
    if self.information == "bnn":
      self._network().train(1)
      if self._gain is None or self._calls % self.kl_every == 0:
        self._gain = self._network().information_gain()[self._terminals]
      return self._gain
    targets = utility[self._terminals, 1].copy()  # Player 1's drawn reward.
    if self._calls == 0:
      return None
    gain = self._network().sampled_target_information_gain(targets)
    self._network().train_on_targets(targets)
    return gain

  def gain(self, posterior: ConjugatePosterior,
           utility: np.ndarray) -> np.ndarray | None:
    """[terminals] the normalised gain KL(z) of this call (None on the
    authors' network's first call).

    Args:
      posterior: the learner's
        :class:`~spiel_ext.algorithms.posterior.ConjugatePosterior` (its
        gain is read for information="conjugate").
      utility: the modelled game's utility [histories, 2] (for
        information="bnn_sampled", player 1's terminal rewards are the
        network's targets).

    Returns:
      [terminals] gains in ``rules.terminals`` order, or None.
    """
    raw: np.ndarray | None
    if self.information == "conjugate" and self.normalisation == "median":
      # What the general steps below compute, in two numba calls.
      self._calls += 1
      raw, middle = gathered_median(posterior.information_gain(),
                                    self._terminals)
      self._medians.append(float(middle))
      return scaled_by_mean(raw, np.array(self._medians))
    raw = self._raw_gain(posterior, utility)
    self._calls += 1
    if raw is None:
      return None
    if self.normalisation == "none":
      return raw
    self._medians.append(float(median(raw) if raw.dtype == np.float64
                               else np.median(raw)))
    scale = float(np.mean(self._medians))
    return raw / scale if scale > 0 else raw

  def shift(self, utility: np.ndarray, gain: np.ndarray | None
            ) -> np.ndarray:
    """Adds eta ``gain`` [terminals] to ``utility`` [histories, 2] in place
    (a modelled game's, before its check) as ``players`` says; returns it.

    Args:
      utility: [histories, 2] utilities, changed in place.
      gain: [terminals] gains (:meth:`gain`), or None for no bonus.

    Returns:
      ``utility``.
    """
    if gain is None or self.eta == 0.0:
      return utility
    if gain.dtype == np.float64:  # eta * gain[k] computed in the kernel.
      shift_utility_scaled(utility, self._terminals, gain, self.eta,
                           self.players == "zero_sum")
    else:  # A network's gain: numpy's product keeps its dtype.
      shift_utility(utility, self._terminals, self.eta * gain,
                    self.players == "zero_sum")
    return utility

  def apply(self, posterior: ConjugatePosterior,
            utility: np.ndarray) -> np.ndarray:
    """This iteration's gain (:meth:`gain`) shifted into ``utility``.

    Args:
      posterior: as for :meth:`gain`.
      utility: as for :meth:`gain`; changed in place.

    Returns:
      ``utility``.
    """
    return self.shift(utility, self.gain(posterior, utility))

  def state_dict(self) -> dict[str, Any]:
    """The bonus's state as plain data: the medians in the window, the
    calls so far, the last network gain (information="bnn"; None before
    the first) and the network's :meth:`~spiel_ext.algorithms.bnn.
    BNNRewardModel.state_dict` (None for the conjugate gain).

    Returns:
      {"medians", "calls", "gain", "reward_model"}.
    """
    return {"medians": list(self._medians), "calls": self._calls,
            "gain": None if self._gain is None else self._gain.copy(),
            "reward_model": (None if self.reward_model is None else
                             self.reward_model.state_dict())}

  def load_state_dict(self, state: dict[str, Any]) -> None:
    """Restores a :meth:`state_dict` of a bonus with the same options.

    Args:
      state: a :meth:`state_dict`.

    Raises:
      ValueError: it does not fit (a gain of another shape, a network
        state for a bonus without one or the reverse).
    """
    medians = [float(value) for value in state["medians"]]
    if len(medians) > MEDIAN_WINDOW:
      raise ValueError(f"checkpoint bonus holds {len(medians)} medians, "
                       f"more than the window of {MEDIAN_WINDOW}.")
    gain = state["gain"]
    if gain is not None:
      gain = np.array(gain, dtype=np.float64)
      if gain.shape != self._terminals.shape:
        raise ValueError(f"checkpoint bonus gain has shape {gain.shape}, "
                         f"not {self._terminals.shape}.")
    network = state["reward_model"]
    if (network is None) != (self.reward_model is None):
      raise ValueError(f"checkpoint bonus is for another information "
                       f"model than {self.information!r}.")
    if network is not None:
      self._network().load_state_dict(network)
    self._medians = collections.deque(medians, maxlen=MEDIAN_WINDOW)
    self._calls = int(state["calls"])
    self._gain = gain


def average_model_state(model: "AverageModel") -> dict[str, np.ndarray]:
  """An :class:`AverageModel`'s running sums as plain data (copies).

  Args:
    model: the average model.

  Returns:
    {"weight", "chance": [histories], "utility": [histories, 2]} arrays.
  """
  # pylint: disable=protected-access
  return {"weight": model._weight.copy(), "chance": model._chance.copy(),
          "utility": model._utility.copy()}


def load_average_model_state(model: "AverageModel",
                             state: dict[str, np.ndarray]) -> None:
  """Restores :func:`average_model_state` into ``model`` (same rules).

  Args:
    model: the average model, changed in place.
    state: an :func:`average_model_state` dict.

  Raises:
    ValueError: an array of another shape.
  """
  # pylint: disable=protected-access
  arrays = {"weight": model._weight, "chance": model._chance,
            "utility": model._utility}
  loaded = {name: np.asarray(state[name], dtype=np.float64)
            for name in arrays}
  for name, value in loaded.items():
    if value.shape != arrays[name].shape:
      raise ValueError(f"checkpoint average model {name} has shape "
                       f"{value.shape}, not {arrays[name].shape}.")
  for name, value in loaded.items():
    arrays[name][...] = value


def chance_reach(rules: GameTree, chance_prob: np.ndarray) -> np.ndarray:
  """[histories] the product of the chance probabilities above each
  history.

  Args:
    rules: the compiled tree.
    chance_prob: [histories] chance edge probabilities (checked for shape
      and type only).

  Returns:
    A new [histories] array.
  """
  return chance_reach_of(rules, chance_prob)


class AverageModel:
  """The chance-reach-weighted average of the CFR draws so far (the
  authors' ``avgchance``, ``cfrpsrl.py``): with w_t(h) the chance reach of
  h in draw t, the average chance probability of a chance child h.a is
  sum_t w_t(h) p_t(h.a) / sum_t w_t(h) and the average utility at a
  terminal z is sum_t w_t(z) u_t(z) / sum_t w_t(z). It holds arrays only
  (the tree is passed in), so a learner's ``state_dict`` holds it as plain
  data.

  Args:
    rules: the base game's compiled tree (the model starts empty).
  """

  def __init__(self, rules: GameTree):
    self._default_chance = rules.chance_prob.copy()
    self._weight = np.zeros(rules.num_histories)
    self._chance = np.zeros(rules.num_histories)
    self._utility = np.zeros((rules.num_histories, 2))
    parent = rules.parent
    self._chance_children = np.flatnonzero(
        (parent >= 0) & (rules.node_player[np.maximum(parent, 0)] ==
                         CHANCE))
    self._parents = parent[self._chance_children]

  def add(self, rules: GameTree, chance_prob: np.ndarray,
          utility: np.ndarray) -> None:
    """Adds one draw to the sums.

    Args:
      rules: the tree the model was made for.
      chance_prob: the draw's [histories] chance probabilities.
      utility: the draw's [histories, 2] utilities.
    """
    add_to_average_model(
        chance_reach(rules, chance_prob), self._chance_children,
        self._parents, np.ascontiguousarray(chance_prob, dtype=np.float64),
        np.ascontiguousarray(utility, dtype=np.float64), self._weight,
        self._chance, self._utility)

  def game(self) -> tuple[np.ndarray, np.ndarray]:
    """(chance_prob, utility) of the average (uniform where a chance node
    was never reached: it has weight 0 only if never drawn reachable).

    Returns:
      (chance_prob [histories], utility [histories, 2]), new arrays.
    """
    return average_model_game(self._weight, self._chance, self._utility,
                              self._chance_children, self._parents,
                              self._default_chance)


EXPLORATIONS = ("default", "br_dirc", "best_response")


def exploring_actions(rules: GameTree, exploration: str | None,
                      average: np.ndarray, draw: GameView,
                      average_model: tuple[np.ndarray, np.ndarray] | None
                      ) -> list[np.ndarray]:
  """Each player's exploring pure strategy against the other's average:
  a strategy [infosets, actions] equal to ``average`` except at the
  player's own infosets, where it plays the chosen action.

  Args:
    rules: the base game's tree.
    exploration: "default" (V_draw - V_avg) or "br_dirc"/"best_response"
      (a best response in ``draw``).
    average: the average strategy profile.
    draw: the second posterior draw, ``rules.with_model(chance_prob,
      utility)``.
    average_model: (chance_prob, utility) of :class:`AverageModel`, for
      "default".

  Returns:
    [player 0's, player 1's] exploring strategies, new [infosets, actions]
    arrays.
  """
  if exploration == "default":
    assert average_model is not None  # Kept for "default".
    reach = draw.reach(average)
    target = rules.with_vouched_model(utility=utility_difference(
        np.ascontiguousarray(reach[:, -1]), draw.utility,
        chance_reach(rules, average_model[0]), average_model[1]))
    responses = [target.best_response(
        average, player, terminal_others=reach[rules.terminals, 1 - player])
                 for player in (0, 1)]
  else:
    responses = both_best_responses(draw, average)
  strategies = []
  for player, (_, best, _) in zip((0, 1), responses):
    strategy = average.copy()
    rows = rules.player_rows[player]
    strategy[rows] = 0.0
    strategy[np.arange(rows.start, rows.stop), best[rows]] = 1.0
    strategies.append(strategy)
  return strategies
