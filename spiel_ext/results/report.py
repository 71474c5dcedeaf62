"""The reproduction report: each paper claim beside what our results show.

Experiments state their claims as :class:`Claim` rows computed from the
results table; :func:`write_report` writes them as one markdown page per
paper (a compact row per claim: the claim, the paper's number, ours and a
verdict badge, grouped under the figure or table they cite, with the
setting, evidence and command in a collapsible block), an index page
linking them and a "What reproduces" page (``findings_page`` in
``spiel_ext.experiments.reporting``). Each experiment's section opens
with its provenance: package versions, the commits the results were
computed from (saying plainly when a checkout had uncommitted changes),
the command with its output folder written as ``<results>``, and the
first start and last end of its sessions.
"""

from __future__ import annotations

import dataclasses
import html
import re
from datetime import datetime
from pathlib import Path
from typing import Any, Sequence

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
RESULTS_PLACEHOLDER = "<results>"

# The report's pages: an experiment goes on the page of the first prefix its
# name starts with (any other experiment gets a page of its own).
PAGES: tuple[tuple[str, str], ...] = (
    ("bufp", "BUFP"), ("gxfp", "GXFP"), ("pref_cfr", "Pref-CFR"),
    ("vcfr", "VCFR"), ("solver_league", "Solver league"))

_BADGE_COLOURS = {"holds": "#2e7d32", "holds partly": "#a15c00",
                  "does not hold": "#c62828", "not run": "#616161"}
_BADGE = re.compile(r'class="verdict verdict-([a-z-]+)" title="([^"]*)"')


def page_of(experiment: str) -> str:
  """The slug of the report page that holds ``experiment``'s section."""
  for prefix, _ in PAGES:
    if experiment == prefix or experiment.startswith(prefix + "_"):
      return prefix
  return experiment


def page_title(page: str) -> str:
  """A page's short title ("Pref-CFR" for "pref_cfr")."""
  return dict(PAGES).get(page, page)


def pages_folder(report: Path) -> Path:
  """The folder of the paper pages of the report at ``report``
  (``reproduction.md`` -> ``reproduction/``)."""
  return report.parent / report.stem


def verdict_badge(verdict: str, setting: str = "") -> str:
  """An inline HTML badge for ``verdict``, coloured by the verdict (the
  colour is inline, so no stylesheet is needed), its title the setting the
  verdict was judged on."""
  if verdict not in VERDICTS:
    raise ValueError(f"verdict must be one of {VERDICTS}; got {verdict!r}.")
  slug = verdict.replace(" ", "-")
  return (f'<span class="verdict verdict-{slug}" '
          f'title="{html.escape(setting or "ours")}" style="background:'
          f'{_BADGE_COLOURS[verdict]};color:#fff;padding:0 .4em;'
          f'border-radius:.2em;white-space:nowrap">{verdict}</span>')


def badges_in(text: str) -> list[tuple[str, str]]:
  """The (verdict, setting) of every badge in a page's ``text``."""
  return [(verdict.replace("-", " "), html.unescape(setting))
          for verdict, setting in _BADGE.findall(text)]


def details(summary: str, lines: Sequence[str],
            open_: bool = False) -> list[str]:
  """Markdown ``lines`` in a collapsible block (HTML ``<details>`` whose
  markdown body the ``md_in_html`` extension renders)."""
  return ([f'<details markdown="1"{" open" if open_ else ""}>',
           f"<summary>{html.escape(summary)}</summary>", ""] + list(lines) +
          ["", "</details>", ""])


def relative_command(command: str) -> str:
  """``command`` as ``spiel-ext --flag=... `` with no machine path: the
  program becomes ``spiel-ext``, ``--output_dir`` becomes ``<results>``,
  ``--report_path`` and any other absolute path their file name."""
  words = command.split()
  while words and not words[0].startswith("--"):
    words.pop(0)
  out = ["spiel-ext"]
  replace_next = None
  for word in words:
    if replace_next is not None:
      out.append(replace_next(word))
      replace_next = None
      continue
    name, equals, value = word.partition("=")
    if name == "--output_dir":
      if equals:
        out.append(f"--output_dir={RESULTS_PLACEHOLDER}")
      else:
        out.append(word)
        replace_next = lambda _: RESULTS_PLACEHOLDER
      continue
    if equals and value.startswith(("/", "~")):
      out.append(f"{name}={Path(value).name}")
    elif word.startswith(("/", "~")):
      out.append(Path(word).name)
    else:
      out.append(word)
  return " ".join(out)


