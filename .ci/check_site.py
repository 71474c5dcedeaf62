"""Checks a built documentation site for what a reader should never see.

Usage: python .ci/check_site.py <site_dir>

Fails (exit 1, one line per offender) on:
- Python's built-in docstrings in the API reference ("int([x]) -> integer",
  "Initialize self.", ...), the sign that imported objects were inspected;
- literal Sphinx roles (:func:`x`, :class:`x`, :mod:`x`, :meth:`x`,
  :attr:`x`, :data:`x`) in the rendered text;
- any HTML page over 300 KB;
- in the reproduction report pages: an absolute path of the machine that
  produced them (/work/, /root/, /home/, /tmp/) or the word "uncommitted".
"""

from __future__ import annotations

import html
import pathlib
import re
import sys

MAX_PAGE_BYTES = 300 * 1024

BUILTIN_DOCSTRINGS = (
    "int([x]) -> integer",
    "str(object='') -> str",
    "Built-in immutable sequence",
    "bool(x) -> bool",
    "Initialize self.",
    "float(x=0, /)",
    "dict() -> new empty dictionary",
    "Create and return a new object.",
    "Return repr(self).",
    "Alias for field number",
)

ROLE = re.compile(r":(?:py:)?(?:func|class|mod|meth|attr|data|obj|exc):`")
MACHINE_PATH = re.compile(r"(?<![\w.])/(?:work|root|home|tmp)/")
UNCOMMITTED = re.compile(r"\buncommitted\b", re.IGNORECASE)


def visible_text(page: str) -> str:
  """The page's text as a reader sees it: no scripts, styles or tags, and
  HTML entities decoded."""
  page = re.sub(r"<(script|style)\b.*?</\1>", " ", page,
                flags=re.DOTALL | re.IGNORECASE)
  page = re.sub(r"<[^>]+>", "", page)
  return html.unescape(page)


def is_report_page(relative: pathlib.PurePosixPath) -> bool:
  """Whether a built page is one of the reproduction report's pages."""
  first = relative.parts[0] if relative.parts else ""
  return first.startswith("reproduction") or first == "findings"


def check_site(site_dir: pathlib.Path) -> list[str]:
  """Every offence in the built site, one line each (empty if clean)."""
  if not site_dir.is_dir():
    raise NotADirectoryError(
        f"site_dir must be a built site's directory, got {site_dir}")
  problems = []
  for path in sorted(site_dir.rglob("*.html")):
    relative = pathlib.PurePosixPath(path.relative_to(site_dir).as_posix())
    size = path.stat().st_size
    if size > MAX_PAGE_BYTES:
      problems.append(f"{relative}: {size / 1024:.0f} KB, over "
                      f"{MAX_PAGE_BYTES // 1024} KB")
    raw = path.read_text(encoding="utf-8", errors="replace")
    text = visible_text(raw)
    for phrase in BUILTIN_DOCSTRINGS:
      count = text.count(phrase)
      if count:
        problems.append(f"{relative}: built-in docstring {phrase!r} "
                        f"{count} times")
    roles = ROLE.findall(text)
    if roles:
      first = ROLE.search(text)
      assert first is not None
      snippet = text[first.start():first.start() + 60].split("\n")[0]
      problems.append(f"{relative}: {len(roles)} literal Sphinx roles, "
                      f"first {snippet!r}")
    if is_report_page(relative):
      for pattern, what in ((MACHINE_PATH, "machine path"),
                            (UNCOMMITTED, "'uncommitted'")):
        hits = list(pattern.finditer(text))
        if hits:
          start = hits[0].start()
          snippet = text[max(0, start - 20):start + 50].replace("\n", " ")
          problems.append(f"{relative}: {what} {len(hits)} times, first "
                          f"{snippet.strip()!r}")
  return problems


def main(argv: list[str]) -> int:
  if len(argv) != 2:
    print("usage: python .ci/check_site.py <site_dir>", file=sys.stderr)
    return 2
  problems = check_site(pathlib.Path(argv[1]))
  for problem in problems:
    print(problem)
  if problems:
    print(f"check_site: {len(problems)} problems in {argv[1]}",
          file=sys.stderr)
    return 1
  print(f"check_site: {argv[1]} is clean")
  return 0


if __name__ == "__main__":
  sys.exit(main(sys.argv))
