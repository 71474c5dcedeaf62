"""numba's compiled kernels are cached outside the package.

numba writes a cached function's ``.nbi``/``.nbc`` files beside its source
unless told otherwise; inside an installed package those files outlive
``pip uninstall`` and break a later editable install. Each check runs in a
fresh interpreter, where numba picks its cache locations when the kernels
are defined.
"""

import os
import shutil
import subprocess
import sys
import sysconfig
import textwrap
import time
from pathlib import Path

import numba
import pytest

import spiel_ext

KERNEL_SUFFIXES = (".nbi", ".nbc")
# Where the kernels go in spiel_ext's cache folder: one folder per user.
KERNEL_FOLDER = f"numba-{os.getuid()}"

# Runs one small kernel (the strategy check's) and reports where things are
# (a look-up of numba without an import comes first, as libraries do).
_RUN_A_KERNEL = """
    import importlib.util, json, os
    import numpy as np
    import spiel_ext
    assert importlib.util.find_spec("numba") is not None
    from spiel_ext.engine import strategy
    legal = np.ones((2, 3), dtype=bool)
    row = strategy._first_bad_row(np.full((2, 3), 1 / 3), legal, 1e-9)
    stats = strategy._first_bad_row.stats
    print(json.dumps({"row": int(row),
                      "package": os.path.dirname(spiel_ext.__file__),
                      "cache_path": stats.cache_path,
                      "hits": sum(stats.cache_hits.values()),
                      "misses": sum(stats.cache_misses.values())}))
    """


def _environment(cache_folder, **extra):
  """This interpreter's environment with the given caches, numba's unset."""
  env = {name: value for name, value in os.environ.items()
         if not name.startswith("NUMBA_CACHE")}
  env["SPIEL_EXT_CACHE_DIR"] = str(cache_folder)
  env.update({name: str(value) for name, value in extra.items()})
  return env


def _run(code, env, cwd, python=sys.executable):
  """Runs ``code`` in a fresh interpreter in ``cwd`` (a folder of its own, so
  that the package imported is the installed one); its last stdout line as
  JSON, and its stderr."""
  import json  # pylint: disable=g-import-not-at-top
  result = subprocess.run([str(python), "-c", textwrap.dedent(code)],
                          capture_output=True, text=True, timeout=600,
                          env=env, cwd=cwd, check=False)
  assert result.returncode == 0, result.stderr[-3000:]
  return json.loads(result.stdout.strip().splitlines()[-1]), result.stderr


def _kernel_files(folder, newer_than=None):
  """The numba cache files under ``folder`` (written after ``newer_than``)."""
  found = []
  for path in Path(folder).rglob("*"):
    if path.suffix in KERNEL_SUFFIXES and path.is_file():
      if newer_than is None or path.stat().st_mtime >= newer_than:
        found.append(path)
  return sorted(found)


def test_kernels_are_cached_in_the_package_cache_folder(tmp_path):
  cache_folder = tmp_path / "cache"
  start = time.time() - 1.0
  first, _ = _run(_RUN_A_KERNEL, _environment(cache_folder), tmp_path)
  assert first["row"] == -1
  assert _kernel_files(first["package"], newer_than=start) == []
  kernel_cache = cache_folder / KERNEL_FOLDER
  assert Path(first["cache_path"]).parent == kernel_cache
  names = [path.name for path in _kernel_files(kernel_cache)]
  assert any(name.startswith("strategy._first_bad_row-") and
             name.endswith(".nbi") for name in names), names
  assert first["misses"] == 1
  assert kernel_cache.stat().st_mode & 0o777 == 0o700
  # A second process loads the compiled kernel instead of compiling it.
  second, _ = _run(_RUN_A_KERNEL, _environment(cache_folder), tmp_path)
  assert (second["hits"], second["misses"]) == (1, 0)
  assert _kernel_files(second["package"], newer_than=start) == []


