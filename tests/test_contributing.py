"""CONTRIBUTING.md is executable: every python block runs on its own.

Its examples assert against independent references (OpenSpiel's own
evaluator, closed-form game values), so a block that runs is also a block
whose numbers are right.
"""

from pathlib import Path

import pytest

from _doc_blocks import python_blocks, run_block

CONTRIBUTING = Path(__file__).resolve().parent.parent / "CONTRIBUTING.md"


def test_contributing_has_the_three_how_tos():
  text = CONTRIBUTING.read_text()
  for heading in ("## Add an algorithm", "## Add a game",
                  "## Add an experiment"):
    assert heading in text
  assert len(python_blocks(CONTRIBUTING)) >= 3


@pytest.mark.parametrize("line,code", python_blocks(CONTRIBUTING),
                         ids=lambda value: f"line{value}"
                         if isinstance(value, int) else "")
def test_contributing_block_runs_on_its_own(line, code):
  run_block(CONTRIBUTING, line, code)
