"""The package ships its type hints (PEP 561) and its public surface passes
mypy with the project's configuration (``[tool.mypy]`` in pyproject.toml:
disallow_untyped_defs and check_untyped_defs on the solvers, the
evaluators and the policies)."""

import importlib.util
import pathlib
import subprocess
import sys
import tomllib

import pytest

_ROOT = pathlib.Path(__file__).resolve().parent.parent
_PACKAGES = ("spiel_ext.algorithms", "spiel_ext.exploitability",
             "spiel_ext.eval", "spiel_ext.policy")


def _pyproject() -> dict:
  with open(_ROOT / "pyproject.toml", "rb") as file:
    return tomllib.load(file)


def test_py_typed_marker_is_package_data():
  assert (_ROOT / "spiel_ext" / "py.typed").is_file()
  package_data = _pyproject()["tool"]["setuptools"]["package-data"]
  assert "py.typed" in package_data["spiel_ext"]


def test_the_typed_packages_are_strict():
  overrides = _pyproject()["tool"]["mypy"]["overrides"]
  strict = [override for override in overrides
            if override.get("disallow_untyped_defs")]
  assert len(strict) == 1 and strict[0]["check_untyped_defs"]
  modules = strict[0]["module"]
  for package in _PACKAGES:
    assert package in modules or f"{package}.*" in modules


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("mypy") is None,
                    reason="mypy is in the test extra")
def test_mypy_passes_on_the_public_surface(tmp_path):
  command = [sys.executable, "-m", "mypy", "--cache-dir",
             str(tmp_path / "mypy_cache")]
  for package in _PACKAGES:
    command += ["-p", package]
  result = subprocess.run(command, cwd=_ROOT, capture_output=True, text=True,
                          timeout=900, check=False)
  assert result.returncode == 0, result.stdout[-4000:] + result.stderr
