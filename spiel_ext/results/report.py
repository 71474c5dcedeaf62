"""The reproduction report: each paper claim beside what our results show.

Experiments state their claims as :class:`Claim` rows computed from the
results table; :func:`write_report` collects them into a markdown page with
the paper's number, ours, a verdict, the figure or table and the command
that regenerates it.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Sequence

from spiel_ext.files import atomic_write

from spiel_ext.analysis.claims import VERDICTS


PAPER_SETTING = "paper setting"


@dataclasses.dataclass(frozen=True)
class Claim:
  """One claim of a paper and our measurement of it.

  Attributes:
    setting: the variant the verdict was judged on: ``PAPER_SETTING``
      (what the paper's text and the authors' code did), ``"ablation:
      <name>"`` (one of our other choices), or "" for an experiment that
      declares no settings yet.
  """
  paper: str
  claim: str
  paper_value: str
  ours: str
  verdict: str
  evidence: str
  command: str
  setting: str = ""

  def __post_init__(self):
    if self.verdict not in VERDICTS:
      raise ValueError(f"verdict must be one of {VERDICTS}; got "
                       f"{self.verdict!r}.")


@dataclasses.dataclass(frozen=True)
class Choice:
  """One choice that can change a number, as the paper's text, the
  authors' code and our runs make it.

  Attributes:
    name: what is chosen ("CFR update schedule").
    paper_text: what the paper says ("not stated" when it is silent or the
      number was lost).
    authors_code: what the authors' public code does, with file:line
      ("no public code" when there is none).
    paper_setting: what our paper-setting run uses, and why when the paper
      and the code disagree or are silent ("ours: ...").
    ablations: our other values and the ablation that runs each ("" for
      none).
  """
  name: str
  paper_text: str
  authors_code: str
  paper_setting: str
  ablations: str = ""


@dataclasses.dataclass(frozen=True)
class Variant:
  """A named setting of an experiment: the paper setting or an ablation.

  Attributes:
    name: ``PAPER_SETTING``, or ``"paper setting (<which>)"`` when the
      paper is silent or its text and the authors' code disagree and both
      readings run, or the ablation's name ("alternating updates").
    algorithms: the algorithm labels (of ``spiel_ext.experiments.solvers``)
      that run this variant.
    description: what differs from the paper setting, in a phrase.
  """
  name: str
  algorithms: tuple[str, ...]
  description: str = ""

  @property
  def is_paper_setting(self) -> bool:
    return self.name.startswith(PAPER_SETTING)

  @property
  def slug(self) -> str:
    """The name as a file-name part: "U(0, 10) start" -> "u_0__10__start"."""
    return "".join(c if c.isalnum() else "_"
                   for c in self.name.lower()).strip("_")

  @property
  def label(self) -> str:
    """How claims name it: "paper setting[ (...)]" or "ablation: <name>"."""
    return self.name if self.is_paper_setting else f"ablation: {self.name}"


def verdict_from(results: Sequence[bool]) -> str:
  """holds if every case holds, holds partly if some do."""
  if results and all(results):
    return "holds"
  return "holds partly" if any(results) else "does not hold"


def markdown_cell(text: str) -> str:
  """``text`` safe inside a markdown table cell: ``|`` escaped, one line."""
  return str(text).replace("|", "\\|").replace("\n", " ")


def settings_table(choices: Sequence[Choice],
                   variants: Sequence[Variant]) -> list[str]:
  """Markdown lines: every choice that can change a number (paper text /
  authors' code / our paper setting / ablations), then the variants run."""
  if not choices and not variants:
    return []
  lines = []
  if choices:
    lines += ["Settings (the verdicts in the *paper setting* rows use the "
              "paper-setting column):", "",
              "| choice | paper text | authors' code | paper setting (ours) | "
              "ablations |", "|---|---|---|---|---|"]
    lines += ["| " + " | ".join(markdown_cell(field) for field in (
        choice.name, choice.paper_text, choice.authors_code,
        choice.paper_setting, choice.ablations or "-")) + " |"
              for choice in choices]
    lines.append("")
  if variants:
    lines += ["Variants: " + "; ".join(
        f"**{variant.label}** ({', '.join(variant.algorithms)})" +
        (f": {variant.description}" if variant.description else "")
        for variant in variants) + ".", ""]
  return lines


NO_RESULTS = "No results yet"
KEPT_NOTE = "> Kept from the previous report; the results now on disk are unreadable"


def previous_sections(path: Path) -> dict[str, str]:
  """{experiment: its section's text} of the report at ``path``, if any."""
  try:
    text = path.read_text()
  except OSError:
    return {}
  sections: dict[str, str] = {}
  name = None
  for line in text.splitlines(keepends=True):
    if line.startswith("## "):
      name = line[3:].split(" ", 1)[0].strip()
      sections[name] = ""
    if name is not None:
      sections[name] += line
  return sections


def _evidence_link(folder: Path, evidence: str) -> str:
  """A link to a claim's evidence, or its name alone when the run did not
  write it (a claim judged "not run"), so the report has no broken link."""
  name = Path(evidence).name
  if (folder / evidence).exists():
    return f"[{name}]({evidence})"
  return f"{name} (not written)"


def _kept_lines(kept: str, problem: str | None) -> list[str]:
  """A section kept from the previous report, noting why it was kept."""
  lines = [line for line in kept.rstrip("\n").splitlines()
           if not line.startswith(KEPT_NOTE)]
  if problem:
    lines[1:1] = ["", f"{KEPT_NOTE}: {problem}."]
  return lines + [""]


def _claim_rows(claims: list[Claim], folder: Path) -> list[str]:
  """The claims table of a section (evidence linked from ``folder``)."""
  lines = ["| paper | claim | setting | paper's number | ours | verdict | "
           "evidence | command |", "|---|---|---|---|---|---|---|---|"]
  for claim in claims:
    lines.append("| " + " | ".join(markdown_cell(field) for field in (
        claim.paper, claim.claim, claim.setting or "ours",
        claim.paper_value, claim.ours, f"**{claim.verdict}**",
        _evidence_link(folder, claim.evidence), f"`{claim.command}`"))
                 + " |")
  return lines + [""]


def _section_lines(name: str, section: dict, folder: Path) -> list[str]:
  """One experiment's section: its runs, settings, claims and files."""
  lines = [f"## {name} ({section['scale']} scale)", ""]
  claims = section["claims"]
  if not claims:
    reason = section.get("problem")
    return lines + [(f"{NO_RESULTS} ({reason}): run " if reason else
                     f"{NO_RESULTS}: run ") +
                    f"`python run_experiments.py --experiment={name}`.", ""]
  for session in section.get("sessions") or []:
    lines += [f"- Run: {session}"]
  if section.get("sessions"):
    lines.append("")
  lines += section.get("settings") or []
  lines += _claim_rows(claims, folder)
  outputs = section.get("outputs") or []
  if outputs:
    lines += ["Files: " + ", ".join(f"[{Path(p).name}]({p})"
                                    for p in outputs), ""]
    lines += [f"![{Path(p).stem}]({p})" for p in outputs
              if p.endswith(".png")] + [""]
  return lines


def write_report(path: str | Path, sections: dict[str, dict],
                 preamble: str = "") -> Path:
  """Writes the report atomically.

  A section with no claims now keeps its text from the report already at
  ``path`` when that text had results: a report is never emptied by being
  regenerated from a folder that lacks some experiments.

  Args:
    path: the markdown file to write.
    sections: {experiment: {"scale": str, "claims": [Claim],
      "outputs": [paths], "sessions": [one-line descriptions of the runs],
      "settings": [markdown lines of the settings table],
      "problem": why the results could not be read, if they could not}}.
    preamble: text under the title.

  Returns:
    The path written.
  """
  path = Path(path)
  previous = previous_sections(path)
  lines = ["# Reproduction report", "",
           "Generated by `python run_experiments.py --experiment=report` "
           "from the results on disk; do not edit by hand.", ""]
  if preamble:
    lines += [preamble, ""]
  for name, section in sections.items():
    kept = previous.get(name, "")
    if not section["claims"] and kept and NO_RESULTS not in kept:
      lines += _kept_lines(kept, section.get("problem"))
    else:
      lines += _section_lines(name, section, path.parent)
  return atomic_write(path, "\n".join(lines))
