"""The reproduction report as pages: one per paper, a compact row per claim
with a verdict badge, collapsible details, provenance without machine paths
and a generated "What reproduces"."""

import re
from pathlib import Path

import pytest

from spiel_ext.experiments.reporting import findings_page, summary_verdict
from spiel_ext.results.report import (Claim, badges_in, report_text,
                                      verdict_badge, write_report)

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

_CLEAN = {"spiel_ext": "0.1.0", "open_spiel": "2.0.2", "numpy": "2.4.6",
          "numba": "0.68.1", "python": "3.11.7", "host": "machine-7",
          "git_commit": "b7241a17518259e063c44ded4656461bb4aaf5e6",
          "git_dirty": False, "resumed": False,
          "started_utc": "2026-11-27T23:39:39+00:00",
          "finished_utc": "2026-11-28T01:02:03+00:00",
          "command": "/home/someone/venv/bin/spiel-ext --experiment=all "
                     "--scale=paper --workers=2 "
                     "--output_dir=/home/someone/runs/paper_all"}


def _claim(paper: str, statement: str, verdict: str, evidence: str,
           setting: str = "paper setting") -> Claim:
  return Claim(paper, statement, "0.2", "0.203", verdict, evidence,
               "spiel-ext --experiment=x", setting)


def _section(name: str, claims: list[Claim], sessions=None, **extra) -> dict:
  return {"scale": "paper", "claims": claims, "outputs": [],
          "sessions": [_CLEAN] if sessions is None else sessions,
          "settings": ["| choice | paper text |", "|---|---|",
                       "| schedule | not stated |", ""], **extra}


def _write(tmp_path: Path, sections: dict[str, dict], **kwargs) -> Path:
  return write_report(tmp_path / "reproduction.md", sections, **kwargs)


def _sections(tmp_path: Path) -> dict[str, dict]:
  figure = "files/bufp_convergence/figures/fig1.png"
  (tmp_path / "reproduction" / figure).parent.mkdir(parents=True)
  (tmp_path / "reproduction" / figure).write_bytes(b"png")
  return {
      "bufp_convergence": _section("bufp_convergence", [
          _claim("BUFP (A 2024)", "BUFP(X) is fastest", "holds", figure),
          _claim("BUFP (A 2024)", "BUFP(EF) gap lowest", "holds partly",
                 "files/bufp_convergence/tables/final.md"),
          _claim("BUFP (A 2024)", "BUFP(X) is fastest", "does not hold",
                 figure, "ablation: full-width CFR")]),
      "bufp_tables": _section("bufp_tables", [
          _claim("BUFP (A 2024)", "Table 1 matches", "holds",
                 "files/bufp_tables/tables/t1.md")]),
      "vcfr_unknown_env": _section("vcfr_unknown_env", [
          _claim("VCFR (B 2023)", "VCFR beats PSRLCFR", "does not hold",
                 "files/vcfr_unknown_env/figures/n.png")]),
      "solver_league": _section("solver_league", [])}


def test_one_page_per_paper_and_an_index_linking_them(tmp_path):
  index = _write(tmp_path, _sections(tmp_path))
  pages = tmp_path / "reproduction"
  assert sorted(p.name for p in pages.glob("*.md")) == [
      "bufp.md", "solver_league.md", "vcfr.md"]
  bufp = (pages / "bufp.md").read_text()
  assert bufp.startswith("# BUFP (A 2024)\n")
  assert "## bufp_convergence (paper scale)" in bufp
  assert "## bufp_tables (paper scale)" in bufp
  assert "## vcfr_unknown_env" not in bufp
  assert "## vcfr_unknown_env (paper scale)" in (pages / "vcfr.md").read_text()
  assert "No results yet" in (pages / "solver_league.md").read_text()
  text = index.read_text()
  assert "\n## " not in text
  assert "(reproduction/bufp.md)" in text and "(reproduction/vcfr.md)" in text
  assert "(reproduction/bufp.md#bufp_tables-paper-scale)" in text
  # The whole report reads back as one text, index first.
  assert report_text(index).count("\n## ") == 4


def test_a_claim_is_a_compact_row_with_a_badge_under_its_figure(tmp_path):
  _write(tmp_path, _sections(tmp_path))
  page = (tmp_path / "reproduction" / "bufp.md").read_text()
  section = page.split("## bufp_convergence", 1)[1].split("\n## ", 1)[0]
  figure = section.index("![fig1](files/bufp_convergence/figures/fig1.png)")
  rows = [line for line in section.splitlines() if line.startswith("| 1 |")
          or line.startswith("| 2 |")]
  assert rows[0].startswith("| 1 | BUFP(X) is fastest | 0.2 | 0.203 | <span")
  assert figure < section.index("| 1 | BUFP(X) is fastest")
  # The rows citing the figure come first, under it; the table's claim is
  # under its own heading with a link that is not broken (the file is not
  # there, so it is named, not linked).
  assert rows[1].startswith("| 2 | BUFP(X) is fastest")
  assert "| 3 | BUFP(EF) gap lowest" in section
  assert "final.md (not written)" in section
  header = "| # | claim | paper | ours | verdict |"
  assert section.count(header) == 2
  assert all(len(line.split(" | ")) == 5 for line in section.splitlines()
             if line.startswith("| ") and "<span" in line)
  assert badges_in(section) == [("holds", "paper setting"),
                                ("does not hold", "ablation: full-width CFR"),
                                ("holds partly", "paper setting")]


