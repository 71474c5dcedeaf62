"""The numbers the BUFP paper reports, and the game its tables are on (Qi
Ju, Zhemei Fang, Yunfeng Luo, "Beyond Nash Equilibrium: Achieving Bayesian
Perfect Equilibrium with Belief Update Fictitious Play", DDCLS 2024,
arXiv:2409.02706).

The claims' measures, the figures and the declarations all read them.
"""

from __future__ import annotations

PAPER = "BUFP (Ju, Fang, Luo 2024)"

# 5-rank Leduc with RLCard's rules (blinds 1 and 2, a fold always legal),
# and the authors' later rules (no fold when checking is legal).
RLCARD_LEDUC_5 = ("spiel_ext_leduc(blinds=1 2,fold_always=true,"
                  "round2_first=after_last,ranks=5)")
RLCARD_LEDUC_5_NO_FOLD = RLCARD_LEDUC_5.replace("fold_always=true",
                                                "fold_always=false")

# The three algorithms of Tables 1-2, in the paper's order; each table
# variant names the algorithm that plays each role.
ROLES = ("CFR", "BUFP(EF)", "BUFP(X)")

# The paper's exploitabilities after 100,000 iterations (mb/h), at which
# the matched-exploitability snapshots are taken.
PAPER_EXPLOITABILITY_MBH = {"CFR": 5.15, "BUFP(EF)": 5.33, "BUFP(X)": 3.16}
# Table 1 (the initial node) and Table 2 (player 1 forced to Call at its
# first decision): player 1's winnings in mb/h, {(P1, P2): value}.
PAPER_TABLE_1 = {
    ("CFR", "CFR"): 19.21, ("CFR", "BUFP(EF)"): 20.17,
    ("CFR", "BUFP(X)"): 17.93, ("BUFP(EF)", "CFR"): 18.34,
    ("BUFP(EF)", "BUFP(EF)"): 19.02, ("BUFP(EF)", "BUFP(X)"): 17.71,
    ("BUFP(X)", "CFR"): 20.38, ("BUFP(X)", "BUFP(EF)"): 20.68,
    ("BUFP(X)", "BUFP(X)"): 19.10}
PAPER_TABLE_2 = {
    ("CFR", "CFR"): -33.86, ("CFR", "BUFP(EF)"): -44.54,
    ("CFR", "BUFP(X)"): -22.02, ("BUFP(EF)", "CFR"): -5.15,
    ("BUFP(EF)", "BUFP(EF)"): -20.03, ("BUFP(EF)", "BUFP(X)"): 4.49,
    ("BUFP(X)", "CFR"): -4.89, ("BUFP(X)", "BUFP(EF)"): -22.37,
    ("BUFP(X)", "BUFP(X)"): 3.94}
# Section 5.2's percentages: BUFP(EF) against CFR after a forced Call.
RECOVERED, SECURED, MEAN = "recovered loss %", "secured profit %", "mean %"
PAPER_PERCENTAGES = {RECOVERED: 52.87, SECURED: 44.20, MEAN: 48.53}
# What the paper's own tables give where its text differs.
PERCENTAGE_NOTES = {
    RECOVERED: " (its own tables give 51.97%: the text's CFR drop of 53.57 "
               "should be 52.57)",
    MEAN: " (48.07% from its own tables)"}
PAPER_PERCENTAGES_TEXT = (f"{PAPER_PERCENTAGES[RECOVERED]:.2f}% recovered, "
                          f"{PAPER_PERCENTAGES[SECURED]:.2f}% secured, mean "
                          f"{PAPER_PERCENTAGES[MEAN]:.2f}%")