def _utc(stamp: str | None) -> str | None:
  """``2026-11-27T23:39:39+00:00`` -> ``2026-11-27 23:39 UTC``."""
  if not stamp:
    return None
  try:
    moment = datetime.fromisoformat(str(stamp))
  except ValueError:
    return str(stamp)
  return moment.strftime("%Y-%m-%d %H:%M UTC")


def provenance_lines(sessions: Sequence[dict[str, Any]],
                     last_written: str | None = None) -> list[str]:
  """Markdown bullets on where an experiment's results come from.

  Args:
    sessions: the run folder's manifest sessions, in order (a run resumed
      across commits has several): spiel_ext/open_spiel/numpy/numba/python
      versions, git_commit, git_dirty, started_utc, finished_utc, command,
      resumed.
    last_written: when the results were last written (ISO time), for a run
      whose last session recorded no finish (it was stopped, then reported).

  Returns:
    Lines: package versions, commits (clean or with uncommitted changes),
    the command with its output folder as ``<results>``, first start and
    last end.
  """
  if not sessions:
    return ["- Provenance: the run folder records no sessions.", ""]
  def distinct(key: str) -> list[str]:
    seen: list[str] = []
    for session in sessions:
      value = str(session.get(key))
      if value not in seen:
        seen.append(value)
    return seen
  lines = [
      "- **Package:** spiel_ext " + ", ".join(distinct("spiel_ext")) +
      " (OpenSpiel " + ", ".join(distinct("open_spiel")) + "; numpy " +
      ", ".join(distinct("numpy")) + "; numba " + ", ".join(distinct("numba"))
      + "; Python " + ", ".join(distinct("python")) + ")"]
  commits: list[tuple[str, bool]] = []
  for session in sessions:
    commit = session.get("git_commit")
    entry = (commit[:12] if commit else "", bool(session.get("git_dirty")))
    if entry not in commits:
      commits.append(entry)
  described = [(f"`{commit}`" if commit else "not a git checkout") +
               (" with uncommitted changes" if dirty else
                (" (clean)" if commit else "")) for commit, dirty in commits]
  lines.append(("- **Commit:** " if len(commits) == 1 else
                f"- **Commits** (the run was resumed across "
                f"{len(commits)}): ") + ", ".join(described))
  if any(dirty for _, dirty in commits):
    lines.append("- **Uncommitted changes:** at least one session ran from a "
                 "checkout with uncommitted changes, so its commit alone may "
                 "not reproduce these numbers.")
  commands = []
  for session in sessions:
    command = relative_command(" ".join(
        word for word in str(session.get("command") or "").split()
        if word != "--resume"))
    if command not in commands:
      commands.append(command)
  lines.append("- **Command:** " + ", then ".join(f"`{c}`" for c in commands))
  started = _utc(min(str(s.get("started_utc") or "") for s in sessions)
                 or None)
  finished = _utc(sessions[-1].get("finished_utc"))
  if finished is None and last_written:
    finished = (f"{_utc(last_written)} (the last results written; the last "
                "session recorded no finish)")
  when = f"- **Time:** {started or 'start not recorded'}"
  when += f" to {finished}" if finished else ", no finish recorded"
  resumed = len(sessions) - 1
  if resumed:
    stopped = sum(1 for s in sessions[:-1] if not s.get("finished_utc"))
    when += (f"; {len(sessions)} sessions, resumed {resumed} time"
             f"{'s' if resumed > 1 else ''}" +
             (f" ({stopped} stopped before finishing)" if stopped else ""))
  lines += [when, ""]
  return lines


def previous_sections(paths: Path | Sequence[Path]) -> dict[str, str]:
  """{experiment: its section's text} of the report pages at ``paths``."""
  sections: dict[str, str] = {}
  for path in [paths] if isinstance(paths, Path) else paths:
    try:
      text = path.read_text()
    except OSError:
      continue
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


def _claim_groups(
    claims: Sequence[Claim]) -> list[tuple[str, list[tuple[int, Claim]]]]:
  """Claims numbered 1.. and grouped by the evidence they cite, in the
  order each evidence is first cited."""
  groups: dict[str, list[tuple[int, Claim]]] = {}
  for claim in claims:
    groups.setdefault(claim.evidence, [])
  number = 0
  for evidence, members in groups.items():
    for claim in claims:
      if claim.evidence == evidence:
        number += 1
        members.append((number, claim))
  return list(groups.items())


def _span(numbers: Sequence[int]) -> str:
  return (f"claim {numbers[0]}" if len(numbers) == 1 else
          f"claims {numbers[0]}-{numbers[-1]}")


