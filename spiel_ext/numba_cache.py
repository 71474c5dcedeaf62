"""Where numba keeps spiel_ext's compiled kernels: outside the package.

numba's ``cache=True`` writes a function's compiled code (``.nbi`` and
``.nbc`` files) beside its source, in ``__pycache__``. For an installed
package that is site-packages: files no installer recorded, so
``pip uninstall`` leaves them behind, and the folders left over make a later
install from a checkout (``pip install -e .``) import ``spiel_ext.engine`` as
an empty namespace package. This module gives numba a cache locator for the
functions defined in spiel_ext's own files, which keeps their compiled code

- in ``$NUMBA_CACHE_DIR`` when it is set (numba's own layout under it);
- else in ``numba-<user id>/`` inside spiel_ext's cache folder
  (:func:`spiel_ext.engine.cache.cache_dir`: ``$SPIEL_EXT_CACHE_DIR``, by
  default ``~/.cache/spiel_ext``), beside the compiled game trees. numba
  loads and runs what it finds there, so that folder is used only if it is
  a real folder (not a link), the user's own and writable by no one else
  (it is made so: mode 0700); a cache folder shared by a group then holds
  one such folder per user;
- when that folder is turned off (``SPIEL_EXT_CACHE_DIR=""``), cannot be
  written or is not private (a warning names it and why), in a temporary
  folder of the process that is deleted at exit: the kernels then compile
  anew in every process.

Nothing is written inside the package. Functions in other files, a user's
own ``numba.njit(cache=True)`` among them, keep numba's usual locations. A
cached kernel is used only while its source file is unchanged: the locator
keeps numba's stamp of the source file (its hash, or its time and size in
older numba), so an edited module compiles afresh.

numba picks a function's locator when the function is defined, so the
locator must be in place before the first kernel: ``import spiel_ext`` calls
:func:`install_when_numba_loads`, which installs it as soon as numba has been
imported (at once if it already was), and ``import spiel_ext`` still imports
no numba itself. ``NUMBA_CACHE_LOCATOR_CLASSES``, numba's override of its
whole list of locators, wins over this.
"""

from __future__ import annotations

import atexit
import importlib.abc
import importlib.util
import os
import shutil
import stat
import sys
import tempfile
import threading
import warnings
from pathlib import Path

# The package's own folder: the functions defined in files under it are the
# ones this locator places.
PACKAGE_FOLDER = os.path.dirname(os.path.abspath(__file__))
# The subfolder of spiel_ext's cache folder that holds one user's numba
# files: compiled code is loaded and run, so each user keeps their own.
KERNEL_SUBFOLDER = (f"numba-{os.getuid()}" if hasattr(os, "getuid")
                    else "numba")

_locator_class = None
_private_folder: str | None = None
_warned_roots: set[str] = set()
# Kernels may be defined by modules imported on several threads at once.
_lock = threading.Lock()


def defined_in_package(py_file: str) -> bool:
  """Whether a function defined in ``py_file`` is one of spiel_ext's."""
  try:
    path = os.path.realpath(py_file)
    root = os.path.realpath(PACKAGE_FOLDER)
  except (OSError, ValueError):
    return False
  return path.startswith(root + os.sep)


def kernel_cache_root() -> tuple[Path | None, str]:
  """The folder spiel_ext's kernels are cached under, and what chose it.

  Returns:
    ``($NUMBA_CACHE_DIR, "NUMBA_CACHE_DIR")`` when numba was given a cache
    folder, else ``(<spiel_ext's cache folder>/numba-<user id>,
    "SPIEL_EXT_CACHE_DIR")``, or ``(None, "SPIEL_EXT_CACHE_DIR")`` when
    spiel_ext's disk cache is turned off.
  """
  from numba.core import config  # pylint: disable=g-import-not-at-top
  if config.CACHE_DIR:
    return Path(config.CACHE_DIR), "NUMBA_CACHE_DIR"
  # The folder is the tree cache's, read when a kernel is defined (the
  # engine's package is loaded by then).
  from spiel_ext.engine import cache  # pylint: disable=g-import-not-at-top
  folder = cache.cache_dir()
  return (None if folder is None else folder / KERNEL_SUBFOLDER,
          cache.CACHE_ENV_VAR)


def _unusable(folder: Path, own: bool) -> str | None:
  """None when ``folder`` (made if missing) takes files; else why not.

  An ``own`` folder must moreover be a real folder (not a link), the user's,
  and writable by no one else: its files are compiled code that will run.
  """
  try:
    os.makedirs(folder, mode=0o700 if own else 0o777, exist_ok=True)
    if own and hasattr(os, "getuid"):
      info = os.lstat(folder)
      if not stat.S_ISDIR(info.st_mode):
        return "not a folder (a link or a file)"
      if info.st_uid != os.getuid():
        return f"owned by user id {info.st_uid}, not this user"
      if info.st_mode & 0o022:
        return (f"writable by other users (mode "
                f"{stat.S_IMODE(info.st_mode):o})")
    tempfile.TemporaryFile(dir=folder).close()
  except OSError as error:
    return error.strerror or str(error)
  return None


def _process_folder() -> str:
  """A temporary folder for this process's compiled kernels, deleted at exit.

  Raises:
    OSError: no temporary folder can be made.
  """
  global _private_folder
  with _lock:
    if _private_folder is None:
      _private_folder = tempfile.mkdtemp(prefix="spiel_ext-numba-")
      atexit.register(shutil.rmtree, _private_folder, True)
    return _private_folder