@pytest.mark.parametrize("verdict,colour", [
    ("holds", "#2e7d32"), ("holds partly", "#a15c00"),
    ("does not hold", "#c62828"), ("not run", "#616161")])
def test_verdict_badges_are_coloured_spans(verdict, colour):
  badge = verdict_badge(verdict, "ablation: a \"b\"")
  assert badge.startswith(f'<span class="verdict verdict-'
                          f'{verdict.replace(" ", "-")}"')
  assert f"background:{colour}" in badge
  assert badge.endswith(f">{verdict}</span>")
  assert badges_in(badge) == [(verdict, "ablation: a \"b\"")]
  with pytest.raises(ValueError, match="verdict must be one of"):
    verdict_badge("holds mostly")


def test_settings_setting_and_command_are_in_collapsible_blocks(tmp_path):
  _write(tmp_path, _sections(tmp_path))
  section = (tmp_path / "reproduction" / "bufp.md").read_text().split(
      "## bufp_convergence", 1)[1].split("\n## ", 1)[0]
  blocks = re.findall(r'<details markdown="1">\n<summary>([^<]*)</summary>'
                      r"\n\n(.*?)\n\n</details>", section, flags=re.S)
  summaries = [summary for summary, _ in blocks]
  assert summaries == ["Settings: every choice that can change a number",
                       "Setting, evidence and command of claims 1-2",
                       "Setting, evidence and command of claim 3"]
  assert "| schedule | not stated |" in blocks[0][1]
  assert "| 2 | ablation: full-width CFR | BUFP (A 2024) |" in blocks[1][1]
  assert ("`spiel-ext --experiment=bufp_convergence --scale=paper "
          "--output_dir=<results>`") in blocks[1][1]
  # Nothing of the settings table is outside its block.
  assert section.count("| schedule | not stated |") == 1


def test_provenance_names_no_machine_path(tmp_path):
  space = dict(_CLEAN, command="python /opt/x/run_experiments.py "
               "--experiment=all --output_dir /srv/results/a "
               "--report_path=/srv/out/report.md --resume")
  _write(tmp_path, {"bufp_convergence": _section(
      "bufp_convergence", [_claim("BUFP", "c", "holds", "f.png")],
      sessions=[_CLEAN, space])})
  text = (tmp_path / "reproduction" / "bufp.md").read_text()
  assert not re.search(r"/home/|/srv/|/opt/|/work/", text), text
  assert "machine-7" not in text
  assert ("`spiel-ext --experiment=all --scale=paper --workers=2 "
          "--output_dir=<results>`") in text
  assert ("`spiel-ext --experiment=all --output_dir <results> "
          "--report_path=report.md`") in text
  assert "**Package:** spiel_ext 0.1.0 (OpenSpiel 2.0.2" in text


def test_dirty_sessions_are_said_plainly(tmp_path):
  dirty = dict(_CLEAN, git_commit="f6ee2af5be59aaaa", git_dirty=True,
               resumed=True)
  _write(tmp_path, {
      "bufp_convergence": _section("bufp_convergence", [
          _claim("BUFP", "c", "holds", "f.png")], sessions=[_CLEAN, dirty]),
      "vcfr_unknown_env": _section("vcfr_unknown_env", [
          _claim("VCFR", "c", "holds", "f.png")])})
  dirty_page = (tmp_path / "reproduction" / "bufp.md").read_text()
  assert ("`b7241a175182` (clean), `f6ee2af5be59` with uncommitted changes"
          in dirty_page)
  assert "**Uncommitted changes:**" in dirty_page
  clean_page = (tmp_path / "reproduction" / "vcfr.md").read_text()
  assert "**Commit:** `b7241a175182` (clean)" in clean_page
  assert "uncommitted" not in clean_page


