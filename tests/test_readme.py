"""The README is executable documentation: every python block runs on its own.

Also checks that no user-facing text (README, docstrings, messages in the
package, the runner) points at the project's internal planning files.
"""

import re
from pathlib import Path

import pytest

from _doc_blocks import python_blocks, run_block

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"


def _python_blocks() -> list[tuple[int, str]]:
  return python_blocks(README)


def test_readme_has_python_blocks():
  assert len(_python_blocks()) >= 3


@pytest.mark.parametrize("line,code", _python_blocks(),
                         ids=lambda value: f"line{value}"
                         if isinstance(value, int) else "")
def test_readme_block_runs_on_its_own(line, code):
  run_block(README, line, code)


_INTERNAL = re.compile(r"[Ss]eed 00\d|\bSPEC\b|shared/|seeds/")


def _user_facing_files() -> list[Path]:
  files = [README, ROOT / "CONTRIBUTING.md", ROOT / "run_experiments.py",
           ROOT / "setup.py"]
  files += sorted((ROOT / "spiel_ext").rglob("*.py"))
  return files


@pytest.mark.parametrize("path", _user_facing_files(),
                         ids=lambda path: str(path.relative_to(ROOT)))
def test_no_reference_to_internal_files(path):
  hits = [f"{path.name}:{number}: {line.strip()}"
          for number, line in enumerate(path.read_text().splitlines(), 1)
          if _INTERNAL.search(line)]
  assert not hits, "\n".join(hits)
