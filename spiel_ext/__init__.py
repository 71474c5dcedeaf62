"""spiel_ext: newer equilibrium-finding algorithms as native OpenSpiel solvers.

Subpackages: ``spiel_ext.engine`` (compiled game trees and the shared numba
passes), ``spiel_ext.algorithms``, ``spiel_ext.games`` and ``spiel_ext.eval``.
Nothing heavy is imported here; import the subpackage you need.
"""

__version__ = "0.1.0"
