"""The built-site check (.ci/check_site.py) on small fake sites: a clean one
passes, and each kind of offence makes it fail naming the page."""

from __future__ import annotations

import importlib.util
import pathlib
import subprocess
import sys

import pytest

SCRIPT = pathlib.Path(__file__).resolve().parents[1] / ".ci" / "check_site.py"


def _load_checker():
  spec = importlib.util.spec_from_file_location("check_site", SCRIPT)
  module = importlib.util.module_from_spec(spec)
  spec.loader.exec_module(module)
  return module


check_site = _load_checker()

CLEAN_REFERENCE = """<html><head><script>var x = ":func:`y`";</script></head>
<body><article><h2 id="spiel_ext.eval">spiel_ext.eval</h2>
<p>See <a href="../eval/#spiel_ext.eval.nash_conv"><code>nash_conv()</code></a>
and <code>int</code> values.</p></article></body></html>"""

CLEAN_REPORT = """<html><body><p>Computed by spiel_ext 1.2.0 at commit abc123
(clean): <code>spiel-ext --experiment=all --output_dir=results/paper</code>.
See docs/work/notes and a/home/b.</p></body></html>"""


def _site(tmp_path: pathlib.Path, pages: dict[str, str]) -> pathlib.Path:
  for name, text in pages.items():
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
  return tmp_path


def _clean_pages() -> dict[str, str]:
  return {"index.html": "<html><body><p>Home</p></body></html>",
          "reference/eval/index.html": CLEAN_REFERENCE,
          "reproduction/bufp/index.html": CLEAN_REPORT,
          "findings/index.html": CLEAN_REPORT}


def test_a_clean_site_passes(tmp_path):
  assert check_site.check_site(_site(tmp_path, _clean_pages())) == []


@pytest.mark.parametrize("page,text,expected", [
    ("reference/algorithms/index.html",
     "<p>Convert a number or string to an integer.</p>"
     "<p>int([x]) -&gt; integer</p>", "built-in docstring"),
    ("reference/algorithms/index.html",
     "<p>str(object='') -&gt; str</p>", "built-in docstring"),
    ("reference/algorithms/index.html",
     "<p>Built-in immutable sequence.</p>", "built-in docstring"),
    ("reference/algorithms/index.html", "<p>bool(x) -&gt; bool</p>",
     "built-in docstring"),
    ("reference/engine/index.html", "<p>Initialize self.  See help.</p>",
     "built-in docstring"),
    ("reference/eval/index.html",
     "<p>Uses :func:`~spiel_ext.eval.nash_conv`.</p>", "Sphinx roles"),
    ("reference/eval/index.html", "<p>See <code>:class:</code>`Foo`.</p>",
     "Sphinx roles"),
    ("reference/eval/index.html", "<p>In :mod:`spiel_ext.engine`.</p>",
     "Sphinx roles"),
    ("reference/eval/index.html", "<p>Call :meth:`Solver.run`.</p>",
     "Sphinx roles"),
    ("reproduction/bufp/index.html",
     "<p>--output_dir=/work/runs/paper</p>", "machine path"),
    ("reproduction/index.html", "<p>from /root/results</p>",
     "machine path"),
    ("findings/index.html", "<p>/home/me/x and /tmp/y</p>", "machine path"),
    ("reproduction/vcfr/index.html",
     "<p>commit abc123 (uncommitted changes)</p>", "'uncommitted'"),
])
def test_each_offence_fails_naming_the_page(tmp_path, page, text, expected):
  pages = _clean_pages()
  pages[page] = f"<html><body>{text}</body></html>"
  problems = check_site.check_site(_site(tmp_path, pages))
  assert len(problems) == 1, problems
  assert problems[0].startswith(page.replace("\\", "/") + ":")
  assert expected in problems[0]


def test_machine_paths_outside_the_report_are_allowed(tmp_path):
  pages = _clean_pages()
  pages["how-to/ray-cluster/index.html"] = (
      "<html><body><p>ray start --temp-dir=/tmp/ray</p></body></html>")
  assert check_site.check_site(_site(tmp_path, pages)) == []


def test_a_page_over_300_kb_fails(tmp_path):
  pages = _clean_pages()
  pages["reference/experiments/index.html"] = (
      "<html><body>" + "<p>x</p>" * (301 * 1024 // 8) + "</body></html>")
  problems = check_site.check_site(_site(tmp_path, pages))
  assert len(problems) == 1
  assert problems[0].startswith("reference/experiments/index.html:")
  assert "over 300 KB" in problems[0]


def test_the_script_exits_1_listing_offenders_and_0_when_clean(tmp_path):
  clean = _site(tmp_path / "clean", _clean_pages())
  result = subprocess.run([sys.executable, str(SCRIPT), str(clean)],
                          capture_output=True, text=True, check=False)
  assert result.returncode == 0, result.stdout + result.stderr
  pages = _clean_pages()
  pages["reference/eval/index.html"] = "<p>int([x]) -&gt; integer</p>"
  bad = _site(tmp_path / "bad", pages)
  result = subprocess.run([sys.executable, str(SCRIPT), str(bad)],
                          capture_output=True, text=True, check=False)
  assert result.returncode == 1
  assert "reference/eval/index.html" in result.stdout


def test_a_missing_site_dir_is_refused(tmp_path):
  with pytest.raises(NotADirectoryError, match="site_dir"):
    check_site.check_site(tmp_path / "absent")
