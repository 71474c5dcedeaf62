"""MkDocs hook that ships MathJax with the built site, so formulas render offline.

MathJax 3 comes from the ``django-static-mathjax`` package (the ``docs``
extra), which holds the files MathJax publishes, with no other dependency.
After the build the hook copies what the site loads (the ``tex-mml-chtml``
component, the TeX input extensions, the CommonHTML output with its fonts,
the accessibility and menu components) into ``javascripts/mathjax/`` of the
built site; ``extra_javascript`` in ``mkdocs.yml`` loads it from there.
"""

import importlib.util
import pathlib
import shutil

# The folder of the built site MathJax is copied to, relative to its root.
MATHJAX_SITE_DIR = pathlib.PurePosixPath("javascripts/mathjax")

# What the site needs from MathJax's es5 folder: the combined component
# extra_javascript loads, and the folders it loads further pieces from.
_MATHJAX_FILES = ("tex-mml-chtml.js",)
_MATHJAX_DIRS = ("a11y", "input", "output/chtml", "ui", "sre")


def mathjax_es5_dir() -> pathlib.Path:
  """Returns MathJax's es5 folder inside the installed django-static-mathjax.

  Raises:
    FileNotFoundError: the package is not installed (it is in the docs extra).
  """
  spec = importlib.util.find_spec("mathjax")
  if spec is None or not spec.submodule_search_locations:
    raise FileNotFoundError(
        "MathJax for the site: install django-static-mathjax "
        "(pip install -e \".[docs]\")")
  for location in spec.submodule_search_locations:
    es5 = pathlib.Path(location) / "static" / "mathjax" / "es5"
    if (es5 / "tex-mml-chtml.js").is_file():
      return es5
  raise FileNotFoundError(
      "MathJax for the site: the installed 'mathjax' package has no "
      "static/mathjax/es5/tex-mml-chtml.js; install django-static-mathjax")


def on_post_build(config, **kwargs) -> None:
  """Copies MathJax into the built site (MkDocs calls this after a build).

  Args:
    config: the MkDocs configuration; MathJax goes under its ``site_dir``.
    **kwargs: what else MkDocs passes to the event (unused).
  """
  source = mathjax_es5_dir()
  target = pathlib.Path(config["site_dir"]) / MATHJAX_SITE_DIR
  if target.exists():
    shutil.rmtree(target)
  target.mkdir(parents=True)
  for name in _MATHJAX_FILES:
    shutil.copy2(source / name, target / name)
  for name in _MATHJAX_DIRS:
    shutil.copytree(source / name, target / name)
  # MathJax's licence (Apache-2.0) travels with its code.
  shutil.copy2(source.parent / "LICENSE", target / "LICENSE")
