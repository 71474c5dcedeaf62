"""The BUFP paper's ablations (Qi Ju, Zhemei Fang, Yunfeng Luo, "Beyond Nash
Equilibrium: Achieving Bayesian Perfect Equilibrium with Belief Update
Fictitious Play", 2024): the authors' code's step schedule and tie rule, and
chance-sampled CFR's draws."""

from __future__ import annotations

from spiel_ext.algorithms import (BUFPSolver, ChanceSampledCFRSolver,
                                  XFPSolver)
from spiel_ext.experiments.entries import AlgorithmEntry, register

_FIRST_STEP = {"initial_policy": "random", "first_step_one": True,
               "tie_break": "even"}

# The BUFP authors' code: learning rate 1, 1/2, 1/3, ... (the random start
# is replaced by the first decision) and ties split evenly.
BUFP_EF_FIRST_STEP = AlgorithmEntry(
    BUFPSolver, {"stepsize": "ef", **_FIRST_STEP}, "BUFP(EF) (first step 1)",
    description="BUFP(EF), random start replaced by the first decision "
    "(step 1/t), ties split evenly")
BUFP_X_FIRST_STEP = AlgorithmEntry(
    BUFPSolver, {"stepsize": "x", **_FIRST_STEP}, "BUFP(X) (first step 1)",
    description="BUFP(X), random start replaced by the first decision "
    "(step 1/t), ties split evenly")
XFP_FIRST_STEP = AlgorithmEntry(
    XFPSolver, _FIRST_STEP, "XFP (first step 1)", description="XFP, random "
    "start replaced by the first best response (step 1/t), ties split "
    "evenly")
CS_CFR_INDEPENDENT_DRAWS = AlgorithmEntry(
    ChanceSampledCFRSolver, {"correlated_chance": False,
                             "sampled_averaging": False},
    "CS-CFR (independent draws)", description="chance-sampled CFR, every "
    "chance node drawn independently and the average kept at every infoset")

BUFP_ALGORITHMS = register((BUFP_EF_FIRST_STEP, BUFP_X_FIRST_STEP,
                            XFP_FIRST_STEP, CS_CFR_INDEPENDENT_DRAWS))
