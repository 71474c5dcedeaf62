"""The reproduction report from every experiment's stored run, and its
"What reproduces" page: per paper, one row per experiment (the paper's
claim, the verdict counted from the report's own claim rows, one
hand-written line on why) and one figure, so the summary cannot disagree
with the report.

The run folders may come from someone else: what the report reads from
them (results, settings, snapshots, the figures and tables it copies)
follows no symbolic link in them (:class:`spiel_ext.files.LinkRefused`)."""

from __future__ import annotations

import dataclasses
import io
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Mapping, Sequence

import pandas as pd

from spiel_ext.analysis.claims import ClaimSpec
from spiel_ext.experiments.declaration import Experiment, Settings
from spiel_ext.experiments.run_folder import stored_settings
from spiel_ext.experiments.runner import command_for
from spiel_ext.files import LinkRefused, atomic_write, read_inside
from spiel_ext.results.claims import RunResults, judge
from spiel_ext.results.manifest import read_manifest
from spiel_ext.results.report import (PAPER_SETTING, Claim, markdown_cell,
                                      page_of, page_title, pages_folder,
                                      settings_table, verdict_badge,
                                      write_report)


def claim_rows(claims: Sequence[ClaimSpec], experiment: str,
               frame: pd.DataFrame, settings: Settings,
               folder: Path | None = None) -> list[Claim]:
  """The report's rows for ``claims`` (an experiment's, or some of them)
  judged on a run of ``experiment``: its results ``frame``, the
  ``settings`` it ran with and its ``folder`` (None when the measures need
  no stored snapshots)."""
  return judge(claims, RunResults(frame, settings, folder), experiment,
               command_for(settings))


def report_section(name: str, experiment: Experiment, folder: Path,
                   report: Path) -> dict[str, Any]:
  """One experiment's section of the report from its run in ``folder``;
  the figures and markdown tables it cites are copied next to the report's
  paper pages (``<report stem>/files/<experiment>/``).

  Raises:
    LinkRefused: a file the section reads in ``folder`` is, or is reached
      through, a symbolic link (nothing of the section is copied).
  """
  try:
    settings = stored_settings(folder)
    manifest = read_manifest(folder)
  except ValueError as error:
    return {"scale": "no", "claims": [], "problem": str(error)}
  if settings is None or not (folder / "results.parquet").exists():
    return {"scale": "no", "claims": []}
  sources = [(source, read_inside(folder, source))
             for source in sorted(folder.glob("figures/*.png")) + sorted(
                 folder.glob("tables/*.md"))]
  try:
    frame = pd.read_parquet(io.BytesIO(read_inside(
        folder, folder / "results.parquet")))
    claims = claim_rows(experiment.claims, name, frame, settings, folder)
  except LinkRefused:
    raise
  except Exception as error:  # pylint: disable=broad-except
    # One experiment's unreadable or partial results (say, a run with
    # some algorithms left out) must not stop the report.
    return {"scale": "no", "claims": [], "problem": (
        f"its claims could not be read from {folder}: "
        f"{type(error).__name__}: {error}")}
  pages = pages_folder(report)
  files = pages / "files"
  outputs = []
  for source, data in sources:
    target = atomic_write(files / name / source.relative_to(folder), data)
    outputs.append(target.relative_to(pages).as_posix())
  claims = [dataclasses.replace(claim, evidence=f"{files.name}/{claim.evidence}")
            for claim in claims]
  sessions = (manifest or {}).get("sessions") or frame.attrs.get(
      "provenance", [])
  written = datetime.fromtimestamp(
      (folder / "results.parquet").stat().st_mtime, timezone.utc)
  return {"scale": settings.scale, "claims": claims, "outputs": outputs,
          "sessions": list(sessions),
          "last_written": written.isoformat(timespec="seconds"),
          "settings": settings_table(experiment.choices, experiment.variants)}


