"""The reproduction report from every experiment's stored run.

The run folders may come from someone else: what the report reads from
them (results, settings, snapshots, the figures and tables it copies)
follows no symbolic link in them (:class:`spiel_ext.files.LinkRefused`)."""

from __future__ import annotations

import dataclasses
import io
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Sequence

import pandas as pd

from spiel_ext.analysis.claims import ClaimSpec
from spiel_ext.experiments.declaration import Experiment, Settings
from spiel_ext.experiments.run_folder import stored_settings
from spiel_ext.experiments.runner import command_for
from spiel_ext.files import LinkRefused, atomic_write, read_inside
from spiel_ext.results.claims import RunResults, judge
from spiel_ext.results.findings import findings_page
from spiel_ext.results.manifest import read_manifest
from spiel_ext.results.report import (Claim, pages_folder, settings_table,
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
