"""Names a package imports from their module on first use (PEP 562).

A package keeps its import light by listing the heavy names with the module
that defines each, and handing the two functions this returns to its
module-level ``__getattr__`` and ``__dir__``.
"""

import importlib
from typing import Any, Callable, Mapping


def lazy_attributes(
    package: str, namespace: dict[str, Any], lazy: Mapping[str, str]
) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
  """(``__getattr__``, ``__dir__``) for ``package``.

  Args:
    package: the package's ``__name__``, for the error message.
    namespace: the package's ``globals()``; a name is cached there once
      imported, so later lookups skip ``__getattr__``.
    lazy: name -> the module that defines it.

  Returns:
    The package's ``__getattr__`` (raises AttributeError for a name not in
    ``lazy``) and ``__dir__`` (its globals and the lazy names).
  """

  def getattr_(name: str) -> object:
    module = lazy.get(name)
    if module is None:
      raise AttributeError(f"module {package!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    namespace[name] = value
    return value

  def dir_() -> list[str]:
    return sorted(set(namespace) | set(lazy))

  return getattr_, dir_