def test_numba_cache_dir_is_respected(tmp_path):
  numba_folder = tmp_path / "numba_cache_dir"
  start = time.time() - 1.0
  report, _ = _run(_RUN_A_KERNEL, _environment(
      tmp_path / "cache", NUMBA_CACHE_DIR=numba_folder), tmp_path)
  assert Path(report["cache_path"]).parent == numba_folder
  assert _kernel_files(numba_folder)
  assert not (tmp_path / "cache" / KERNEL_FOLDER).exists()
  assert _kernel_files(report["package"], newer_than=start) == []


def test_an_unwritable_cache_folder_warns_and_writes_nothing(tmp_path):
  blocker = tmp_path / "a_file"
  blocker.write_text("not a folder")
  start = time.time() - 1.0
  report, stderr = _run(_RUN_A_KERNEL, _environment(blocker / "cache"),
                        tmp_path)
  assert report["row"] == -1
  assert "does not keep its compiled numba kernels" in stderr
  assert str(blocker / "cache" / KERNEL_FOLDER) in stderr
  assert not Path(report["cache_path"]).is_relative_to(report["package"])
  assert _kernel_files(report["package"], newer_than=start) == []


def test_a_kernel_folder_others_can_write_is_not_used(tmp_path):
  """numba runs the code it loads: a folder another user could write into
  (or a link to one) is refused."""
  shared = tmp_path / "cache" / KERNEL_FOLDER
  shared.mkdir(parents=True)
  shared.chmod(0o777)
  report, stderr = _run(_RUN_A_KERNEL, _environment(tmp_path / "cache"),
                        tmp_path)
  assert report["row"] == -1
  assert "writable by other users" in stderr
  assert not Path(report["cache_path"]).is_relative_to(shared)
  assert _kernel_files(shared) == []


def test_turned_off_cache_writes_nothing_and_does_not_warn(tmp_path):
  start = time.time() - 1.0
  report, stderr = _run(_RUN_A_KERNEL, _environment(""), tmp_path)
  assert report["row"] == -1
  assert "numba kernels" not in stderr
  # A temporary folder of the process, removed when it exits.
  assert not Path(report["cache_path"]).exists()
  assert _kernel_files(report["package"], newer_than=start) == []


def test_other_functions_keep_numbas_own_locations(tmp_path):
  # numba imported before spiel_ext; a user's cached function beside it.
  (tmp_path / "user_kernels.py").write_text(textwrap.dedent("""
      import numba

      @numba.njit(cache=True)
      def add_one(x):
        return x + 1
      """))
  user_first = textwrap.dedent("""
      import numba
      import os, sys
      sys.path.insert(0, os.getcwd())
      import user_kernels
      assert user_kernels.add_one(1) == 2
      """)
  report, _ = _run(user_first + textwrap.dedent(_RUN_A_KERNEL),
                   _environment(tmp_path / "cache"), cwd=tmp_path)
  assert report["row"] == -1
  assert Path(report["cache_path"]).parent == (
      tmp_path / "cache" / KERNEL_FOLDER)
  user_files = [path.name for path in _kernel_files(tmp_path / "__pycache__")]
  assert any(name.startswith("user_kernels.add_one-") and name.endswith(".nbi")
             for name in user_files), user_files
  assert not list(
      (tmp_path / "cache" / KERNEL_FOLDER).glob("*/user_kernels.*"))


def test_the_source_stamp_is_numbas():
  """A cached kernel is dropped when its source file changes: the stamp is
  the one numba keeps beside a source file."""
  from numba.core import caching  # pylint: disable=g-import-not-at-top
  from spiel_ext import numba_cache  # pylint: disable=g-import-not-at-top
  from spiel_ext.engine import strategy  # pylint: disable=g-import-not-at-top
  function = strategy._first_bad_row.py_func  # pylint: disable=protected-access
  source = strategy.__file__
  ours = numba_cache.locator_class()(function, source, "unused")
  numbas = caching._CacheLocator  # pylint: disable=protected-access
  in_tree = next(cls for cls in vars(caching).values()
                 if isinstance(cls, type) and issubclass(cls, numbas) and
                 cls.__name__.lstrip("_") == "InTreeCacheLocator")
  assert ours.get_source_stamp() == in_tree(function, source).get_source_stamp()
  assert (ours.get_disambiguator() ==
          in_tree(function, source).get_disambiguator())
  assert numba_cache.defined_in_package(source)
  assert not numba_cache.defined_in_package(numba.__file__)


