"""The Pref-CFR paper's experiments (being split into declarations)."""

import importlib as _importlib


def __getattr__(name):
  for module in ("legacy_kuhn", "legacy_styles"):
    loaded = _importlib.import_module(f"{__name__}.{module}")
    if hasattr(loaded, name):
      return getattr(loaded, name)
  raise AttributeError(name)
