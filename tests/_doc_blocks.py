"""The python blocks of a markdown file, each to run on its own."""

import re
from pathlib import Path

_BLOCK = re.compile(r"^```python\n(.*?)^```", re.M | re.S)


def python_blocks(path: Path) -> list[tuple[int, str]]:
  """(line number, code) of every ```python block of ``path``."""
  text = path.read_text()
  return [(text[:match.start()].count("\n") + 1, match.group(1))
          for match in _BLOCK.finditer(text)]


def run_block(path: Path, line: int, code: str) -> dict:
  """Runs one block in a fresh namespace; returns the namespace."""
  namespace = {"__name__": f"{path.stem.lower()}_block_line_{line}"}
  exec(compile(code, f"{path.name}:{line}", "exec"), namespace)  # pylint: disable=exec-used
  return namespace