def test_a_resumed_run_gives_first_start_and_last_end(tmp_path):
  killed = dict(_CLEAN, finished_utc=None)
  later = dict(_CLEAN, git_commit="4368841f60b50027", resumed=True,
               started_utc="2026-11-28T01:10:49+00:00", finished_utc=None,
               command=_CLEAN["command"] + " --resume")
  _write(tmp_path, {"bufp_convergence": _section(
      "bufp_convergence", [_claim("BUFP", "c", "holds", "f.png")],
      sessions=[killed, later, dict(later)],
      last_written="2026-11-28T05:11:21+00:00")})
  text = (tmp_path / "reproduction" / "bufp.md").read_text()
  assert "unfinished" not in text
  assert ("**Time:** 2026-11-27 23:39 UTC to 2026-11-28 05:11 UTC (the last "
          "results written; the last session recorded no finish); 3 "
          "sessions, resumed 2 times (2 stopped before finishing)") in text
  assert ("**Commits** (the run was resumed across 2): `b7241a175182` "
          "(clean), `4368841f6` " not in text)
  assert "`b7241a175182` (clean), `4368841f60b5` (clean)" in text
  # One command, the --resume of the later sessions said by the count.
  assert text.count("`spiel-ext --experiment=all") == 1


def test_a_section_without_results_keeps_its_page_text(tmp_path):
  _write(tmp_path, _sections(tmp_path))
  before = (tmp_path / "reproduction" / "vcfr.md").read_text()
  _write(tmp_path, {"vcfr_unknown_env": {"scale": "no", "claims": []}})
  assert (tmp_path / "reproduction" / "vcfr.md").read_text() == before


def test_findings_count_the_report_s_paper_setting_rows(tmp_path):
  sections = _sections(tmp_path)
  figure = tmp_path / "reproduction" / "files" / "vcfr_unknown_env" / (
      "figures/nash_conv_vs_episodes.png")
  figure.parent.mkdir(parents=True)
  figure.write_bytes(b"png")
  index = _write(tmp_path, sections, findings=findings_page)
  text = (tmp_path / "findings.md").read_text()
  assert "(findings.md)" in index.read_text()
  papers = text.split("\n## ")[1:]
  assert [paper.split("\n", 1)[0] for paper in papers] == [
      "BUFP (A 2024)", "VCFR (B 2023)", "Solver league"]
  bufp, vcfr, league = papers
  rows = [line for line in bufp.splitlines() if line.startswith("| [")]
  # bufp_convergence: one paper-setting row holds, one partly (the
  # ablation's "does not hold" is not counted); bufp_tables: all hold.
  assert "verdict-holds-partly" in rows[0] and "(1 of 2 paper-setting rows " \
      "hold, 1 partly)" in rows[0]
  assert 'verdict-holds"' in rows[1] and "(1 of 1 paper-setting rows hold)" \
      in rows[1]
  assert "Against the paper's CFR" in rows[0]  # the line on why
  assert "verdict-does-not-hold" in vcfr
  # One figure for a paper whose figure exists, none for one whose does not.
  assert vcfr.count("![") == 1 and bufp.count("![") == 0
  assert "verdict-not-run" in league


@pytest.mark.parametrize("badges,expected", [
    ([("holds", "paper setting"), ("does not hold", "ablation: x")],
     ("holds", "1 of 1 paper-setting rows hold")),
    ([("not run", "paper setting")], ("not run", "no claim ran")),
    ([("does not hold", "paper setting (text)"),
      ("does not hold", "paper setting (code)")],
     ("does not hold", "0 of 2 paper-setting rows hold")),
    ([("holds", "ablation: x"), ("holds partly", "ablation: y")],
     ("holds partly", "1 of 2 rows hold, 1 partly")),
])
def test_summary_verdict(badges, expected):
  assert summary_verdict(badges) == expected


def test_the_committed_report_is_paged_and_names_no_machine_path():
  index = (DOCS / "reproduction.md").read_text()
  assert "\n## " not in index
  pages = sorted((DOCS / "reproduction").glob("*.md"))
  assert [page.stem for page in pages] == [
      "bufp", "gxfp", "pref_cfr", "solver_league", "vcfr"]
  for path in pages + [DOCS / "reproduction.md", DOCS / "findings.md"]:
    text = path.read_text()
    assert not re.search(r"/work/|/home/|/tmp/|unfinished", text), path
    assert "(uncommitted changes)" not in text, path
  assert 'class="verdict verdict-' in (DOCS / "findings.md").read_text()


def test_a_page_of_several_papers_is_named_after_what_it_is(tmp_path):
  index = _write(tmp_path, {"solver_league": _section("solver_league", [
      _claim("Farina (2021)", "PCFR+ first", "holds", "a.png"),
      _claim("Sokota (2023)", "MMD settles", "holds partly", "b.png"),
      _claim("ours", "our check", "holds", "c.png")])})
  page = (tmp_path / "reproduction" / "solver_league.md").read_text()
  assert page.startswith("# Solver league\n")
  assert "| Farina (2021); Sokota (2023) |" in index.read_text()
  # Kept (no results now), the page and the index say the same.
  _write(tmp_path, {"solver_league": {"scale": "no", "claims": []}})
  assert (tmp_path / "reproduction" / "solver_league.md").read_text() == page
  assert "| Farina (2021); Sokota (2023) |" in index.read_text()
