"""The bufp paper's experiments (being split into declarations)."""

import importlib as _importlib


def __getattr__(name):
  return getattr(_importlib.import_module(__name__ + ".legacy"), name)
