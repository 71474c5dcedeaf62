"""The API reference documents every argument and every return value.

The reference is generated from Google-style docstrings. In the solvers,
the evaluators, the games and the policies, every public function and method
whose parameters go beyond ``self``/``cls`` has an ``Args:`` section naming
each of them, every one that returns a value has ``Returns:`` (or
``Yields:``), every public class names its constructor's parameters
(``Args:``, or ``Attributes:`` for a dataclass or named tuple) and every
public property has a docstring. Dunder methods are not checked.
"""

import ast
import dataclasses
import importlib
import inspect
import pkgutil
import re
import textwrap

import pytest

_PACKAGES = ("spiel_ext.algorithms", "spiel_ext.eval", "spiel_ext.games",
             "spiel_ext.policy")
_MODULES = ("spiel_ext.exploitability",)

# Modules whose sections are still being written (none at present): list
# a module here, with the reason, rather than weaken the check.
_EXCLUDED: frozenset[str] = frozenset()

_HEADER = re.compile(r"^(\s*)([A-Z][A-Za-z ]*):\s*$")
# "name: text", "name (type): text", "*args: text" or "a, b, c: text".
_ENTRY = re.compile(r"^([*\w][\w*, ]*?)\s*(?:\([^)]*\))?:(?:\s|$)")
_NONE = (None, "None", type(None), "NoReturn", "typing.NoReturn")


def _module_names() -> list[str]:
  names = list(_MODULES)
  for package_name in _PACKAGES:
    package = importlib.import_module(package_name)
    names.append(package_name)
    names += [module.name for module in
              pkgutil.walk_packages(package.__path__, package_name + ".")]
  return sorted(name for name in names
                if not any(part.startswith("_") for part in name.split("."))
                and name not in _EXCLUDED)


def sections(docstring: str | None) -> dict[str, list[str]]:
  """{section title: the names its entries document} of a docstring."""
  lines = inspect.cleandoc(docstring or "").splitlines()
  found: dict[str, list[str]] = {}
  index = 0
  while index < len(lines):
    header = _HEADER.match(lines[index])
    index += 1
    if not header:
      continue
    indent = len(header.group(1))
    body = []
    while index < len(lines) and (
        not lines[index].strip() or
        len(lines[index]) - len(lines[index].lstrip()) > indent):
      body.append(lines[index])
      index += 1
    depths = [len(line) - len(line.lstrip()) for line in body if line.strip()]
    names = found.setdefault(header.group(2), [])
    for line in body:
      entry = _ENTRY.match(line.strip())
      if (entry and line.strip() and
          len(line) - len(line.lstrip()) == min(depths)):
        names += [name.strip().lstrip("*")
                  for name in entry.group(1).split(",")]
  return found


def _parameters(function, skip_first: bool) -> list[str]:
  names = list(inspect.signature(function).parameters)
  return names[1:] if skip_first else names


def _returns_value(function) -> bool:
  """Whether ``function`` returns a value: its return annotation, or where
  it has none a ``return <value>`` or ``yield`` in its own body."""
  annotation = inspect.signature(function).return_annotation
  if annotation is not inspect.Signature.empty:
    return annotation not in _NONE
  try:
    source = textwrap.dedent(inspect.getsource(function))
  except (OSError, TypeError):
    return False
  nodes = list(ast.parse(source).body[0].body)
  while nodes:
    node = nodes.pop()
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda,
                         ast.ClassDef)):
      continue  # Another function's returns.
    if isinstance(node, (ast.Yield, ast.YieldFrom)) or (
        isinstance(node, ast.Return) and node.value is not None and
        not (isinstance(node.value, ast.Constant) and
             node.value.value is None)):
      return True
    nodes.extend(ast.iter_child_nodes(node))
  return False


def _function_problems(where: str, function, skip_first: bool) -> list[str]:
  if not function.__doc__:
    return [f"{where}: no docstring"]
  found = sections(function.__doc__)
  problems = []
  missing = [name for name in _parameters(function, skip_first)
             if name not in found.get("Args", [])]
  if missing:
    problems.append(f"{where}: Args: does not name {missing}")
  if _returns_value(function) and not {"Returns", "Yields"} & set(found):
    problems.append(f"{where}: no Returns:")
  return problems


def _constructor(cls) -> tuple[list[str], object]:
  """(the constructor's parameters, the class's own ``__init__`` or None).

  A constructor inherited from outside spiel_ext (object, Exception, an
  OpenSpiel class, a Protocol) is not checked here (this module's own
  classes are, for the check's test).
  """
  if dataclasses.is_dataclass(cls):
    return [field.name for field in dataclasses.fields(cls) if field.init], None
  if issubclass(cls, tuple) and hasattr(cls, "_fields"):
    return list(cls._fields), None
  for base in cls.__mro__:
    if "__init__" in vars(base):
      init = vars(base)["__init__"]
      if not getattr(init, "__module__", "").startswith(("spiel_ext",
                                                         __name__)):
        return [], None
      return _parameters(init, True), init if base is cls else None
  return [], None


