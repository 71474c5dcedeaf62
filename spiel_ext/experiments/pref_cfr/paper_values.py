"""The Pref-CFR paper's numbers our claims quote (Ju, Tellier, Sun, Fang,
Luo, "Preference-CFR: Beyond Nash Equilibrium for Better Game Strategies",
ICML 2025, arXiv:2411.01217): section 5.2 and 6 text (Tables 2-3 are
images whose cells the text summarises as "within 10 mBB/h")."""

PAPER = "Pref-CFR (Ju, Tellier, Sun, Fang, Luo 2025)"

# Tables 2-3: a style loses at most this against Normal ("within 10
# mBB/h", the paper's text).
PAPER_COST_MBH = 10.0

# Fig. 3: every one of the paper's runs ends near alpha = 0.2.
PAPER_ALPHA_RUNS = "all 100 runs near 0.2"

# Two-player hold'em, player 1's first decision, %: fold, call, raise to 2,
# raise to 3, all-in.
PAPER_2P = {"Normal": (5.4, 52.7, 42.0, 0.0, 0.0),
            "Loose-passive": (0.3, 73.3, 21.7, 4.7, 0.0),
            "Aggressive": (4.2, 64.8, 9.8, 21.1, 0.0)}
PAPER_3P_NORMAL = (61.4, 0.0, 38.6, 0.0)  # fold, call, raise, all-in.
PAPER_3P_LOOSE_CALL = 23.9
PAPER_3P_AGGRESSIVE_RAISE_TO_3 = 16.0
PAPER_3P_LOOSE_GAIN_MBH = 0.2

# Section 5.2's first-decision moves, {(style, action group): {players:
# (Normal's %, the style's %)}}. Our games offer one raise size at player
# 1's first decision, so "raise" is compared with the paper's raise to 3,
# the size the Aggressive style takes up (its raise to 2 falls from 42.0%
# to 9.8%, so all raises together fall in the paper's two-player game).
# The paper gives no three-player fold share for Loose-passive.
PAPER_MOVES = {
    ("Loose-passive", "fold"): {2: (PAPER_2P["Normal"][0],
                                    PAPER_2P["Loose-passive"][0])},
    ("Loose-passive", "call"): {2: (PAPER_2P["Normal"][1],
                                    PAPER_2P["Loose-passive"][1]),
                                3: (PAPER_3P_NORMAL[1], PAPER_3P_LOOSE_CALL)},
    ("Aggressive", "raise"): {2: (PAPER_2P["Normal"][3],
                                  PAPER_2P["Aggressive"][3]),
                              3: (0.0, PAPER_3P_AGGRESSIVE_RAISE_TO_3)},
}

# Section 5.1, before Fig. 3: CFR on Kuhn poker "after 10,000 training
# iterations" reduces exploitability below this.
PAPER_KUHN_EXPLOITABILITY = 0.01
PAPER_KUHN_ITERATIONS = 10_000

__all__ = ["PAPER", "PAPER_2P", "PAPER_3P_AGGRESSIVE_RAISE_TO_3",
           "PAPER_3P_LOOSE_CALL", "PAPER_3P_LOOSE_GAIN_MBH",
           "PAPER_3P_NORMAL", "PAPER_ALPHA_RUNS", "PAPER_COST_MBH",
           "PAPER_KUHN_EXPLOITABILITY", "PAPER_KUHN_ITERATIONS",
           "PAPER_MOVES"]
