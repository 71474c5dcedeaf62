"""Transitional alias of the play-styles experiment's module."""
import sys as _sys
from spiel_ext.experiments.pref_cfr import legacy_styles as _styles
_sys.modules[__name__] = _styles