def _class_problems(where: str, cls) -> list[str]:
  problems = [] if cls.__doc__ else [f"{where}: no docstring"]
  names, own_init = _constructor(cls)
  if names:
    documented = (own_init.__doc__ if own_init is not None and
                  own_init.__doc__ else cls.__doc__)
    found = sections(documented)
    missing = [name for name in names if name not in
               found.get("Args", []) + found.get("Attributes", [])]
    if missing:
      problems.append(f"{where}: Args:/Attributes: does not name {missing}")
  for name, member in vars(cls).items():
    if name.startswith("_"):
      continue
    if isinstance(member, property):
      if not member.__doc__:  # The getter's, or property(doc=...).
        problems.append(f"{where}.{name}: property without a docstring")
      continue
    function = getattr(member, "__func__", member)
    if inspect.isfunction(function):
      problems += _function_problems(f"{where}.{name}", function,
                                     not isinstance(member, staticmethod))
    elif (inspect.isclass(member) and
          member.__qualname__ == f"{cls.__qualname__}.{name}"):
      problems += _class_problems(f"{where}.{name}", member)
  return problems


def _module_problems(module_name: str) -> list[str]:
  module = importlib.import_module(module_name)
  problems = []
  for name, member in vars(module).items():
    if name.startswith("_") or getattr(member, "__module__",
                                       None) != module_name:
      continue
    function = getattr(member, "py_func", member)  # A numba kernel's own.
    if inspect.isfunction(function):
      problems += _function_problems(f"{module_name}.{name}", function, False)
    elif inspect.isclass(member):
      problems += _class_problems(f"{module_name}.{name}", member)
  return problems


@pytest.mark.parametrize("module_name", _module_names())
def test_arguments_and_returns_are_documented(module_name):
  problems = _module_problems(module_name)
  assert not problems, "\n".join(problems)


def test_the_engines_exports_are_documented():
  """The engine's public names (``spiel_ext.engine.__all__``), with every
  spiel_ext class their classes inherit from (a GameTree's passes are
  PassMethods', its arrays TreeLayout's)."""
  engine = importlib.import_module("spiel_ext.engine")
  problems, classes = [], []
  for name in engine.__all__:
    member = getattr(engine, name)
    function = getattr(member, "py_func", member)
    if inspect.isfunction(function):
      problems += _function_problems(f"spiel_ext.engine.{name}", function,
                                     False)
    elif inspect.isclass(member):
      classes += [base for base in member.__mro__
                  if base.__module__.startswith("spiel_ext") and
                  base not in classes]
  assert len(classes) >= 4  # GameTree, GameView, PassMethods, TreeLayout...
  for cls in classes:
    problems += _class_problems(f"{cls.__module__}.{cls.__qualname__}", cls)
  assert not problems, "\n".join(problems)


def test_the_walk_covers_the_modules():
  names = _module_names()
  for name in ("spiel_ext.exploitability", "spiel_ext.eval.metrics",
               "spiel_ext.games.leduc", "spiel_ext.games.unknown_env.game",
               "spiel_ext.policy.conversion", "spiel_ext.algorithms.cfr"):
    assert name in names, name
  assert not [name for name in names if ".engine" in name]


def test_the_check_finds_what_is_missing():
  """The check is not vacuous: it reads sections as Google style writes them
  and reports an undocumented parameter, return value and property."""
  found = sections('''Summary.

  Args:
    alpha, beta: grouped.
    gamma (int): typed, with a
      second line: not an entry.
    *args: positional.

  Returns:
    Something.
  ''')
  assert found == {"Args": ["alpha", "beta", "gamma", "args"],
                   "Returns": []}

  def documented(first: int, *rest: int) -> int:
    """Summary.

    Args:
      first: one.
      *rest: the others.

    Returns:
      Their sum.
    """
    return first + sum(rest)

  def undocumented(first, second):
    """Summary.

    Args:
      first: one.
    """
    return first + second

  class Example:
    """Summary.

    Args:
      size: the size.
    """

    def __init__(self, size: int):
      self._size = size

    @property
    def size(self) -> int:
      return self._size

  assert not _function_problems("documented", documented, False)
  assert _function_problems("undocumented", undocumented, False) == [
      "undocumented: Args: does not name ['second']",
      "undocumented: no Returns:"]
  assert _class_problems("Example", Example) == [
      "Example.size: property without a docstring"]
  Example.__doc__ = "Summary."
  assert _class_problems("Example", Example) == [
      "Example: Args:/Attributes: does not name ['size']",
      "Example.size: property without a docstring"]