def kernel_cache_folder(py_file: str) -> str:
  """The folder holding the compiled kernels defined in ``py_file``.

  Under :func:`kernel_cache_root`, in numba's own subfolder for the file's
  folder; the process's temporary folder when that root is off, cannot be
  written, or (spiel_ext's own) is a link, another user's or writable by
  others (with a warning, once per root, in those latter cases).

  Raises:
    OSError: neither the root nor a temporary folder can be written.
  """
  from numba.core import caching  # pylint: disable=g-import-not-at-top
  locator_base = caching._CacheLocator  # pylint: disable=protected-access
  subfolder = locator_base.get_suitable_cache_subpath(py_file)
  try:
    root, variable = kernel_cache_root()
  except Exception as error:  # pylint: disable=broad-except
    # A kernel is being defined: an unreadable setting must not stop it.
    root, variable = Path("spiel_ext's cache folder"), "SPIEL_EXT_CACHE_DIR"
    problem = str(error)
  else:
    problem = None if root is None else _unusable(
        root, own=variable != "NUMBA_CACHE_DIR")
  if root is not None:
    if problem is None:
      folder = os.path.join(root, subfolder)
      try:
        os.makedirs(folder, exist_ok=True)
        return folder
      except OSError as error:
        problem = error.strerror or str(error)
    with _lock:
      first = str(root) not in _warned_roots
      _warned_roots.add(str(root))
    if first:
      warnings.warn(
          f"spiel_ext does not keep its compiled numba kernels in {root} "
          f"({problem}); they compile anew in each process. Set {variable} "
          "to a folder of your own to keep them.", stacklevel=2)
  return os.path.join(_process_folder(), subfolder)


def _make_locator_class():
  """numba's cache locator for spiel_ext's functions (numba is imported)."""
  from numba.core import caching  # pylint: disable=g-import-not-at-top

  # numba's bases for a locator of a function backed by a source file.
  source_backed = caching._SourceFileBackedLocatorMixin  # pylint: disable=protected-access
  locator_base = caching._CacheLocator  # pylint: disable=protected-access

  class PackageCacheLocator(source_backed, locator_base):
    """Caches the functions of spiel_ext's files in :func:`kernel_cache_folder`.

    The source stamp and the disambiguator are numba's for a source file, so
    a cached kernel is dropped when its file changes.
    """

    def __init__(self, py_func, py_file: str, cache_path: str):
      self._py_file = py_file
      self._lineno = py_func.__code__.co_firstlineno
      self._cache_path = cache_path

    def get_cache_path(self) -> str:
      return self._cache_path

    @classmethod
    def from_function(cls, py_func, py_file: str):
      """The locator for a function of spiel_ext's; None for any other (numba
      then asks its own locators)."""
      if not defined_in_package(py_file) or not os.path.exists(py_file):
        return None
      try:
        folder = kernel_cache_folder(py_file)
      except OSError:
        return None
      return cls(py_func, py_file, folder)

  return PackageCacheLocator


def locator_class():
  """The locator class (made once, on first call; imports numba)."""
  global _locator_class
  with _lock:
    if _locator_class is None:
      _locator_class = _make_locator_class()
    return _locator_class


def install() -> None:
  """Puts the locator first in numba's list of cache locators (once).

  Only functions defined in spiel_ext's files are affected: for any other
  the locator declines and numba's own locators decide as before.
  """
  from numba.core import caching  # pylint: disable=g-import-not-at-top
  implementation = getattr(caching, "CacheImpl", None) or getattr(
      caching, "_CacheImpl")
  locators = implementation._locator_classes  # pylint: disable=protected-access
  cls = locator_class()
  if cls not in locators:
    locators.insert(0, cls)


class _InstallAfterLoading(importlib.abc.Loader):
  """Runs numba's own loader, then :func:`install`, then steps aside."""

  def __init__(self, loader):
    self._loader = loader

  def create_module(self, spec):
    return self._loader.create_module(spec)

  def exec_module(self, module) -> None:
    try:
      self._loader.exec_module(module)
    finally:
      module.__loader__ = self._loader
      if getattr(module, "__spec__", None) is not None:
        module.__spec__.loader = self._loader
    for finder in [finder for finder in sys.meta_path
                   if isinstance(finder, _NumbaImportWatcher)]:
      sys.meta_path.remove(finder)
    try:
      install()
    except Exception as error:  # pylint: disable=broad-except
      warnings.warn(f"spiel_ext could not place its numba kernel cache "
                    f"({error}); numba's default locations apply.")

  def __getattr__(self, name):
    return getattr(self._loader, name)


class _NumbaImportWatcher(importlib.abc.MetaPathFinder):
  """Finds numba as Python would, with :func:`install` after it loads.

  It stays on ``sys.meta_path`` until numba has been loaded (a look-up
  without an import, ``importlib.util.find_spec("numba")``, does not
  consume it).
  """

  def __init__(self):
    self._searching = threading.local()

  def find_spec(self, fullname, path=None, target=None):
    del path, target
    if fullname != "numba" or getattr(self._searching, "active", False):
      return None
    self._searching.active = True
    try:
      spec = importlib.util.find_spec(fullname)
    finally:
      self._searching.active = False
    if spec is not None and spec.loader is not None and hasattr(
        spec.loader, "exec_module") and not isinstance(
            spec.loader, _InstallAfterLoading):
      spec.loader = _InstallAfterLoading(spec.loader)
    return spec


def install_when_numba_loads() -> None:
  """Installs the locator once numba is imported (now, if it already is)."""
  numba = sys.modules.get("numba")
  if numba is not None and getattr(numba, "njit", None) is not None:
    install()
    return
  if not any(isinstance(finder, _NumbaImportWatcher)
             for finder in sys.meta_path):
    sys.meta_path.insert(0, _NumbaImportWatcher())