def _claim_lines(claims: Sequence[Claim], folder: Path,
                 command: str) -> list[str]:
  """The claims of a section: per evidence, the figure (or a link to the
  table), a compact row per claim and a collapsible block with each
  claim's setting, the evidence and the command."""
  lines: list[str] = []
  for evidence, members in _claim_groups(claims):
    name = Path(evidence).name
    lines += [f"### {name}", ""]
    if evidence.endswith(".png") and (folder / evidence).exists():
      lines += [f"![{Path(evidence).stem}]({evidence}){{ loading=lazy }}", ""]
    else:
      lines += [f"Evidence: {_evidence_link(folder, evidence)}", ""]
    lines += ["| # | claim | paper | ours | verdict |", "|---|---|---|---|---|"]
    lines += ["| " + " | ".join([str(number)] + [markdown_cell(field) for field
                                                   in (claim.claim,
                                                       claim.paper_value,
                                                       claim.ours)] +
                                  [verdict_badge(claim.verdict, claim.setting)])
              + " |" for number, claim in members]
    lines.append("")
    numbers = [number for number, _ in members]
    body = ["| # | setting | paper |", "|---|---|---|"]
    body += [f"| {number} | {markdown_cell(claim.setting or 'ours')} | "
             f"{markdown_cell(claim.paper)} |" for number, claim in members]
    body += ["", f"Evidence: {_evidence_link(folder, evidence)}. "
             f"Regenerate with `{command}`."]
    lines += details(f"Setting, evidence and command of {_span(numbers)}",
                     body)
  return lines


def _section_lines(name: str, section: dict, folder: Path) -> list[str]:
  """One experiment's section: its provenance, settings, claims by
  evidence, and the files no claim cites."""
  lines = [f"## {name} ({section['scale']} scale)", ""]
  claims = section["claims"]
  command = (f"spiel-ext --experiment={name} --scale={section['scale']} "
             f"--output_dir={RESULTS_PLACEHOLDER}")
  if not claims:
    reason = section.get("problem")
    return lines + [(f"{NO_RESULTS} ({reason}): run " if reason else
                     f"{NO_RESULTS}: run ") +
                    f"`spiel-ext --experiment={name} "
                    f"--output_dir={RESULTS_PLACEHOLDER}`.", ""]
  lines += provenance_lines(section.get("sessions") or [],
                            section.get("last_written"))
  if section.get("settings"):
    lines += details("Settings: every choice that can change a number",
                     section["settings"])
  lines += _claim_lines(claims, folder, command)
  cited = {claim.evidence for claim in claims}
  others = [p for p in section.get("outputs") or [] if p not in cited]
  if others:
    lines += details("Other figures and tables of this run", [
        ", ".join(f"[{Path(p).name}]({p})" for p in others)] + [""] + [
            f"![{Path(p).stem}]({p}){{ loading=lazy }}" for p in others
            if p.endswith(".png")])
  return lines


def _counts(badges: Sequence[tuple[str, str]]) -> str:
  """"3 hold, 1 holds partly" over (verdict, setting) pairs."""
  names = {"holds": "hold", "holds partly": "partly", "does not hold": "not",
           "not run": "not run"}
  counts = {verdict: sum(1 for v, _ in badges if v == verdict)
            for verdict in VERDICTS}
  return ", ".join(f"{count} {names[verdict]}" for verdict, count in
                   counts.items() if count) or "no results yet"


def _page_lines(title: str, texts: Sequence[str], report: Path) -> list[str]:
  """A paper's page: its title, what it holds and its sections."""
  return [f"# {title}", "",
          f"Part of the [reproduction report](../{report.name}), generated "
          f"by `spiel-ext --experiment=report --output_dir="
          f"{RESULTS_PLACEHOLDER}` from the results on disk (do not edit by "
          "hand). Each experiment opens with where its numbers come from; "
          "then, under each figure or table, the claims it supports: the "
          "paper's number, ours and the verdict (hover a verdict for the "
          "setting it was judged on; the block under each table gives the "
          "settings and the command).", ""] + list(texts)


