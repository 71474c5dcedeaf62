"""CFR, CFR+ and DCFR as drop-in replacements for OpenSpiel's solvers.

- :class:`CFRSolver`: Martin Zinkevich, Michael Johanson, Michael Bowling,
  Carmelo Piccione, "Regret Minimization in Games with Incomplete
  Information", NeurIPS 2007 (regret matching on counterfactual regrets,
  uniform average), with alternating updates as OpenSpiel's
  ``cfr.CFRSolver``.
- :class:`CFRPlusSolver`: Oskari Tammelin, "Solving Large Imperfect
  Information Games Using CFR+", 2014, arXiv:1407.5042 (regret matching+,
  linear averaging, alternating updates), as OpenSpiel's
  ``cfr.CFRPlusSolver``.
- :class:`DCFRSolver`: Noam Brown, Tuomas Sandholm, "Solving
  Imperfect-Information Games via Discounted Regret Minimization", AAAI
  2019, arXiv:1809.04040 (DCFR with alpha = 3/2, beta = 0, gamma = 2 by
  default), as OpenSpiel's ``discounted_cfr.DCFRSolver``; and
  :class:`LCFRSolver`, that paper's Linear CFR (DCFR with alpha = beta =
  gamma = 1), as OpenSpiel's ``discounted_cfr.LCFRSolver``.
  ``spiel_ext.algorithms.discounted_cfr`` holds both under OpenSpiel's
  module name.

Swap the import and nothing else::

    # was: from open_spiel.python.algorithms import cfr
    from spiel_ext.algorithms import cfr
    solver = cfr.CFRSolver(game)
    for _ in range(100):
      solver.evaluate_and_update_policy()
    policy = solver.average_policy()

Each solver's hyperparameters are its ``Config`` (``CFRSolver.Config`` is
:class:`CFRConfig`, and so on), whose ``rules()`` names the variant's three
rules (:mod:`spiel_ext.algorithms.regret_rules`) for
:class:`RegretMinimizationSolver`; ``CFRSolver(game)``,
``CFRSolver(game, alternating_updates=False)`` and
``CFRSolver(game, CFRSolver.Config(alternating_updates=False))`` are the
same solver. The numba kernels compile on first use (about 20 s once; the
compiled code is cached on disk).
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

import pyspiel

from spiel_ext.algorithms.base import SolverConfig, set_field
from spiel_ext.algorithms.regret import (REGRET_OPTIONS_DOC,
                                         RegretMinimizationSolver,
                                         check_regret_options)
from spiel_ext.algorithms.discounting import (DiscountedRegrets,
                                              PowerAveraging,
                                              check_dcfr_parameters)
from spiel_ext.algorithms.regret_rules import (AveragingRule, PlainRegrets,
                                               PlusRegrets, RegretMatching,
                                               RegretRule, StrategyRule)
from spiel_ext.algorithms.solver_docs import example_section
from spiel_ext.engine import GameTree

Rules = tuple[RegretRule, AveragingRule, StrategyRule]


@dataclasses.dataclass(frozen=True, eq=False)
class RegretMatchingConfig(SolverConfig):
  __doc__ = f"""The options every regret-matching variant with fixed rules
  has; a variant's config adds its own fields and says which rules it runs
  (``rules()``).

  Attributes:{REGRET_OPTIONS_DOC}
  """

  alternating_updates: bool = True
  random_init: bool = False
  init_scale: float = 1.0
  seed: int | None = 0

  # The rules of a variant without options of its own (CFRConfig and its
  # fixed-rule siblings); a variant with options overrides rules().
  _RULES: ClassVar[Rules | None] = None

  def __post_init__(self) -> None:
    check_regret_options(self)

  def rules(self) -> Rules:
    """The variant's three rules (each variant's config says which).

    Returns:
      (regret rule, averaging rule, strategy rule).
    """
    if self._RULES is None:
      raise NotImplementedError
    return self._RULES


def _fixed_rules_doc(summary: str, rules: Rules) -> str:
  """The docstring of a variant's config whose ``rules()`` are ``rules``:
  ``summary``, the rules, and the options every variant has."""
  names = ", ".join(f"``{rule!r}``" for rule in rules)
  return f"""{summary}

  Its rules (``rules()``: regret, averaging and strategy rule): {names}.

  Attributes:{REGRET_OPTIONS_DOC}
  """


@dataclasses.dataclass(frozen=True, eq=False)
class CFRConfig(RegretMatchingConfig):
  _RULES = (PlainRegrets(), PowerAveraging(0.0), RegretMatching())
  __doc__ = _fixed_rules_doc("""Vanilla CFR's hyperparameters: plain regrets,
  uniform average, regret matching.""", _RULES)


@dataclasses.dataclass(frozen=True, eq=False)
class CFRPlusConfig(RegretMatchingConfig):
  _RULES = (PlusRegrets(), PowerAveraging(1.0), RegretMatching())
  __doc__ = _fixed_rules_doc("""CFR+'s hyperparameters: regrets floored at 0
  (regret matching+), linear average, regret matching.""", _RULES)


@dataclasses.dataclass(frozen=True, eq=False)
class LCFRConfig(RegretMatchingConfig):
  _RULES = (DiscountedRegrets(1.0, 1.0), PowerAveraging(1.0), RegretMatching())
  __doc__ = _fixed_rules_doc("""Linear CFR's hyperparameters: DCFR with
  alpha = beta = gamma = 1.""", _RULES)


@dataclasses.dataclass(frozen=True, eq=False)
class DCFRConfig(SolverConfig):
  __doc__ = f"""Discounted CFR's hyperparameters.

  Attributes:
    alpha: exponent of the positive-regret discount t^alpha / (t^alpha +
      1), any finite number (default 1.5).
    beta: exponent of the negative-regret discount t^beta / (t^beta + 1),
      any finite number (default 0: negative regrets are halved).
    gamma: exponent of the averaging weight t^gamma, a number in [0, 1000]
      (default 2; see ``regret_rules.MAX_GAMMA``).{REGRET_OPTIONS_DOC}
  """

  alpha: float = 1.5
  beta: float = 0.0
  gamma: float = 2.0
  alternating_updates: bool = True
  random_init: bool = False
  init_scale: float = 1.0
  seed: int | None = 0

  def __post_init__(self) -> None:
    alpha, beta, gamma = check_dcfr_parameters(self.alpha, self.beta,
                                               self.gamma)
    set_field(self, "alpha", alpha)
    set_field(self, "beta", beta)
    set_field(self, "gamma", gamma)
    check_regret_options(self)

  def rules(self) -> Rules:
    """The variant's three rules.

    Returns:
      (regret rule, averaging rule, strategy rule): ``DiscountedRegrets(alpha,
      beta)``, ``PowerAveraging(gamma)``, ``RegretMatching()``.
    """
    return (DiscountedRegrets(self.alpha, self.beta),
            PowerAveraging(self.gamma), RegretMatching())


_POLICIES = """
  ``current_policy()`` returns the same TabularPolicy on every call, updated
  in place by each iteration; ``average_policy()`` a fresh one (both as
  OpenSpiel's Python CFR). ``pyspiel.exploitability(game, policy)`` accepts
  either; ``tabular_average_policy()`` gives a ``pyspiel.TabularPolicy``.
"""

_ARGS = """
    config: the solver's ``Config`` (default: its defaults; see it for
      every hyperparameter).
    shortcuts: the config's fields as keywords, e.g.
      ``alternating_updates=False``, ``random_init=True``, ``seed=3``.