# {experiment: (the paper's claim it tests, why the verdict is what it is)}.
CLAIMS_AND_WHY: dict[str, tuple[str, str]] = {
    "bufp_convergence": (
        "Figs. 1-2: BUFP(X) converges faster than CFR and BUFP(EF) on Kuhn "
        "and Leduc; BUFP(EF) has the lowest perfect-Bayesian gap.",
        "Against the paper's CFR (RLCard's sampled agent) BUFP(X) is lower "
        "from the first iterations, against full-width CFR it is not; from "
        "a full-support start BUFP(X) is XFP iterate for iterate."),
    "bufp_tables": (
        "Tables 1-2 and section 5.2: payoffs on 5-rank Leduc; BUFP(EF) "
        "recovers more of a forced-Call loss and secures more profit.",
        "Table 1 is close with RLCard's agent as CFR; Table 2's cells hang "
        "on rarely reached, dominated branches; the percentages divide by "
        "CFR's small gain, so they swing with the CFR reading and the run "
        "length."),
    "pref_cfr_kuhn_alpha": (
        "Fig. 3: CFR on Kuhn converges to alpha = 0.2 regardless of the "
        "initial strategy.",
        "A property of the authors' schedule (simultaneous updates, light "
        "U(0, 1) starts): alternating updates and heavier starts spread the "
        "final alpha."),
    "pref_cfr_kuhn_settings": (
        "Fig. 4: the six preference settings move alpha as drawn and "
        "converge like CFR.",
        "On the authors' schedule the settings shift alpha the paper's way, "
        "RM less than BR, at NashConv close to CFR's; alternating updates "
        "make CFR several times faster than the settings."),
    "pref_cfr_styles": (
        "Tables 2-3, Figs. 5-6: play styles change play at a small price "
        "against Normal players.",
        "With beta in the authors' unit the styles are cheap but shift play "
        "far less than the paper's figures; with reach-weighted regret they "
        "shift it as much, at a larger price."),
    "gxfp_vnm_asymmetric": (
        "Fig. 1: unperturbed GXFP drifts among mixed equilibria; "
        "perturbation removes the drift.",
        "The paper names no update schedule: the drift shows with "
        "simultaneous updates; with alternating ones unperturbed GXFP "
        "already settles on the pure threshold."),
    "gxfp_vnm_raise": (
        "Figs. 2-3: perturbation removes the mixing; perturbed XFP and GXFP "
        "agree.",
        "Clearer with alternating updates than with simultaneous ones; N, "
        "eps and the bet sizes lost from the paper's text are our choices "
        "(see the settings)."),
    "gxfp_convergence": (
        "Figs. 4-5: CFR, XFP and GXFP converge alike at a similar cost per "
        "iteration; the perturbed game converges faster.",
        "All three end close in NashConv on either schedule, alternating "
        "updates make all of them better, and the per-iteration costs are "
        "within 2x."),
    "vcfr_unknown_env": (
        "VCFR learns unknown Kuhn and Leduc faster than PSRLCFR, MCCFR-OS, "
        "Naive-CFR, FSP and Random.",
        "The baselines land near the paper's numbers, but VCFR as the "
        "paper's Algorithm 1 ends level with its no-bonus twin Naive-CFR "
        "and behind PSRLCFR."),
    "vcfr_ablations": (
        "Figs. 5-6: the exploration bonus helps DCFR (VDCFR) and FSP (VFSP) "
        "too.",
        "Each ends level with its no-bonus twin in both readings of the "
        "authors' text and code; DCFR beats CFR as it does on known games."),
    "vcfr_information": (
        "The variational information gain is what drives VCFR's "
        "exploration.",
        "No design of the bonus beats its no-bonus twin; the authors' "
        "exploration-draw design lands on their logs, level with PSRLCFR."),
    "solver_league": (
        "Newer solvers' orderings: PCFR+ and PDCFR+ beat CFR+, DCFR and LCFR; "
        "MMD's last iterate converges; DCFR+ is fastest.",
        "The predictive solvers lead on most games but not where DCFR's "
        "discounting wins; MMD settles at its QRE, far from Nash where "
        "chance scales the payoffs down."),
}

# {page: (experiment, figure in its run folder)}: the figure each paper's
# summary shows.
FIGURES: dict[str, tuple[str, str]] = {
    "bufp": ("bufp_convergence", "figures/fig1_nash_conv.png"),
    "pref_cfr": ("pref_cfr_kuhn_alpha", "figures/final_alpha_histogram.png"),
    "gxfp": ("gxfp_convergence",
             "figures/fig4_cfr_xfp_gxfp_simultaneous.png"),
    "vcfr": ("vcfr_unknown_env", "figures/nash_conv_vs_episodes.png"),
    "solver_league": ("solver_league", "figures/nash_conv_leduc.png"),
}


