"""The sections the CFR-family solvers' docstrings share, written once.

The solvers of CFR (Martin Zinkevich, Michael Johanson, Michael Bowling,
Carmelo Piccione, "Regret Minimization in Games with Incomplete
Information", NeurIPS 2007) and of its variants in
:mod:`~spiel_ext.algorithms.cfr`, :mod:`~spiel_ext.algorithms.pcfr_plus`,
:mod:`~spiel_ext.algorithms.dcfr_plus`, :mod:`~spiel_ext.algorithms.mccfr`
and :mod:`~spiel_ext.algorithms.external_sampling` are built from a game and
a config, run with ``evaluate_and_update_policy()`` and measured with
``spiel_ext.eval.nash_conv`` alike. Their docstrings are built here from
what sets each apart: :func:`example_section` writes the example,
:func:`solver_doc` the whole docstring of a variant whose constructor takes
the game, its config and the config's fields. The API reference reads the
built docstrings.
"""

from __future__ import annotations


def example_section(call: str, iterations: int,
                    measure: str | None = "solver.game",
                    result: str = "") -> str:
  """A solver docstring's ``Example::`` section: build the solver, iterate,
  and measure the average policy's NashConv.

  Args:
    call: the constructor call, e.g. ``'CFRPlusSolver("leduc_poker")'``.
    iterations: how many ``evaluate_and_update_policy()`` calls.
    measure: the game argument of the closing ``spiel_ext.eval.nash_conv``
      line (``"solver.game"``, ``'"kuhn_poker"'``), or None for no such
      line.
    result: what the measure gives, written as a comment after it (default
      none).

  Returns:
    The section, indented for a class docstring (a blank line ends it).
  """
  lines = [f"solver = {call}", f"for _ in range({iterations}):",
           "  solver.evaluate_and_update_policy()"]
  if measure is not None:
    comment = f"  # {result}" if result else ""
    lines.append(f"spiel_ext.eval.nash_conv({measure}, "
                 f"solver.average_policy()){comment}")
  return "Example::\n\n" + "".join(f"    {line}\n" for line in lines) + "  "


def solver_doc(variant: str, config: type, call: str, iterations: int,
               shortcuts: str) -> str:
  """The docstring of a variant solver whose constructor takes the game,
  its config and the config's fields as keywords.

  Args:
    variant: the variant and its paper, e.g. ``"DCFR+ (Xu et al. 2024)"``.
    config: the solver's config class.
    call: the example's constructor call (see :func:`example_section`).
    iterations: the example's iterations.
    shortcuts: example keywords, e.g. ``"alpha=1.5, gamma=4"``.

  Returns:
    The docstring: "<variant> with OpenSpiel's solver interface.", Args
    (game, config, shortcuts), Raises and the example.
  """
  return f"""{variant} with OpenSpiel's solver interface.

  Args:
    game: a pyspiel game, game string or compiled GameTree (any sequential
      perfect-recall game, any number of players).
    config: a :class:`{config.__name__}` (default: its defaults).
    shortcuts: its fields as keywords (``{shortcuts}``).

  Raises:
    TypeError, ValueError: a bad option, naming it; a game the engine cannot
      compile.

  {example_section(call, iterations)}"""