"""


def _as_cfr_solver(summary: str, config: type, call: str) -> str:
  """The docstring of a solver whose arguments, options and errors are
  :class:`CFRSolver`'s: ``summary``, the policies, those by reference, and
  ``call`` run 500 times as the example."""
  return f"""{summary}
  {_POLICIES}
  Args:
    game: as for :class:`CFRSolver`.{_ARGS}
  The hyperparameters (:class:`{config.__name__}`): as :class:`CFRSolver`'s.

  Raises:
    TypeError, ValueError: as :class:`CFRSolver`.

  """ + example_section(call, 500, measure=None)


class CFRSolver(RegretMinimizationSolver):
  __doc__ = f"""Vanilla CFR; matches OpenSpiel's ``cfr.CFRSolver`` (and
  pyspiel's C++ ``CFRSolver``) iterate for iterate.
  {_POLICIES}
  Args:
    game: a pyspiel game, a game string (``"leduc_poker"``) or a compiled
      GameTree: any sequential game with perfect-recall infostate strings,
      any number of players, zero-sum or not.{_ARGS}
  The hyperparameters (:class:`CFRConfig`): ``alternating_updates`` (True),
  ``random_init`` (False), ``init_scale`` (1) and ``seed`` (0).

  Raises:
    TypeError: a bool option that is not a bool, ``seed`` not an int, or a
      keyword that is no field of the config.
    ValueError: ``seed`` outside 0..2**63 - 1 or a game the engine cannot
      compile.

  """ + example_section('CFRSolver(pyspiel.load_game("kuhn_poker"))', 1000,
                        result="~2e-3")

  Config = CFRConfig


class CFRPlusSolver(RegretMinimizationSolver):
  __doc__ = _as_cfr_solver(
      """CFR+; matches OpenSpiel's ``cfr.CFRPlusSolver`` (and pyspiel's
  C++ ``CFRPlusSolver``) iterate for iterate.""", CFRPlusConfig,
      'CFRPlusSolver("leduc_poker")')

  Config = CFRPlusConfig


class DCFRSolver(RegretMinimizationSolver):
  __doc__ = f"""Discounted CFR; matches
  ``open_spiel.python.algorithms.discounted_cfr.DCFRSolver`` iterate for
  iterate, with the same positional arguments: ``DCFRSolver(game, 1.5, 0,
  2)``.

  At iteration t, after adding the instantaneous regrets, positive
  cumulative regrets are multiplied by t^alpha / (t^alpha + 1) and negative
  ones by t^beta / (t^beta + 1); iteration t's contribution to the average
  strategy is weighted by t^gamma. The factors are computed without
  overflow for any finite alpha and beta, and the average stays finite for
  any gamma in [0, 1000] and any number of iterations.
  {_POLICIES}
  Args:
    game: as for :class:`CFRSolver`.
    args: OpenSpiel's positional form, ``alpha, beta, gamma`` in that
      order (or a lone config).{_ARGS}
  The hyperparameters (:class:`DCFRConfig`): ``alpha`` (1.5), ``beta``
  (0), ``gamma`` (2), and as :class:`CFRSolver`'s.

  Raises:
    TypeError: as :class:`CFRSolver`.
    ValueError: alpha or beta not a finite number, gamma not in [0, 1000],
      and as :class:`CFRSolver`.

  """ + example_section(
      'DCFRSolver(pyspiel.load_game("leduc_poker"), 1.5, 0, 2)', 500,
      measure=None)

  Config = DCFRConfig
  _POSITIONAL = ("alpha", "beta", "gamma")

  def __init__(self, game: pyspiel.Game | str | GameTree, *args: Any,
               config: DCFRConfig | None = None, **shortcuts: Any):
    config = self._positional(args, config, shortcuts)
    super().__init__(game, config, **shortcuts)


class LCFRSolver(RegretMinimizationSolver):
  __doc__ = _as_cfr_solver(
      """Linear CFR; matches
  ``open_spiel.python.algorithms.discounted_cfr.LCFRSolver`` iterate for
  iterate: DCFR with alpha = beta = gamma = 1, so iteration t's regrets and
  average contribution weigh t.""", LCFRConfig, 'LCFRSolver("leduc_poker")')

  Config = LCFRConfig
