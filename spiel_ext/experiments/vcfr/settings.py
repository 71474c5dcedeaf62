"""The VCFR experiments' settings table as data: every choice that can
change a number, as the paper's text (Qiu, Wang, Ma, Wen, Zhang, "Learning
to Explore in Games with Unknown Environments", 2023), the authors' code
and our runs make it; and the games the experiments run on."""

from __future__ import annotations

from spiel_ext.results.report import Choice

# What the paper's text, the authors' code (github chenqiu01/VCFR, with
# the PSRLCFR code of github DongdongBai/submit) and our runs do.
DESIGN = Choice(
    "where the bonus goes",
    "Algorithm 1: CFR runs on r' = r + eta KL and its average strategy "
    "plays the episodes",
    "two designs: the bonus on the CFR draw, both episodes with the average "
    "(kl_cfr.py:97,258; vime_discount.py:100,260; the Leduc(5) runs, "
    "expr_skip_cfr_avg.py:80); or only on the second, exploration draw, "
    "with PSRLCFR's exploration (vime_cfr.py:97 commented out, :235-246; "
    "their logged Leduc(4) VCFR)",
    "Algorithm 1 (VCFR, VDCFR)",
    "the exploration-draw design, VCFR (exploration draw); ours before "
    "reading the code, the bonus on both draws, VCFR (ours: both draws); "
    "both in vcfr_information")
SIGN = Choice(
    "whose reward gets the bonus",
    "r' = r + eta KL",
    "player 1's reward r + eta KL, player 0's -(r + eta KL): a zero-sum "
    "shift (vime.py:128-130)",
    "the zero-sum shift (the code; the text's r' is one number per "
    "terminal)",
    "both players' rewards + eta KL, VCFR (both players)")
SCALE = Choice(
    "bonus scale",
    "eta KL",
    "KL divided by the mean of the last 10 per-iteration medians over "
    "terminals (vime.py:104-109)",
    "the median normalisation, so eta is in units of a typical gain for "
    "any information model",
    "raw gains in VCFR (ours: both draws)")
ETA = Choice(
    "eta", "0.005", "0.01 (vime.py:15)",
    "both readings: VCFR (0.005) and VCFR (eta=0.01) in vcfr_information",
    "0.5, VCFR (eta=0.5)")
INFORMATION_MODEL = Choice(
    "information model",
    "a Bayesian neural network (6-32-1, Adam lr 0.005, batch 500 or 1000) "
    "on a PCA of one-hot terminal codes; KL from its weights",
    "VIME's second-order term at a posterior-drawn reward, the network "
    "trained on the drawn rewards, hidden 64, lr 0.01, batch 1000 "
    "(vime.py:62-69,170-195; bnn.py:388-433)",
    "ours: the exact expected KL of the conjugate (Beta) model, "
    "median-normalised: the network's per-terminal KL costs what a network "
    "costs, too much for 20,000 iterations in 45 environments",
    "the authors' network KL, VCFR-BNN (authors' KL), and ours, VCFR-BNN, "
    "capped at 500 iterations (about 0.4 s an iteration for the authors' "
    "KL) in vcfr_information")
NAIVE = Choice(
    "Naive",
    "CFR without the bonus; its average strategy plays the episodes",
    "CFR on a posterior draw; its current strategy plays the episodes "
    "(cfrpsrl.py, type ordinary)",
    "both readings, on a posterior draw: Naive-CFR (average) and Naive-CFR "
    "(current)",
    "the posterior mean, Naive-CFR (posterior mean), our earlier reading")
PSRL_EXPLORATION = Choice(
    "PSRLCFR exploration",
    "not stated",
    "type default: argmax of reach-weighted V_draw - V_avg, paired with "
    "the other's current strategy (cfrpsrl.py getExploreStgy); "
    "experiment_br.py:86 defaults to br_dirc, a best response in the "
    "second draw",
    "default (which one the paper plots cannot be determined)",
    "br_dirc, PSRLCFR (br_dirc); a best response paired with the other's "
    "average, PSRLCFR (ours)")
FSP = Choice(
    "FSP and VFSP",
    "fictitious self-play with fitted-Q best responses",
    "fictitious play with exact best responses on a posterior draw, both "
    "episodes with the best responses (ficplay.py; VFSP with the bonus on "
    "that draw, vimeficplay.py:150); their logged FSP curve "
    "(results/leduc_3_4_10_ficplay_default.npz) is this one",
    "both readings: FSP (the code) and FSP (fitted-Q) (the text)")
SCHEDULE = Choice(
    "CFR update schedule",
    "not stated",
    "both players' regrets on one profile, then both strategies "
    "(cfrpsrl.py update(0), update(1), updStgy)",
    "simultaneous updates (the code)")
WALK = Choice(
    "CFR walk",
    "histories of extremely low reach are not traversed",
    "reach below 1e-5 skipped; the uniform start counted once in the "
    "average (cfrpsrl.py)",
    "ours: full walk, average from the first iteration (one iteration in "
    "20,000)")
METRIC = Choice(
    "metric",
    "exploitability, log scale, base not stated",
    "NashConv, the sum of both best-response values (utils.py:106-108)",
    "log10 NashConv (it fits their logs and the paper's numbers)")
ENVIRONMENTS = Choice(
    "environments",
    "not stated",
    "rewards redrawn unseeded at every load (LeducHoldem.py:75-78): every "
    "logged run is another game, one run per curve",
    "ours: 5 seeded environments per game, each learner on each, paired "
    "differences over them; the noise floor is a learner against itself "
    "with another learner seed",
    "the replicates, VCFR (replicate) and the others")
SHARED = (DESIGN, SIGN, SCALE, ETA, INFORMATION_MODEL, SCHEDULE,
          WALK, METRIC, ENVIRONMENTS)


BASES = ("kuhn_poker()", "spiel_ext_bid_leduc(max_bid=4)",
         "spiel_ext_bid_leduc(max_bid=5)")


def environments(bases, seeds) -> tuple[str, ...]:
  """The true games of each base game and environment seed."""
  return tuple(f"spiel_ext_unknown_env(game={base},env_seed={seed})"
               for base in bases for seed in seeds)


QUICK_GAMES = environments(BASES[:2], range(2))
PAPER_GAMES = environments(BASES, range(5))
