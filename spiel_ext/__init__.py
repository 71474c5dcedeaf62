"""spiel_ext: newer equilibrium-finding algorithms as native OpenSpiel solvers.

``import spiel_ext`` registers the package's games with pyspiel (cheaply: no
engine, numba or solver is imported), so that

    import pyspiel, spiel_ext
    game = pyspiel.load_game("spiel_ext_leduc(ranks=5)")

works. The games are ``spiel_ext_leduc``, ``spiel_ext_bid_leduc``,
``spiel_ext_vnm_poker`` and ``spiel_ext_unknown_env`` (see
:mod:`spiel_ext.games`). Subpackages:
``spiel_ext.engine`` (compiled game trees and the shared numba passes),
``spiel_ext.algorithms``, ``spiel_ext.games`` and ``spiel_ext.eval``; import
the one you need. ``spiel_ext.exploitability`` has the names and signatures
of OpenSpiel's ``exploitability`` module, and ``spiel_ext.cli`` is the
``spiel-ext`` command.
"""

__version__ = "0.1.0"

# numba caches spiel_ext's kernels in spiel_ext's cache folder, never inside
# the package (see spiel_ext.numba_cache); numba is not imported here.
from spiel_ext import numba_cache as _numba_cache  # pylint: disable=g-import-not-at-top  # noqa: E402

_numba_cache.install_when_numba_loads()

# Registers the games (after __version__, which the engine's cache reads).
from spiel_ext import games  # pylint: disable=unused-import,g-import-not-at-top  # noqa: E402,F401