def summary_verdict(badges: Sequence[tuple[str, str]]) -> tuple[str, str]:
  """An experiment's verdict and its count from its claims' (verdict,
  setting) badges: judged on the paper-setting rows when there are any
  (the ablations say how far our other choices move a result).

  Returns:
    (verdict, "n of m" text): "holds" when every row holds, "does not hold"
    when none holds even partly, "not run" when none ran, otherwise
    "holds partly".
  """
  paper = [verdict for verdict, setting in badges
           if setting.startswith(PAPER_SETTING) or setting == "ours"]
  verdicts = paper or [verdict for verdict, _ in badges]
  ran = [verdict for verdict in verdicts if verdict != "not run"]
  if not ran:
    return "not run", "no claim ran"
  holding = sum(1 for verdict in ran if verdict == "holds")
  partly = sum(1 for verdict in ran if verdict == "holds partly")
  if holding == len(ran):
    verdict = "holds"
  elif holding + partly == 0:
    verdict = "does not hold"
  else:
    verdict = "holds partly"
  rows = "paper-setting rows" if paper else "rows"
  count = f"{holding} of {len(ran)} {rows} hold"
  if partly:
    count += f", {partly} partly"
  return verdict, count


def findings_page(report: Path,
                  badges: Mapping[str, Sequence[tuple[str, str]]],
                  titles: Mapping[str, str]) -> str:
  """The markdown of "What reproduces", written next to the ``report``
  index page.

  Args:
    report: the report's index page.
    badges: {experiment: the (verdict, setting) of each claim row of its
      section}, in the report's order.
    titles: {page: the paper's name}.

  Returns:
    The page's text: per paper a heading, one figure and a table
    (experiment, the paper's claim, verdict, why).
  """
  pages = pages_folder(report)
  by_page: dict[str, list[str]] = {}
  for name in badges:
    by_page.setdefault(page_of(name), []).append(name)
  lines = ["# What reproduces", "",
           "Per paper, one row per experiment: the paper's claim it tests, "
           "the verdict counted from the claim rows of the "
           f"[reproduction report]({report.name}) (on the paper setting: "
           "what the paper's text and the authors' code did) and one line on "
           "why. Generated by `spiel-ext --experiment=report` with the "
           "report; the report's pages have every row, its numbers, the "
           "settings and where the results come from.", ""]
  for page, names in by_page.items():
    lines += [f"## {titles.get(page, page_title(page))}", ""]
    experiment, figure = FIGURES.get(page, ("", ""))
    image = pages / "files" / experiment / figure
    if figure and image.exists():
      source = image.relative_to(report.parent).as_posix()
      lines += [f"![{Path(figure).stem}]({source}){{ loading=lazy }}", ""]
    lines += ["| experiment | the paper's claim | verdict | why |",
              "|---|---|---|---|"]
    for name in names:
      claim, why = CLAIMS_AND_WHY.get(name, ("-", "-"))
      verdict, count = summary_verdict(badges[name])
      lines.append(
          f"| [{name}]({pages.name}/{page}.md) | {markdown_cell(claim)} | "
          f"{verdict_badge(verdict, 'paper setting')} ({count}) | "
          f"{markdown_cell(why)} |")
    lines.append("")
  return "\n".join(lines)


def write_reproduction_report(experiments: dict[str, Experiment],
                              output_dir: str | Path,
                              path: str | Path | None = None) -> Path:
  """The reproduction report from every experiment's results in
  ``output_dir``: its index page at ``path`` (default
  ``<output_dir>/reproduction.md``), one page per paper in the folder named
  after it (``reproduction/bufp.md``, with the evidence under
  ``reproduction/files/``) and "What reproduces" (``findings.md``) next to
  it. A section whose experiment has no results in ``output_dir`` keeps
  what its page said, if that had results. The experiments' pages
  (``Experiment.pages``, such as the solver league's ``which-solver.md``)
  are written next to the index."""
  path = Path(output_dir) / "reproduction.md" if path is None else Path(path)
  sections = {name: report_section(name, experiment, Path(output_dir) / name,
                                   path)
              for name, experiment in experiments.items()
              if experiment.claims is not None}
  for name, experiment in experiments.items():
    for write_page in experiment.pages:
      write_page(Path(output_dir) / name, path)
  return write_report(path, sections, findings=findings_page, preamble=(
      "Verdicts compare each paper statement with our numbers at the scale "
      "shown; quick-scale runs use fewer iterations and seeds than the "
      "papers. Each verdict names the setting it was judged on: the paper "
      "setting (what the paper's text and the authors' code did; where the "
      "paper is silent or the two disagree, each reading runs as its own "
      "paper setting) or one of our ablations, whose row says how far it "
      "moves the result. An experiment's settings table lists every choice "
      "that can change a number. Evidence links point to copies of the "
      "figures and tables next to these pages. Each experiment opens with the "
      "runs its results come from: versions, commits, command and times."))
