"""A griffe extension for the API reference: runtime docstrings where the
source has none, and Sphinx markup turned into what mkdocstrings renders.

The reference is built by static analysis (the source, not the imported
modules), so it shows only the names a module defines and none of Python's
built-in docstrings. Some docstrings are built when the module is imported
(the CFR solvers share their Args text): for a class or function whose
source gives no docstring, this extension reads ``__doc__`` of the imported
object, if the object defines one itself.

Every docstring of the package then has its Sphinx roles (``:func:`x```,
``:class:`~a.b.C```, ``:mod:``, ``:meth:``, ``:attr:``, ``:data:``, ...)
rewritten into autorefs cross-references ``[`text`][full.path]`` when the
target is shown in the reference, and into plain code otherwise; a reST
literal block (a paragraph ending in ``::`` and an indented block) becomes a
fenced Python block.
"""

from __future__ import annotations

import importlib
import pathlib
import re
import types
from typing import Any

import griffe

_ROLE = re.compile(
    r":(?:py:)?(func|class|mod|meth|attr|data|obj|exc|const|type)"
    r":`([^`]+)`")
_DIRECTIVE = re.compile(r"^::: *([\w.]+)\s*$")


def reference_modules(reference_dir: str) -> dict[str, bool]:
  """The modules the reference pages render, each with whether its members
  are shown (``members: false`` hides them)."""
  modules: dict[str, bool] = {}
  for page in sorted(pathlib.Path(reference_dir).glob("*.md")):
    current = None
    for line in page.read_text(encoding="utf-8").splitlines():
      match = _DIRECTIVE.match(line)
      if match:
        current = match.group(1)
        modules[current] = True
      elif current and re.match(r"^\s+members:\s*false\s*$", line):
        modules[current] = False
      elif line.strip() and not line.startswith(" "):
        current = None
  return modules


def _runtime_doc(obj: griffe.Object) -> str | None:
  """The ``__doc__`` the imported object defines itself, or None."""
  parts = []
  node = obj
  while not isinstance(node, griffe.Module):
    parts.append(node.name)
    node = node.parent
  try:
    value: Any = importlib.import_module(node.path)
  except Exception:  # pylint: disable=broad-except
    return None
  for name in reversed(parts):
    namespace = getattr(value, "__dict__", {})
    if name not in namespace:
      return None
    value = namespace[name]
  if isinstance(value, (staticmethod, classmethod)):
    value = value.__func__
  if isinstance(value, property):
    value = value.fget
  if isinstance(value, type):
    doc = value.__dict__.get("__doc__")
    # dataclasses write "Name(field, ...)" when the source has no docstring.
    if doc and doc.startswith(value.__name__ + "("):
      return None
    return doc
  if isinstance(value, types.FunctionType):
    return value.__doc__
  return None


def _literal_blocks(text: str) -> str:
  """reST literal blocks (``text::`` then an indented block) as fenced
  Python blocks; ``Example::`` becomes a Google ``Example:`` section."""
  lines = text.split("\n")
  out: list[str] = []
  i = 0
  while i < len(lines):
    line = lines[i]
    stripped = line.strip()
    if not stripped.endswith("::") or stripped.startswith((">>>", "```")):
      out.append(line)
      i += 1
      continue
    indent = len(line) - len(line.lstrip())
    j = i + 1
    while j < len(lines) and not lines[j].strip():
      j += 1
    if j == len(lines) or (len(lines[j]) - len(lines[j].lstrip())) <= indent:
      out.append(line)
      i += 1
      continue
    block_indent = len(lines[j]) - len(lines[j].lstrip())
    end = j
    last = j
    while end < len(lines) and (
        not lines[end].strip()
        or len(lines[end]) - len(lines[end].lstrip()) >= block_indent):
      if lines[end].strip():
        last = end
      end += 1
    head = stripped[:-2].rstrip()
    section = re.fullmatch(r"[A-Z]\w*", head) is not None
    if head:
      out.append(" " * indent + head + ":")
    fence_indent = block_indent if section else indent
    out.append("")
    out.append(" " * fence_indent + "```python")
    for code in lines[j:last + 1]:
      out.append(" " * fence_indent + code[block_indent:] if code.strip()
                 else "")
    out.append(" " * fence_indent + "```")
    i = last + 1
  return "\n".join(out)


