"""The BUFP experiments' settings as data (Qi Ju, Zhemei Fang, Yunfeng Luo,
"Beyond Nash Equilibrium: Achieving Bayesian Perfect Equilibrium with
Belief Update Fictitious Play", 2024): the algorithms each experiment runs,
every choice that can change a number (the paper's text, the authors'
code, ours) and the variants (the paper settings and our ablations).
"""

from __future__ import annotations

from spiel_ext.experiments.bufp.algorithms import (BUFP_EF_FIRST_STEP,
                                                   BUFP_X_FIRST_STEP,
                                                   CS_CFR_INDEPENDENT_DRAWS,
                                                   XFP_FIRST_STEP)
from spiel_ext.results.report import PAPER_SETTING, Choice, Variant

# Figures 1-2. The paper's CFR is RLCard's CFR agent (chance-sampled,
# uniform start); full-width CFR from the uniform start is the
# deterministic reference.
_RLCARD_CFR = "CS-CFR"
_UNIFORM_CFR = "CFR (uniform)"
_FP = ("BUFP(EF)", "BUFP(X)", "XFP")
FP_FIRST_STEP = tuple(entry.id for entry in (
    BUFP_EF_FIRST_STEP, BUFP_X_FIRST_STEP, XFP_FIRST_STEP))
_INDEPENDENT_DRAWS = CS_CFR_INDEPENDENT_DRAWS.id
QUICK_CONVERGENCE_ALGORITHMS = (_RLCARD_CFR, _UNIFORM_CFR) + _FP + FP_FIRST_STEP
CONVERGENCE_ALGORITHMS = QUICK_CONVERGENCE_ALGORITHMS + (_INDEPENDENT_DRAWS,)
# Drawn dashed in the figures: XFP (BUFP(X) covers it) and the
# deterministic uniform CFR.
DASHED_PREFIX, DASHED = "XFP", (_UNIFORM_CFR,)
# Section 5.1: "we concentrate on Kuhn poker and Leduc poker".
CONVERGENCE_GAMES = ("kuhn_poker", "leduc_poker")

# Tables 1-2: the CFR of each reading, BUFP(EF), BUFP(X); random-start CFR
# (the ablation) runs its first RANDOM_CFR_CAP iterations only.
RANDOM_CFR = "CFR"
TABLE_ALGORITHMS = (_RLCARD_CFR, _UNIFORM_CFR, "BUFP(EF)", "BUFP(X)",
                    RANDOM_CFR)
RANDOM_CFR_CAP = 20_000

CONVERGENCE_VARIANTS = (
    Variant(f"{PAPER_SETTING} (random starts, step 1/(t+1))",
            (_RLCARD_CFR,) + _FP,
            "RLCard's CFR; BUFP and XFP from Dirichlet(1) starts with the "
            "EFFP/XFP step 1/(t+1)"),
    Variant(f"{PAPER_SETTING} (authors' first step 1)",
            (_RLCARD_CFR,) + FP_FIRST_STEP,
            "BUFP and XFP with the authors' step 1/t (the random start is "
            "replaced by the first decision) and ties split evenly"),
    Variant("full-width uniform CFR", (_UNIFORM_CFR,) + _FP,
            "deterministic full-width CFR from the uniform start in place "
            "of RLCard's sampled CFR"),
    Variant("independent chance draws", (_INDEPENDENT_DRAWS,) + _FP,
            "sampled CFR drawing every chance node independently "
            "and averaging at every infoset (our earlier sampled CFR)"),
)

