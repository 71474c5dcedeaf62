"""A paper's claims as data.

An experiment declares each claim once, as a :class:`ClaimSpec`: the
statement and the paper's value, a *measure* (a pure function from the run's
results to our numbers), the rule that turns those numbers into a verdict
(*holds if*), and the artefact it cites as an object (:class:`Artefact`, a
figure or table the experiment writes), never a path string.
:func:`spiel_ext.results.claims.judge` turns the declarations into the
reproduction report's rows.
"""

from __future__ import annotations

import dataclasses
import math
import operator
from pathlib import Path
from typing import Any, Callable, Sequence

import pandas as pd

VERDICTS = ("holds", "holds partly", "does not hold", "not run")

_KINDS = {"figure": ("figures", "png"), "table": ("tables", "md")}


@dataclasses.dataclass(frozen=True)
class Artefact:
  """A figure or table an experiment writes into its run folder.

  Attributes:
    kind: "figure" (``figures/<name>.png``) or "table" (``tables/<name>.md``).
    name: the file's stem, e.g. "thresholds".
  """
  kind: str
  name: str

  def __post_init__(self):
    if self.kind not in _KINDS:
      raise ValueError(f"Artefact kind must be one of {sorted(_KINDS)}; got "
                       f"{self.kind!r}.")

  @property
  def relative_path(self) -> str:
    """Where it is inside a run folder: ``tables/thresholds.md``."""
    folder, extension = _KINDS[self.kind]
    return f"{folder}/{self.name}.{extension}"

  def path(self, folder: Path) -> Path:
    """The file in the run folder ``folder``."""
    return Path(folder) / self.relative_path

  def stem(self, folder: Path) -> Path:
    """The file without its extension, as the figure and table writers take
    it (they add ``.png``/``.pdf`` or ``.md``/``.tex``)."""
    return Path(folder) / _KINDS[self.kind][0] / self.name

  def cited_as(self, experiment: str) -> str:
    """How the report names it: ``<experiment>/tables/thresholds.md``."""
    return f"{experiment}/{self.relative_path}"


def figure(name: str) -> Artefact:
  """The figure ``figures/<name>.png`` of a run, as a claim's evidence."""
  return Artefact("figure", name)


def table(name: str) -> Artefact:
  """The table ``tables/<name>.md`` of a run, as a claim's evidence."""
  return Artefact("table", name)


@dataclasses.dataclass(frozen=True)
class Threshold:
  """A verdict from one number: holds if ``value <= holds_at`` (or ``>=``
  with ``direction="at least"``), holds partly if it passes ``partly_at``,
  else does not hold; NaN never holds.

  Attributes:
    holds_at: the bound that makes the claim hold.
    partly_at: the looser bound for "holds partly" (None: no partial verdict).
    direction: "at most" or "at least".
  """
  holds_at: float
  partly_at: float | None = None
  direction: str = "at most"

  def __post_init__(self):
    if self.direction not in ("at most", "at least"):
      raise ValueError("Threshold direction must be 'at most' or 'at least'; "
                       f"got {self.direction!r}.")

  def describe(self, number: str = "{:g}") -> str:
    """The rule in words, for the report: "holds: <= 0.05; holds partly:
    <= 0.15" (each bound written with the format ``number``)."""
    sign = "<=" if self.direction == "at most" else ">="
    text = f"holds: {sign} {number.format(self.holds_at)}"
    if self.partly_at is not None:
      text += f"; holds partly: {sign} {number.format(self.partly_at)}"
    return text

  def verdict(self, value: float) -> str:
    passes = operator.le if self.direction == "at most" else operator.ge
    if value is None or (isinstance(value, float) and math.isnan(value)):
      return "does not hold"
    if passes(value, self.holds_at):
      return "holds"
    if self.partly_at is not None and passes(value, self.partly_at):
      return "holds partly"
    return "does not hold"


# A claim about a size (a shift, a percentage, a gain, a method's own
# number) holds only when ours reaches at least this fraction of the
# paper's, in the paper's direction: "at least half the paper's move". The
# same constant bounds a number that should match the paper's from both
# sides: within a factor 1 / MAGNITUDE_FRACTION (2x) of it.
MAGNITUDE_FRACTION = 0.5


def _finite(value: Any) -> bool:
  try:
    return math.isfinite(float(value))
  except (TypeError, ValueError):
    return False


def same_direction(ours: float, paper: float) -> bool:
  """Whether ``ours`` is nonzero, finite and has the sign of ``paper``."""
  return _finite(ours) and _finite(paper) and ours * paper > 0


def magnitude_share(ours: float, paper: float) -> float:
  """``ours`` as a share of ``paper`` (1.0: the paper's move exactly;
  negative: the opposite direction; NaN: either is not finite or the
  paper's is zero)."""
  if not (_finite(ours) and _finite(paper)) or paper == 0:
    return math.nan
  return float(ours) / float(paper)


