"""The Pref-CFR paper's numbers our claims quote (Ju, Tellier, Sun, Fang,
Luo, "Preference-CFR: Beyond Nash Equilibrium for Better Game Strategies",
ICML 2025, arXiv:2411.01217): section 5.2 and 6 text (Tables 2-3 are
images whose cells the text summarises as "within 10 mBB/h")."""

from spiel_ext.experiments.pref_cfr.measures_styles import PAPER_COST_MBH

PAPER = "Pref-CFR (Ju, Tellier, Sun, Fang, Luo 2025)"

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

__all__ = ["PAPER", "PAPER_2P", "PAPER_3P_AGGRESSIVE_RAISE_TO_3",
           "PAPER_3P_LOOSE_CALL", "PAPER_3P_LOOSE_GAIN_MBH",
           "PAPER_3P_NORMAL", "PAPER_ALPHA_RUNS", "PAPER_COST_MBH"]
