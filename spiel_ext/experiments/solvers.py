"""The algorithms experiments can run, by label.

A label maps to a solver factory (a module-level function, so worker
processes and Ray tasks can unpickle it) and the hyperparameters the papers
use. ``random`` starts give each seed its own initial strategy: random
cumulative regrets for the CFR family, a Dirichlet(1) strategy for
fictitious play, as the papers' multi-start runs do.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib.util
from typing import Any, Callable


def build_solver(game: str, seed: int = 0, *, solver: str, **hyperparameters):
  """``spiel_ext.algorithms.<solver>(game, seed=seed, **hyperparameters)``."""
  from spiel_ext import algorithms  # pylint: disable=g-import-not-at-top
  return getattr(algorithms, solver)(game, seed=seed, **hyperparameters)


def build_openspiel_cfr(game: str, seed: int = 0):
  """OpenSpiel's own Python ``cfr.CFRSolver`` (uniform start; ``seed`` is
  unused: the solver is deterministic)."""
  del seed
  from spiel_ext.engine import load_game  # pylint: disable=g-import-not-at-top
  from open_spiel.python.algorithms import cfr  # pylint: disable=g-import-not-at-top
  return cfr.CFRSolver(load_game(game))


def build_first_decision_pref_cfr(game: str, seed: int = 0, *, action: str,
                                  degree: float, variant: str,
                                  random_init: bool = True,
                                  alternating_updates: bool = True):
  """Pref-CFR with preference degree ``degree`` on ``action`` at player 1's
  (seat 0's) first decisions, as in the Pref-CFR paper's section 5.1."""
  from spiel_ext.algorithms import FirstDecisions, PrefCFRSolver  # pylint: disable=g-import-not-at-top
  return PrefCFRSolver(game, preference={action: degree},
                       where=FirstDecisions(player=0), variant=variant,
                       random_init=random_init,
                       alternating_updates=alternating_updates, seed=seed)


# Schulze's perturbed game: every action keeps probability >= this.
GXFP_EPSILON = 0.01


@dataclasses.dataclass(frozen=True)
class AlgorithmEntry:
  """A runnable algorithm: its factory and fixed hyperparameters."""
  factory: Callable[..., Any]
  hyperparameters: tuple[tuple[str, Any], ...] = ()
  description: str = ""
  seeded: bool = True  # False: deterministic, one seed is enough.
  extra: str | None = None  # The optional extra whose packages it needs.


def _ours(solver: str, description: str, seeded: bool = True,
          **hyperparameters) -> AlgorithmEntry:
  return AlgorithmEntry(functools.partial(build_solver, solver=solver),
                        tuple(sorted(hyperparameters.items())), description,
                        seeded)


def _first_decision_preference(variant: str, action: str, degree: float,
                               alternating: bool = True) -> AlgorithmEntry:
  options = {} if alternating else {"alternating_updates": False}
  return AlgorithmEntry(
      functools.partial(build_first_decision_pref_cfr, action=action,
                        degree=degree, variant=variant, **options),
      tuple(sorted({"action": action, "degree": degree, "variant": variant,
                    **options}.items())),
      f"Pref-CFR({variant.upper()}), delta({action}) = {degree:g} at player "
      "1's first decisions, random initial regrets, "
      f"{'alternating' if alternating else 'simultaneous'} updates")


# ------------------------------------------------------------- play styles
# The Pref-CFR paper's section 5.2 styles: preference degree 5 on the
# style's actions and vulnerability 0.05 at player 1's (seat 0's) first
# decisions, Pref-CFR(BR).
STYLE_DEGREE = 5.0
STYLE_VULNERABILITY = 0.05
# The moves (action labels without OpenSpiel's "player=i move=" prefix) a
# style prefers. "Raise" (Leduc) and "Bet" or "Bet<size>" (universal_poker,
# fcpa's pot-size raise) are raises; "AllIn" is not preferred (see
# spiel_ext.experiments.pref_cfr_styles for why).
STYLES = ("normal", "aggressive", "loose-passive")


def is_raise(move: str) -> bool:
  """Whether a move counts as a raise for the aggressive style: ``Raise``,
  ``Bet`` or ``Bet<size>``; ``AllIn`` does not."""
  return move == "Raise" or (move.startswith("Bet") and
                             (move == "Bet" or move[3:].isdigit()))


def style_preference(game, style: str,
                     degree: float = STYLE_DEGREE) -> dict[str, float]:
  """{action label: degree} for the actions ``style`` prefers at seat 0's
  first decisions of ``game``: raises (``aggressive``; see
  :func:`is_raise`) or ``Call`` (``loose-passive``; a check is OpenSpiel's
  Call).

  Args:
    game: a game string, pyspiel game or compiled GameTree.
    style: "aggressive" or "loose-passive".
    degree: the preference degree delta >= 1 (default STYLE_DEGREE).

  Raises:
    ValueError: another style, or a game whose seat-0 first decisions offer
      no action of the style (naming the labels they do offer).
  """
  from spiel_ext.algorithms import FirstDecisions  # pylint: disable=g-import-not-at-top
  from spiel_ext.algorithms.pref_cfr import action_labels  # pylint: disable=g-import-not-at-top
  from spiel_ext.engine import compile_game  # pylint: disable=g-import-not-at-top
  from spiel_ext.eval.styles import move_name  # pylint: disable=g-import-not-at-top
  wanted = {"aggressive": is_raise, "loose-passive": lambda m: m == "Call"}
  if style not in wanted:
    raise ValueError(f"style must be one of {sorted(wanted)} for a "
                     f"preference; got {style!r}.")
  tree = compile_game(game)
  labels = {}
  for row in FirstDecisions(player=0)(tree):
    labels.update(action_labels(tree, int(row)))
  chosen = {label: degree for label in labels
            if wanted[style](move_name(label))}
  if not chosen:
    raise ValueError(f"style {style!r}: seat 0's first decisions of "
                     f"{tree.game_string} offer no such action; they offer "
                     f"{sorted(labels)}.")
  return chosen


def build_style_solver(game: str, seed: int = 0, *, style: str,
                       degree: float = STYLE_DEGREE,
                       vulnerability: float = STYLE_VULNERABILITY,
                       variant: str = "br",
                       vulnerability_unit: str = "conditional"):
  """A solver of the Pref-CFR paper's section 5.2 play styles.

  ``normal`` is vanilla CFR with ``variant="rm"`` (the paper's hold'em
  text: "standard CFR") and Pref-CFR(BR) without preference with
  ``variant="br"`` (the authors' Leduc code); ``aggressive`` and
  ``loose-passive`` are Pref-CFR (``variant``, default BR) with delta =
  ``degree`` on the style's actions (see :func:`style_preference`) and beta
  = ``vulnerability`` (in ``vulnerability_unit``, see
  :class:`~spiel_ext.algorithms.PrefCFRSolver`) at seat 0's first decisions
  only. All start from the uniform strategy, so they are deterministic and
  ``seed`` is unused.

  Raises:
    ValueError: an unknown style, or as :func:`style_preference` and
      :class:`~spiel_ext.algorithms.PrefCFRSolver` (bad degrees, variant).
  """
  del seed
  from spiel_ext.algorithms import (CFRSolver, FirstDecisions,  # pylint: disable=g-import-not-at-top
                                    PrefCFRSolver)
  from spiel_ext.engine import compile_game  # pylint: disable=g-import-not-at-top
  if style not in STYLES:
    raise ValueError(f"style must be one of {list(STYLES)}; got {style!r}.")
  tree = compile_game(game)
  if style == "normal":
    return (CFRSolver(tree) if variant == "rm" else
            PrefCFRSolver(tree, variant=variant))
  return PrefCFRSolver(tree, preference=style_preference(tree, style, degree),
                       vulnerability=vulnerability,
                       vulnerability_unit=vulnerability_unit,
                       where=FirstDecisions(player=0), variant=variant)


def _style(style: str, description: str, variant: str = "br",
           vulnerability_unit: str = "conditional") -> AlgorithmEntry:
  hyperparameters = {"style": style}
  if style == "normal":
    hyperparameters["variant"] = variant
  else:
    hyperparameters.update(degree=STYLE_DEGREE,
                           vulnerability=STYLE_VULNERABILITY, variant=variant,
                           vulnerability_unit=vulnerability_unit)
  return AlgorithmEntry(
      functools.partial(build_style_solver, **hyperparameters),
      tuple(sorted(hyperparameters.items())), description, seeded=False)


STYLE_ALGORITHMS = {
    "Normal": _style("normal", "the Pref-CFR paper's Normal style in its "
                     "hold'em text: vanilla CFR from the uniform strategy",
                     variant="rm"),
    "Aggressive": _style(
        "aggressive", f"Pref-CFR(BR), delta(raises) = {STYLE_DEGREE:g}, beta "
        f"= {STYLE_VULNERABILITY:g} (regret conditional on reaching the "
        "infoset) at player 1's first decisions, uniform start"),
    "Loose-passive": _style(
        "loose-passive", f"Pref-CFR(BR), delta(Call) = {STYLE_DEGREE:g}, beta "
        f"= {STYLE_VULNERABILITY:g} (regret conditional on reaching the "
        "infoset) at player 1's first decisions, uniform start"),
}

PREF_CFR_KUHN_SETTING_LIST = (("br", "Bet", 10.0), ("br", "Bet", 5.0),
                              ("rm", "Bet", 5.0), ("rm", "Pass", 5.0),
                              ("br", "Pass", 5.0), ("br", "Pass", 10.0))
PREF_CFR_KUHN_SETTINGS = {
    f"Pref-CFR({variant.upper()}) {action} x{degree:g}":
        _first_decision_preference(variant, action, degree)
    for variant, action, degree in PREF_CFR_KUHN_SETTING_LIST
}

# ------------------------------------------ paper settings and ablations
# Each experiment's paper setting and ablations run as algorithm labels;
# these sections hold the labels one paper's experiments add.
PREF_CFR_VARIANT_ALGORITHMS: dict[str, AlgorithmEntry] = {
    # Kuhn, Fig. 3: the authors' CFR is simultaneous; heavier starts test
    # "regardless of the initial strategy".
    **{f"CFR (simultaneous, U(0,{scale:g}))": _ours(
        "CFRSolver", f"vanilla CFR with simultaneous updates, initial "
        f"regrets and policy U(0, {scale:g})", random_init=True,
        alternating_updates=False, init_scale=float(scale))
       for scale in (10, 100)},
    # Kuhn, Fig. 4: the six settings on the authors' simultaneous schedule.
    **{f"Pref-CFR({variant.upper()}) {action} x{degree:g} (simultaneous)":
       _first_decision_preference(variant, action, degree, alternating=False)
       for variant, action, degree in PREF_CFR_KUHN_SETTING_LIST},
    # Styles: the authors' Leduc Normal, and beta in the reach-weighted unit.
    "Normal (BR)": _style("normal", "the Pref-CFR authors' Leduc Normal: "
                          "Pref-CFR(BR) with no preference, uniform start"),
    **{f"{name} (reach-weighted beta)": _style(
        style, f"{name} with beta = {STYLE_VULNERABILITY:g} compared with "
        "the reach-weighted average regret R / T", vulnerability_unit=
        "reach_weighted") for name, style in (
            ("Aggressive", "aggressive"), ("Loose-passive", "loose-passive"))},
}

BUFP_VARIANT_ALGORITHMS: dict[str, AlgorithmEntry] = {
    # The BUFP authors' code: learning rate 1, 1/2, 1/3, ... (the random
    # start is replaced by the first decision) and ties split evenly.
    "BUFP(EF) (first step 1)": _ours(
        "BUFPSolver", "BUFP(EF), random start replaced by the first "
        "decision (step 1/t), ties split evenly", stepsize="ef",
        initial_policy="random", first_step_one=True, tie_break="even"),
    "BUFP(X) (first step 1)": _ours(
        "BUFPSolver", "BUFP(X), random start replaced by the first "
        "decision (step 1/t), ties split evenly", stepsize="x",
        initial_policy="random", first_step_one=True, tie_break="even"),
    "XFP (first step 1)": _ours(
        "XFPSolver", "XFP, random start replaced by the first best response "
        "(step 1/t), ties split evenly", initial_policy="random",
        first_step_one=True, tie_break="even"),
    "CS-CFR (independent draws)": _ours(
        "ChanceSampledCFRSolver", "chance-sampled CFR, every chance node "
        "drawn independently and the average kept at every infoset",
        correlated_chance=False, sampled_averaging=False),
}

GXFP_VARIANT_ALGORITHMS: dict[str, AlgorithmEntry] = {
    # The GXFP paper's CFR from random regrets worth about one iteration:
    # on vN&M poker (ante 1, bet 2, raise 2) one iteration moves each
    # infoset's largest regret by about 0.34 / N (0.006 at N = 57), so
    # U(0, 0.02) is about one iteration's worth there (U(0, 1), the "CFR"
    # label's start, is worth ~N iterations).
    "CFR (light start)": _ours(
        "CFRSolver", "vanilla CFR, random initial regrets and policy "
        "U(0, 0.02) (about one iteration of vN&M poker's regret)",
        random_init=True, init_scale=0.02),
    "CFR (simultaneous, light start)": _ours(
        "CFRSolver", "vanilla CFR with simultaneous updates, random initial "
        "regrets and policy U(0, 0.02)", random_init=True, init_scale=0.02,
        alternating_updates=False),
    "CFR (simultaneous, uniform)": _ours(
        "CFRSolver", "vanilla CFR with simultaneous updates from the uniform "
        "strategy", seeded=False, alternating_updates=False),
    **{f"{name} (alternating, eps={GXFP_EPSILON:g})": _ours(
        f"{name}Solver", f"{name} with alternating updates in the perturbed "
        f"game (every action >= {GXFP_EPSILON:g}), random initial strategy",
        initial_policy="random", min_action_prob=GXFP_EPSILON,
        alternating_updates=True) for name in ("XFP", "GXFP")},
}


# A noise-floor replicate runs the same learner with its seed shifted by
# this much times ``replicate``: another learner seed on the same
# environments (the environment's hidden parameters come from the game
# string, not from this seed).
REPLICATE_SEED_SHIFT = 1_000_003


def build_learner(game: str, seed: int = 0, *, learner: str,
                  replicate: int = 0, **hyperparameters):
  """``spiel_ext.algorithms.learners.<learner>(game, seed=seed, ...)``: a
  learner of an unknown environment (``game`` is its true game);
  ``replicate`` k > 0 shifts the learner's seed (a noise-floor run)."""
  from spiel_ext.algorithms import learners  # pylint: disable=g-import-not-at-top
  seed = (seed + replicate * REPLICATE_SEED_SHIFT) % 2**63
  return getattr(learners, learner)(game, seed=seed, **hyperparameters)


def _learner(learner: str, description: str,
             **hyperparameters) -> AlgorithmEntry:
  needs_network = hyperparameters.get("information") in ("bnn",
                                                         "bnn_sampled")
  return AlgorithmEntry(
      functools.partial(build_learner, learner=learner, **hyperparameters),
      tuple(sorted(hyperparameters.items())), description,
      extra="bnn" if needs_network else None)


def _replicate(label: str, entry_learner: str, **hyperparameters):
  return {f"{label} (replicate)": _learner(
      entry_learner, f"{label} with another learner seed on the same "
      f"environments: the noise floor of a paired comparison", replicate=1,
      **hyperparameters)}


# The VCFR paper's learners (Qiu, Wang, Ma, Wen, Zhang 2023) as the paper's
# Algorithm 1 and the authors' code run them; labels with a parenthesis are
# the other readings, our variants and noise-floor replicates.
LEARNER_ALGORITHMS = {
    "VCFR": _learner("VCFRLearner", "the paper's Algorithm 1: the "
                     "information bonus (zero-sum, median-normalised, eta "
                     "= 0.005) on the CFR draw, episodes with the average "
                     "strategy; conjugate information gain"),
    "VCFR (eta=0.01)": _learner("VCFRLearner", "VCFR with the authors' "
                                "code's eta = 0.01", eta=0.01),
    "VCFR (exploration draw)": _learner(
        "VCFRLearner", "the authors' vime_cfr.py design: the bonus on the "
        "exploration draw only, PSRLCFR's default exploration",
        design="exploration_draw"),
    "VCFR (ours: both draws)": _learner(
        "VCFRLearner", "our earlier design: the raw bonus for both players "
        "on both draws, best-response exploration paired with the average",
        design="both_draws", players="both", normalisation="none"),
    "VCFR (both players)": _learner(
        "VCFRLearner", "VCFR with the bonus added to both players' rewards "
        "(the text's r' = r + eta KL) instead of the zero-sum shift",
        players="both"),
    "VCFR (eta=0.5)": _learner("VCFRLearner", "VCFR with a bonus 100 times "
                               "the paper's", eta=0.5),
    "VCFR-BNN": _learner("VCFRLearner", "VCFR with our Bayesian neural "
                         "network (VIME's expected gain, trained on observed "
                         "outcomes) as the information model",
                         information="bnn"),
    "VCFR-BNN (authors' KL)": _learner(
        "VCFRLearner", "VCFR with the authors' network KL: VIME's "
        "second-order term at the posterior-drawn reward, network trained "
        "on the drawn rewards (hidden 64, lr 0.01, batch 1000), eta = 0.01",
        information="bnn_sampled", eta=0.01),
    "PSRLCFR": _learner("PSRLCFRLearner", "posterior sampling (Zhou, Li, "
                        "Zhu 2020) with the authors' default exploration "
                        "(V_draw - V_avg)"),
    "PSRLCFR (br_dirc)": _learner(
        "PSRLCFRLearner", "PSRLCFR with the authors' br_dirc exploration "
        "(best response in the second draw, paired with the current "
        "strategy)", exploration="br_dirc"),
    "PSRLCFR (ours)": _learner(
        "PSRLCFRLearner", "PSRLCFR as we first read the paper: best "
        "response in the second draw, paired with the other's average",
        exploration="best_response"),
    "FSP": _learner("PosteriorFSPLearner", "the authors' FSP (ficplay.py): "
                    "fictitious play with exact best responses on a "
                    "posterior draw"),
    "FSP (fitted-Q)": _learner("FSPLearner", "the paper's text's FSP: "
                               "fictitious self-play with tabular fitted-Q "
                               "best responses"),
    "MCCFR-OS": _learner("OutcomeSamplingLearner", "outcome-sampling MCCFR "
                         "on real episodes, epsilon = 0.1", epsilon=0.1),
    "Naive-CFR": _learner("NaiveCFRLearner", "CFR on a posterior draw, "
                          "episodes with its average (the paper's text; "
                          "VCFR without the bonus)"),
    "Naive-CFR (current)": _learner(
        "NaiveCFRLearner", "CFR on a posterior draw, episodes with its "
        "current strategy (the authors' cfrpsrl.py type ordinary)",
        play="current"),
    "Naive-CFR (posterior mean)": _learner(
        "NaiveCFRLearner", "CFR on the posterior mean, episodes with its "
        "average (our earlier reading)", model="mean"),
    "Random": _learner("RandomLearner", "uniform episodes, CFR on a "
                       "posterior draw"),
    "VDCFR": _learner("VCFRLearner", "VCFR on DCFR (1.5, 0, 2)",
                      base="dcfr"),
    "Naive-DCFR": _learner("NaiveCFRLearner", "DCFR on a posterior draw, "
                           "episodes with its average (VDCFR without the "
                           "bonus)", base="dcfr"),
    "Naive-DCFR (current)": _learner(
        "NaiveCFRLearner", "DCFR on a posterior draw, episodes with its "
        "current strategy", base="dcfr", play="current"),
    "VFSP": _learner("PosteriorVFSPLearner", "the authors' VFSP "
                     "(vimeficplay.py): FSP with the information bonus on "
                     "its posterior draw"),
    "VFSP (fitted-Q)": _learner("VFSPLearner", "the paper's text's VFSP: "
                                "fitted-Q FSP with the information-gain "
                                "bonus, eta = 0.005", eta=0.005),
    **_replicate("VCFR", "VCFRLearner"),
    **_replicate("VDCFR", "VCFRLearner", base="dcfr"),
    **_replicate("VFSP", "PosteriorVFSPLearner"),
    **_replicate("PSRLCFR", "PSRLCFRLearner"),
}

ALGORITHMS: dict[str, AlgorithmEntry] = {
    "CFR": _ours("CFRSolver", "vanilla CFR, random initial regrets",
                 random_init=True),
    "CFR (uniform)": _ours("CFRSolver", "vanilla CFR from the uniform "
                           "strategy (OpenSpiel's start)", seeded=False),
    "CFR+": _ours("CFRPlusSolver", "CFR+, random initial regrets",
                  random_init=True),
    "CS-CFR": _ours("ChanceSampledCFRSolver", "chance-sampled CFR as "
                    "RLCard's CFR agent (uniform start; the seed drives the "
                    "chance draws)"),
    "CFR (simultaneous)": _ours(
        "CFRSolver", "vanilla CFR with simultaneous updates, random initial "
        "regrets", random_init=True, alternating_updates=False),
    "XFP": _ours("XFPSolver", "XFP, random initial strategy",
                 initial_policy="random"),
    "XFP (alternating)": _ours(
        "XFPSolver", "XFP with alternating updates, random initial strategy",
        initial_policy="random", alternating_updates=True),
    f"XFP (eps={GXFP_EPSILON:g})": _ours(
        "XFPSolver", f"XFP in the perturbed game (every action >= "
        f"{GXFP_EPSILON:g}), random initial strategy",
        initial_policy="random", min_action_prob=GXFP_EPSILON),
    "GXFP": _ours("GXFPSolver", "GXFP, random initial strategy",
                  initial_policy="random"),
    "GXFP (alternating)": _ours(
        "GXFPSolver", "GXFP with alternating updates, random initial "
        "strategy", initial_policy="random", alternating_updates=True),
    "GXFP (integer)": _ours(
        "GXFPSolver", "GXFP counting best decisions in integers, random "
        "initial strategy", initial_policy="random", integer_counting=True),
    f"GXFP (eps={GXFP_EPSILON:g})": _ours(
        "GXFPSolver", f"GXFP in the perturbed game (every action >= "
        f"{GXFP_EPSILON:g}), random initial strategy",
        initial_policy="random", min_action_prob=GXFP_EPSILON),
    "BUFP(EF)": _ours("BUFPSolver", "BUFP(EF), random initial strategy",
                      stepsize="ef", initial_policy="random"),
    "BUFP(X)": _ours("BUFPSolver", "BUFP(X), random initial strategy",
                     stepsize="x", initial_policy="random"),
    "OpenSpiel CFR (Python)": AlgorithmEntry(
        build_openspiel_cfr, (), "OpenSpiel's cfr.CFRSolver, uniform start",
        seeded=False),
    **PREF_CFR_KUHN_SETTINGS,
    **STYLE_ALGORITHMS,
    **PREF_CFR_VARIANT_ALGORITHMS,
    **BUFP_VARIANT_ALGORITHMS,
    **GXFP_VARIANT_ALGORITHMS,
    **LEARNER_ALGORITHMS,
}


_EXTRA_MODULES = {"bnn": "torch"}


def check_algorithms(names) -> None:
  """ValueError for an unknown name; ImportError naming the extra for one
  whose optional packages are missing (before any run starts)."""
  unknown = [name for name in names if name not in ALGORITHMS]
  if unknown:
    raise ValueError(f"unknown algorithm(s) {unknown}; accepted: "
                     f"{sorted(ALGORITHMS)}.")
  for name in names:
    extra = ALGORITHMS[name].extra
    if extra and importlib.util.find_spec(_EXTRA_MODULES[extra]) is None:
      raise ImportError(
          f"algorithm {name!r} needs the optional extra {extra!r} "
          f"({_EXTRA_MODULES[extra]}): pip install -e \".[{extra}]\" (or "
          f"pip install \"spiel-ext[{extra}]\"), or leave it out with "
          "--algorithms.")


def game_string(game: str) -> str:
  """The canonical game string (``leduc_poker()``); our games are
  registered by ``import spiel_ext``.

  Raises:
    ValueError: an unknown game or bad parameters, in one line (never
      pyspiel's list of every registered game).
  """
  from spiel_ext.engine import load_game  # pylint: disable=g-import-not-at-top
  return str(load_game(game))