CONVERGENCE_CHOICES = (
    Choice("CFR baseline",
           "\"Our simulations adhere to the rlcard framework\" (section "
           "5.1); 30 runs with a 90% band for every algorithm, CFR included",
           "RLCard's CFRAgent (rlcard/agents/cfr_agent.py), trained by the "
           "authors' prototype (rlcard_cfr_ledec.py in Zealoter/BUFP)",
           "CS-CFR: chance-sampled CFR as RLCard's agent runs it (below)",
           "full-width CFR from the uniform start (ablation: full-width "
           "uniform CFR; one run, it is deterministic)"),
    Choice("CFR iteration",
           "not stated",
           "cfr_agent.py:35-44: one traversal per player, each after "
           "env.reset() (a new deal), policy updated once after both "
           "(simultaneous); :84-95 regret += opponents' reach x (u(a) - u); "
           ":97 average += t x own reach x sigma at the infosets the deal "
           "visits; :118-119 no positive regret -> uniform; the deck is "
           "restored on each step back (games/leducholdem/game.py:190), so "
           "every branch sees the same public card",
           "the same: one draw per chance depth per traversal, average "
           "only where the deal goes, linear weights, simultaneous",
           "independent draws at every chance node and the average at "
           "every infoset (ablation: independent chance draws)"),
    Choice("CFR infosets",
           "not stated",
           "RLCard's Leduc observation is hand, public card and both chip "
           "counts (envs/leducholdem.py:60-64), not the betting history; "
           "the small blind is drawn at random each hand "
           "(games/leducholdem/game.py:69-76)",
           "ours: perfect-recall infosets of OpenSpiel's games (no "
           "abstraction; the engine's infosets)", ""),
    Choice("BUFP/XFP start and step",
           "30 runs (random starts); EFFP step t/(t+1) for BUFP(EF)",
           "SPFP.py:44,48,177,209: learning rate 1, then 1/2, 1/3, ...: the "
           "random start (SPFP.py, Node.add_son) is replaced by the first "
           "decision",
           "both readings run as paper settings: Dirichlet(1) start with "
           "step 1/(t+1), and the authors' first step 1",
           ""),
    Choice("ties",
           "not stated",
           "SPFP.py:93-99: an even split among exact maximisers",
           "lowest action (OpenSpiel's XFP) with step 1/(t+1); even split "
           "with the authors' first step 1", ""),
    Choice("games", "Kuhn and Leduc poker (section 5.1)",
           "3-card toy Leduc in the prototype", "OpenSpiel's kuhn_poker "
           "and leduc_poker", ""),
    Choice("iterations and runs",
           "30 runs; the horizon is not stated",
           "no public Figs. 1-2 code",
           "20,000 iterations (the curves are flat on a log axis by then), "
           "30 seeds, ~8 log-spaced evaluation points per decade; one "
           "worker runs it in about 30 minutes (per iteration on Leduc: "
           "0.2-0.5 ms)", ""),
    Choice("what is evaluated",
           "exploitability (Fig. 1) and total exploitability (Fig. 2) of "
           "the average strategy",
           "no public Figs. 1-2 code",
           "NashConv and the mean perfect-Bayesian gap over infosets "
           "(off-path beliefs: chance x uniform opponents), exact", ""),
)

TABLE_VARIANTS = (
    Variant(f"{PAPER_SETTING} (CFR = RLCard's sampled CFR)",
            (_RLCARD_CFR, "BUFP(EF)", "BUFP(X)"),
            "section 5.1's RLCard CFR agent as the CFR of the tables"),
    Variant(f"{PAPER_SETTING} (CFR = full-width uniform CFR)",
            (_UNIFORM_CFR, "BUFP(EF)", "BUFP(X)"),
            "deterministic full-width CFR from the uniform start"),
    Variant("random-start CFR", (RANDOM_CFR, "BUFP(EF)", "BUFP(X)"),
            "full-width CFR from U(0, 1) regrets (our earlier setting; at "
            f"paper scale run to {RANDOM_CFR_CAP:,} iterations only)"),
)

TABLE_CHOICES = (
    Choice("CFR baseline", "\"adhere to the rlcard framework\" (section "
           "5.1); nothing more for the tables",
           "no public code for Tables 1-2 (the public repository is a 2022 "
           "prototype)", "both readings: RLCard's sampled CFR and "
           "full-width uniform CFR",
           "random-start full-width CFR (ablation: random-start CFR)"),
    Choice("game rules", "5-Leduc (5 ranks)",
           "RLCard allows a fold when checking is legal; the authors' later "
           "engine (Zealoter/CFVFP, GAME/GameLeduc.py) does not",
           "both, as separate tables: RLCard's rules (fold always legal) "
           "and the later rules (no fold when checking is legal)", ""),
    Choice("iterations", "100,000",
           "no public code", "100,000, with snapshots at 20,000 and 50,000 "
           "and at the paper's exploitabilities (5.15 / 5.33 / 3.16 mb/h); "
           "one worker runs both rule sets in about 35 minutes (5-Leduc: "
           "0.6-1.5 ms per iteration)", ""),
    Choice("runs", "not stated (one value per cell)", "no public code",
           "3 seeds per algorithm (1 for the deterministic uniform CFR); "
           "cells are mean ± sd over seed pairs, the percentages median "
           "[min, max] over seed pairs", ""),
    Choice("BUFP start and step", "not stated for the tables",
           "SPFP.py:44,48: learning rate 1, then 1/t",
           "Dirichlet(1) start, step 1/(t+1) (the figures run both)", ""),
    Choice("what is evaluated", "player 1's winnings in mb/h, at the root "
           "and with player 1 forced to Call at its first decision",
           "no public code", "exact expected payoffs (no sampling) of the "
           "average strategies", ""),
)
