"""Tables from DataFrames: GitHub markdown and LaTeX (booktabs), no extra
dependencies."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from spiel_ext.files import atomic_write
from spiel_ext.results.report import markdown_cell


def _cell(value, float_format: str) -> str:
  if isinstance(value, float):
    return format(value, float_format)
  return str(value)


def _markdown_cell(value, float_format: str = ".4g") -> str:
  return markdown_cell(_cell(value, float_format))


def to_markdown(frame: pd.DataFrame, float_format: str = ".4g",
                index: bool = False) -> str:
  """A GitHub-flavoured markdown table."""
  if index:
    frame = frame.reset_index()
  header = [markdown_cell(column) for column in frame.columns]
  lines = ["| " + " | ".join(header) + " |",
           "|" + "|".join("---" for _ in header) + "|"]
  for row in frame.itertuples(index=False):
    lines.append("| " + " | ".join(_markdown_cell(v, float_format)
                                   for v in row) + " |")
  return "\n".join(lines) + "\n"


_LATEX_SPECIAL = {"&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
                  "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
                  "^": r"\textasciicircum{}", "\\": r"\textbackslash{}"}


def _latex_escape(text: str) -> str:
  return "".join(_LATEX_SPECIAL.get(char, char) for char in text)


def to_latex(frame: pd.DataFrame, float_format: str = ".4g",
             caption: str | None = None, index: bool = False) -> str:
  """A booktabs LaTeX tabular (in a table environment if ``caption``)."""
  if index:
    frame = frame.reset_index()
  columns = "l" * len(frame.columns)
  body = [r"\begin{tabular}{" + columns + "}", r"\toprule",
          " & ".join(_latex_escape(str(c)) for c in frame.columns) + r" \\",
          r"\midrule"]
  for row in frame.itertuples(index=False):
    body.append(" & ".join(_latex_escape(_cell(v, float_format)) for v in row)
                + r" \\")
  body += [r"\bottomrule", r"\end{tabular}"]
  if caption:
    body = ([r"\begin{table}[t]", r"\centering",
             r"\caption{" + _latex_escape(caption) + "}"] + body +
            [r"\end{table}"])
  return "\n".join(body) + "\n"


def write_table(frame: pd.DataFrame, path: str | Path, *,
                float_format: str = ".4g", caption: str | None = None,
                index: bool = False) -> list[Path]:
  """Writes ``path``.md and ``path``.tex; returns both paths."""
  path = Path(path)
  markdown = path.with_suffix(".md")
  latex = path.with_suffix(".tex")
  heading = f"**{caption}**\n\n" if caption else ""
  atomic_write(markdown, heading + to_markdown(frame, float_format, index))
  atomic_write(latex, to_latex(frame, float_format, caption, index))
  return [markdown, latex]
