"""quickstart: CFR, CFR+, XFP and BUFP(EF) on Leduc, beside OpenSpiel's CFR.

NashConv vs iterations (log-log, mean and 90% band over random starts), with
OpenSpiel's own Python ``cfr.CFRSolver`` for its first iterations on the
same axes and our CFR from the same uniform start (the two lines coincide:
the solvers match iterate for iterate). The table gives each algorithm's
final NashConv and iterations per second, ours beside OpenSpiel's.
"""

from __future__ import annotations

from spiel_ext.experiments.spec import Experiment, Scale
from spiel_ext.results.quickstart_figures import (OPENSPIEL_CFR,
                                                  QUICKSTART_ORDER,
                                                  summarize_quickstart)

QUICKSTART = Experiment(
    name="quickstart",
    description="CFR, CFR+, XFP, BUFP(EF) on Leduc beside OpenSpiel's CFR: "
                "NashConv figure and speed table",
    quick=Scale(iterations=2000, seeds=3, games=("leduc_poker",),
                algorithms=QUICKSTART_ORDER,
                iteration_caps=((OPENSPIEL_CFR, 30),)),
    paper=Scale(iterations=100_000, seeds=10, games=("leduc_poker",),
                algorithms=QUICKSTART_ORDER,
                iteration_caps=((OPENSPIEL_CFR, 300),)),
    metrics=("nash_conv",),
    summarize=summarize_quickstart)