def write_report(path: str | Path, sections: dict[str, dict],
                 preamble: str = "",
                 findings: Any = None) -> Path:
  """Writes the report atomically: an index page at ``path``, one page per
  paper in ``<path's stem>/`` (``reproduction.md`` ->
  ``reproduction/bufp.md``) and, when ``findings`` is given, the "What
  reproduces" page it returns next to ``path`` (``findings.md``).

  A section with no claims now keeps its text from the page already written
  when that text had results: a report is never emptied by being
  regenerated from a folder that lacks some experiments.

  Args:
    path: the index page to write.
    sections: {experiment: {"scale": str, "claims": [Claim],
      "outputs": [paths relative to the paper pages], "sessions": [the
      manifest's session records], "last_written": ISO time the results
      were last written, "settings": [markdown lines of the settings
      table], "problem": why the results could not be read, if they could
      not}}.
    preamble: text under the index page's title.
    findings: ``(index path, {experiment: (verdict, setting) badges of its
      section}, {page: title}) -> markdown text`` of the "What reproduces"
      page, or None for none.

  Returns:
    The index page's path.
  """
  path = Path(path)
  folder = pages_folder(path)
  by_page: dict[str, list[str]] = {}
  for name in sections:
    by_page.setdefault(page_of(name), []).append(name)
  previous = previous_sections([folder / f"{page}.md" for page in by_page])
  texts: dict[str, str] = {}
  titles: dict[str, str] = {}
  page_papers: dict[str, list[str]] = {}
  for name, section in sections.items():
    kept = previous.get(name, "")
    if not section["claims"] and kept and NO_RESULTS not in kept:
      texts[name] = "\n".join(_kept_lines(kept, section.get("problem")))
    else:
      texts[name] = "\n".join(_section_lines(name, section, folder))
    # The papers of its claims (read back from a kept section's blocks);
    # our own claims name no paper.
    papers = ([claim.paper for claim in section["claims"]] or
              re.findall(r"^\| \d+ \| [^|]* \| ([^|]*) \|$", texts[name],
                         flags=re.M))
    for paper in papers:
      if paper not in page_papers.setdefault(page_of(name), []) + ["ours"]:
        page_papers[page_of(name)].append(paper)
  for page in by_page:
    # A page is named after its paper when it has one, after what it is
    # when it has several, and keeps its title when all its sections are
    # kept.
    if len(page_papers.get(page, [])) == 1:
      titles[page] = page_papers[page][0]
    elif page_papers.get(page):
      titles[page] = page_title(page)
    else:
      title = _page_title_in(folder / f"{page}.md")
      if title:
        titles[page] = title
  index = ["# Reproduction report", "",
           "Generated by `spiel-ext --experiment=report --output_dir="
           f"{RESULTS_PLACEHOLDER}` from the results on disk; do not edit by "
           "hand.", ""]
  if preamble:
    index += [preamble, ""]
  if findings is not None:
    index += ["A summary per paper, one line per experiment: [What "
              "reproduces](findings.md).", ""]
  index += ["| page | paper | experiments | verdicts (every row, ablations "
            "included) |", "|---|---|---|---|"]
  for page, names in by_page.items():
    page_text = [texts[name] for name in names]
    title = titles.get(page, page_title(page))
    atomic_write(folder / f"{page}.md",
                 "\n".join(_page_lines(title, page_text, path)))
    badges = badges_in("\n".join(page_text))
    papers = "; ".join(page_papers.get(page, [])) or titles.get(page, "-")
    index.append(
        f"| [{page_title(page)}]({folder.name}/{page}.md) | "
        f"{markdown_cell(papers)} | "
        + ", ".join(f"[{name}]({folder.name}/{page}.md#{_anchor(texts[name])})"
                    for name in names) + f" | {_counts(badges)} |")
  index.append("")
  if findings is not None:
    atomic_write(path.parent / "findings.md", findings(
        path, {name: badges_in(text) for name, text in texts.items()},
        titles))
  return atomic_write(path, "\n".join(index))


def _page_title_in(page: Path) -> str | None:
  """The title of the page at ``page`` when it holds a kept section."""
  try:
    first = page.read_text().split("\n", 1)[0]
  except OSError:
    return None
  return first[2:].strip() if first.startswith("# ") else None


def _anchor(section_text: str) -> str:
  """The anchor MkDocs gives a section's ``## `` heading."""
  heading = section_text.split("\n", 1)[0][3:].strip().lower()
  slug = re.sub(r"[^\w\- ]", "", heading).strip().replace(" ", "-")
  return re.sub(r"-+", "-", slug)


def report_text(report: str | Path) -> str:
  """The report at ``report`` as one text: its index page, then each paper
  page it links, in the index's order."""
  report = Path(report)
  texts = [report.read_text()]
  folder = pages_folder(report)
  for page in re.findall(rf"^\| \[[^]]*\]\({re.escape(folder.name)}/([^)#]+)\)",
                         texts[0], flags=re.M):
    texts.append((folder / page).read_text())
  return "\n".join(texts)