def magnitude_verdict(ours: float, paper: float,
                      fraction: float = MAGNITUDE_FRACTION) -> str:
  """A move (or a percentage) against the paper's: holds when it goes the
  paper's way and reaches at least ``fraction`` of it; otherwise (the
  opposite direction, no move, a move short of the fraction, NaN) does not
  hold.

  Args:
    ours: our move, in the paper's unit and sign convention.
    paper: the paper's move.
    fraction: the share of the paper's move that must be reached.

  Returns:
    "holds" or "does not hold".
  """
  share = magnitude_share(ours, paper)
  return "holds" if share >= fraction else "does not hold"


def magnitude_text(ours: float, paper: float,
                   fraction: float = MAGNITUDE_FRACTION,
                   unit: str = "", paper_text: str | None = None) -> str:
  """Why :func:`magnitude_verdict` decides as it does, in words: "41% of
  the paper's 5.1 points" or "the opposite direction to the paper's".

  Args:
    ours: our move.
    paper: the paper's move.
    fraction: the share of the paper's move that must be reached.
    unit: written after the paper's number ("%", " points").
    paper_text: what the paper's number is called in place of the number
      and its unit ("move").

  Returns:
    The reason, in words.
  """
  share = magnitude_share(ours, paper)
  if not _finite(share):
    return "no comparable number"
  if share <= 0:
    return ("no move" if share == 0 else
            "the opposite direction to the paper's")
  text = (f"{share:.0%}" if share >= 0.01 else f"{share:.2%}") + (
      " of the paper's " + (paper_text if paper_text is not None
                            else f"{paper:g}{unit}"))
  return text + ("" if share >= fraction else
                 f", short of the {fraction:.0%} needed")


def within_factor_verdict(ours: float, paper: float,
                          fraction: float = MAGNITUDE_FRACTION) -> str:
  """A method's own number (an exploitability, a rate) against the
  paper's: holds within a factor ``1 / fraction`` of it on either side,
  else (or NaN, or a sign the paper's does not have) does not hold."""
  share = magnitude_share(ours, paper)
  return ("holds" if _finite(share) and fraction <= share <= 1 / fraction
          else "does not hold")


def mean_of_parts_verdict(parts: Sequence[tuple[float, float]],
                          mean_verdict: str) -> str:
  """The verdict of a mean of several numbers, each beside the paper's:
  does not hold when any part goes against its paper value's sign (a mean
  of parts that disagree can land near the paper's by accident), else
  ``mean_verdict``.

  Args:
    parts: (ours, the paper's) of each part of the mean.
    mean_verdict: the verdict the mean itself gets.

  Returns:
    The verdict.
  """
  if not all(same_direction(ours, paper) for ours, paper in parts):
    return "does not hold"
  return mean_verdict


@dataclasses.dataclass(frozen=True)
class Measurement:
  """What a measure found for one row of the report.

  Attributes:
    ours: our numbers, as the report shows them.
    value: what the claim's ``holds_if`` judges (a number for a
      :class:`Threshold`; anything its rule function accepts).
    setting: the variant label the verdict was judged on ("paper setting",
      "ablation: <name>"); "" for an experiment without settings.
    claim: the statement for this row when it names the case (a game, an
      N); None uses the spec's statement.
    paper_value: the paper's value for this row when it depends on the
      case; None uses the spec's.
  """
  ours: str
  value: Any = None
  setting: str = ""
  claim: str | None = None
  paper_value: str | None = None


@dataclasses.dataclass(frozen=True)
class RunResults:
  """A finished run as the measures see it: the results table, the settings
  it ran with and its folder (snapshots and tables live there)."""
  frame: pd.DataFrame
  settings: Any
  folder: Path


Measure = Callable[[RunResults], "Measurement | Sequence[Measurement] | None"]
Rule = Callable[[Any], str]


@dataclasses.dataclass(frozen=True)
class ClaimSpec:
  """One claim of a paper, as data.

  Attributes:
    paper: the paper, by its authors' names and year.
    statement: the claim, in our words.
    paper_value: the paper's number ("qualitative" when it gives none).
    measure: results -> one measurement, several (one per case or
      setting), or None when the run holds nothing to judge.
    holds_if: a :class:`Threshold` on ``Measurement.value``, or a named
      function from it to a verdict (for rules over several numbers).
    evidence: the figure or table the row cites.
  """
  paper: str
  statement: str
  paper_value: str
  measure: Measure
  holds_if: Threshold | Rule
  evidence: Artefact

  def verdict(self, value: Any) -> str:
    rule = (self.holds_if.verdict if isinstance(self.holds_if, Threshold)
            else self.holds_if)
    verdict = rule(value)
    if verdict not in VERDICTS:
      raise ValueError(f"{self.statement!r}: holds_if gave {verdict!r}, not "
                       f"one of {VERDICTS}.")
    return verdict