def _dependencies_folder(folder: Path) -> Path:
  """A folder of links to this environment's installed packages, without
  spiel_ext: a new virtual environment then needs nothing downloaded."""
  folder.mkdir()
  site_packages = {sysconfig.get_paths()["purelib"],
                   sysconfig.get_paths()["platlib"]}
  for directory in site_packages:
    for entry in Path(directory).iterdir():
      name = entry.name.lower()
      if (name.startswith(("spiel_ext", "__editable__", "spiel-ext")) or
          name.endswith(".pth") or (folder / entry.name).exists()):
        continue
      (folder / entry.name).symlink_to(entry)
  return folder


def _copy_of_the_source(destination: Path) -> Path:
  """The package's source tree (what ``pip wheel`` and ``pip install -e``
  read), copied so that building writes nothing into the checkout."""
  root = Path(spiel_ext.__file__).resolve().parents[1]
  destination.mkdir()
  for name in ("pyproject.toml", "setup.py", "README.md", "LICENSE"):
    if (root / name).exists():
      shutil.copy2(root / name, destination / name)
  shutil.copytree(root / "spiel_ext", destination / "spiel_ext",
                  ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
  return destination


@pytest.mark.slow
def test_reinstalling_over_a_used_wheel_leaves_nothing_behind(tmp_path):
  """Wheel installed and run, uninstalled, then the source installed
  editable in the same environment: the import works."""
  source = _copy_of_the_source(tmp_path / "source")
  pip_env = dict(_environment(tmp_path / "cache"),
                 PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_INDEX="1")
  pip_env.pop("PYTHONPATH", None)
  subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps",
                  "--no-build-isolation", "-q", "-w", str(tmp_path / "dist"),
                  str(source)], check=True, env=pip_env, cwd=tmp_path,
                 capture_output=True, timeout=300)
  wheel, = (tmp_path / "dist").glob("spiel_ext-*.whl")

  subprocess.run([sys.executable, "-m", "venv", "--without-pip",
                  str(tmp_path / "venv")], check=True, timeout=120)
  python = tmp_path / "venv" / "bin" / "python"
  venv_site = Path(subprocess.run(
      [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()"
       "['purelib'])"], check=True, capture_output=True, text=True,
      env=pip_env).stdout.strip())
  dependencies = _dependencies_folder(tmp_path / "dependencies")
  (venv_site / "dependencies.pth").write_text(f"{dependencies}\n")

  def pip(*arguments):
    result = subprocess.run([str(python), "-m", "pip", *arguments],
                            capture_output=True, text=True, env=pip_env,
                            cwd=tmp_path, timeout=300, check=False)
    assert result.returncode == 0, result.stderr[-3000:]

  pip("install", "--no-deps", "-q", str(wheel))
  report, _ = _run("""
      import json, os
      import pyspiel
      import spiel_ext
      from spiel_ext.algorithms import cfr
      solver = cfr.CFRSolver(pyspiel.load_game("kuhn_poker"))
      solver.evaluate_and_update_policy()
      print(json.dumps({"package": os.path.dirname(spiel_ext.__file__)}))
      """, pip_env, tmp_path, python=python)
  installed = Path(report["package"])
  assert installed.parent == venv_site
  written_inside = _kernel_files(installed)

  pip("uninstall", "-y", "-q", "spiel_ext")
  left_behind = sorted(str(path.relative_to(installed))
                       for path in installed.rglob("*") if path.is_file())
  pip("install", "--no-deps", "--no-build-isolation", "-q", "-e", str(source))
  imported = subprocess.run(
      [str(python), "-c", "import spiel_ext; "
       "from spiel_ext.engine import GameTree; print(spiel_ext.__file__)"],
      capture_output=True, text=True, env=pip_env, cwd=tmp_path, timeout=300,
      check=False)
  assert imported.returncode == 0, imported.stderr[-2000:]
  assert imported.stdout.strip() == str(source / "spiel_ext" / "__init__.py")
  assert left_behind == []
  assert written_inside == []
  assert _kernel_files(tmp_path / "cache" / KERNEL_FOLDER)