class SpielDocs(griffe.Extension):
  """Fills runtime docstrings and renders Sphinx markup (see the module)."""

  def __init__(self, reference_dir: str | None = None) -> None:
    super().__init__()
    self.reference_dir = reference_dir or str(
        pathlib.Path(__file__).resolve().parents[1] / "reference")
    # (object path, role target) of the roles rendered as plain code.
    self.unresolved: list[tuple[str, str]] = []
    # Path of each name a module or class imports -> the imported object.
    self.imports: dict[str, str] = {}

  def on_package(self, *, pkg: griffe.Module, loader: griffe.GriffeLoader,
                 **kwargs: Any) -> None:
    if pkg.name != "spiel_ext":
      return
    objects: list[griffe.Object] = []
    self._walk(pkg, objects)
    for obj in objects:
      if obj.docstring is None and obj.kind in (griffe.Kind.CLASS,
                                                griffe.Kind.FUNCTION):
        doc = _runtime_doc(obj)
        if doc and doc.strip():
          obj.docstring = griffe.Docstring(
              _dedent(doc), parent=obj, parser=loader.docstring_parser,
              parser_options=loader.docstring_options)
    shown = self._shown(pkg, objects)
    for obj in objects:
      if obj.docstring is not None:
        obj.docstring.value = self._render(obj, obj.docstring.value, shown)

  def _walk(self, obj: griffe.Object, found: list[griffe.Object]) -> None:
    found.append(obj)
    for member in obj.members.values():
      if member.is_alias:
        continue
      self._walk(member, found)  # type: ignore[arg-type]

  def _shown(self, pkg: griffe.Module,
             objects: list[griffe.Object]) -> dict[str, str]:
    """Every path a reference can name, mapped to the path of the object the
    reference shows (an alias maps to the object it imports)."""
    modules = reference_modules(self.reference_dir)
    shown: dict[str, str] = {}
    for obj in objects:
      module = obj.module.path
      if module not in modules:
        continue
      if obj.is_module:
        shown[obj.path] = obj.path
        continue
      if not modules[module]:
        continue
      node: Any = obj
      visible = True
      while not node.is_module:
        if node.name.startswith("_") or node.docstring is None:
          visible = False
          break
        node = node.parent
      if visible:
        shown[obj.path] = obj.path
    self.imports = {}
    for obj in objects:
      for name, member in obj.members.items():
        if member.is_alias:
          try:
            target = member.final_target.path
          except Exception:  # pylint: disable=broad-except
            continue
          self.imports[f"{obj.path}.{name}"] = target
    return shown

  def _through_imports(self, path: str) -> str:
    """The path with its longest imported prefix replaced by the path of
    the object imported (``m.GameTree.beliefs`` where ``m`` imports
    ``GameTree``)."""
    parts = path.split(".")
    for end in range(len(parts), 0, -1):
      prefix = ".".join(parts[:end])
      if prefix in self.imports:
        return ".".join([self.imports[prefix]] + parts[end:])
    return path

  def _render(self, obj: griffe.Object, text: str,
              shown: dict[str, str]) -> str:
    scopes = []
    node: Any = obj
    while node is not None:
      scopes.append(node.path)
      node = node.parent
    def role(match: re.Match[str]) -> str:
      kind, target = match.group(1), match.group(2).strip()
      explicit = re.fullmatch(r"(.*?)\s*<([^>]+)>", target)
      if explicit:
        label, name = explicit.group(1), explicit.group(2)
      else:
        name = target.lstrip("!")
        label = None
      short = name.startswith("~")
      name = re.sub(r"\s+", "", name).lstrip("~.")
      if label is None:
        label = name.rsplit(".", 1)[-1] if short else name
        if kind in ("func", "meth") and not label.endswith(")"):
          label += "()"
      resolved = None
      for candidate in [name] + [f"{scope}.{name}" for scope in scopes]:
        candidate = self._through_imports(candidate)
        if candidate in shown:
          resolved = shown[candidate]
          break
      if resolved is None:
        self.unresolved.append((obj.path, match.group(2)))
        return f"`{label}`"
      return f"[`{label}`][{resolved}]"
    return _ROLE.sub(role, _literal_blocks(text))


def _dedent(doc: str) -> str:
  """``inspect.cleandoc`` without the import."""
  import inspect  # pylint: disable=import-outside-toplevel
  return inspect.cleandoc(doc)
