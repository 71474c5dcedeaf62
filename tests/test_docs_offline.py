"""Tests of the documentation's sources: math offline, tutorials ready to read.

The site must typeset its formulas without a network (MathJax ships with the
site through the django-static-mathjax package, copied in by a build hook),
and each tutorial notebook opens with an install cell and is stored with its
outputs. These tests read the sources and call the hooks directly; they do
not build the site.
"""

import base64
import importlib.util
import json
import pathlib
import re
import types

import pytest

REPO = pathlib.Path(__file__).resolve().parent.parent
TUTORIALS = sorted((REPO / "docs" / "tutorials").glob("*.ipynb"))


def _load_hook(name: str) -> types.ModuleType:
  path = REPO / "docs" / "hooks" / f"{name}.py"
  spec = importlib.util.spec_from_file_location(f"docs_hook_{name}", path)
  module = importlib.util.module_from_spec(spec)
  spec.loader.exec_module(module)
  return module


def _mkdocs_list(key: str) -> list[str]:
  """The items of a top-level list in mkdocs.yml (no YAML parser needed)."""
  text = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
  block = re.search(rf"^{key}:\n((?:[ \t]+-[^\n]*\n)+)", text, re.M)
  assert block, f"mkdocs.yml has no {key} list"
  return [line.strip()[1:].strip() for line in block.group(1).splitlines()]


def test_site_loads_no_script_from_the_network():
  scripts = _mkdocs_list("extra_javascript")
  assert any(s.endswith("mathjax/tex-mml-chtml.js") for s in scripts), scripts
  assert not [s for s in scripts if "://" in s or s.startswith("//")]


def test_mathjax_hook_is_registered_and_finds_mathjax(tmp_path):
  assert "docs/hooks/offline_mathjax.py" in _mkdocs_list("hooks")
  pytest.importorskip("mathjax", reason="the docs extra is not installed")
  hook = _load_hook("offline_mathjax")
  hook.on_post_build({"site_dir": str(tmp_path)})
  copied = tmp_path / hook.MATHJAX_SITE_DIR
  assert (copied / "tex-mml-chtml.js").stat().st_size > 500_000
  assert list((copied / "output" / "chtml" / "fonts" / "woff-v2").glob("*.woff"))
  assert (copied / "LICENSE").is_file()


def test_notebook_page_hook_moves_styles_and_figures_out(tmp_path):
  pytest.importorskip("mkdocs", reason="the docs extra is not installed")
  hook = _load_hook("notebook_pages")
  png = b"\x89PNG\r\n\x1a\n" + bytes(range(256))
  big_css = ".jp-Cell{color:red}" * 500
  html = (f"<style>{big_css}</style><style>p{{margin:0}}</style>"
          f'<img src="data:image/png;base64,{base64.b64encode(png).decode()}">')
  page = types.SimpleNamespace(file=types.SimpleNamespace(
      src_uri="tutorials/demo.ipynb", dest_uri="tutorials/demo/index.html"))
  out = hook.on_post_page(html, page=page, config={"site_dir": str(tmp_path)})
  assert "data:image" not in out and big_css not in out
  assert "<style>p{margin:0}</style>" in out  # small styles stay
  assert 'src="demo-figure-1.png"' in out
  assert (tmp_path / "tutorials" / "demo" / "demo-figure-1.png").read_bytes() == png
  href = re.search(r'<link rel="stylesheet" href="([^"]+)">', out).group(1)
  assert href.startswith("../../stylesheets/notebooks/")
  css = (tmp_path / "tutorials" / "demo" / href).resolve()
  assert css.read_text(encoding="utf-8") == big_css
  markdown_page = types.SimpleNamespace(file=types.SimpleNamespace(
      src_uri="index.md", dest_uri="index.html"))
  assert hook.on_post_page(html, page=markdown_page,
                           config={"site_dir": str(tmp_path)}) == html


@pytest.mark.parametrize("path", TUTORIALS, ids=lambda p: p.stem)
def test_tutorial_starts_with_an_install_cell(path):
  cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
  first_code = next(c for c in cells if c["cell_type"] == "code")
  source = "".join(first_code["source"])
  assert "%pip install" in source
  # Guarded: the documentation build, where the package is installed,
  # does not reinstall it.
  assert 'find_spec("spiel_ext") is None' in source
  before = "".join("".join(c["source"]) for c in cells[:cells.index(first_code)])
  assert "pip install" in before  # the command a reader copies


@pytest.mark.parametrize("path", TUTORIALS, ids=lambda p: p.stem)
def test_tutorial_is_stored_executed(path):
  cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
  code = [c for c in cells if c["cell_type"] == "code"]
  assert all(c["execution_count"] for c in code), "a code cell was not run"
  assert [c["execution_count"] for c in code] == list(range(1, len(code) + 1))
  assert any(o.get("data", {}).get("image/png")
             for c in code for o in c["outputs"]), "no figure stored"
  errors = [o for c in code for o in c["outputs"] if o["output_type"] == "error"]
  assert not errors
  assert path.stat().st_size < 1_000_000
