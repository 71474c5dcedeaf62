"""The numbers the VCFR paper and its authors' logs report, which our measures
and figures compare with (Qiu, Wang, Ma, Wen, Zhang, "Combining Counterfactual
Regret Minimization with Information Gain to Solve Extensive Games with
Unknown Environments", 2023).

The claims' measures (:mod:`.measures`), the comparisons
(:mod:`.comparisons`) and the figures (:mod:`.figures`) read them.
"""

from __future__ import annotations

# The paper's Leduc(5) values after 20,000 iterations (its section 5.3):
# the logarithm of exploitability (base not stated; log10 NashConv fits
# the authors' logs).
PAPER_LEDUC5 = {"VCFR": -1.230, "PSRLCFR": -0.980, "Random": -0.632,
                "Naive-CFR": -0.499, "MCCFR-OS": -0.163}
# The paper's Leduc(4) values after 20,000 iterations (section 5.3): only
# VCFR's and the second best's, PSRLCFR's. Its text calls Leduc(4) a VCFR
# win, although these numbers put VCFR above PSRLCFR.
PAPER_LEDUC4 = {"VCFR": -0.135, "PSRLCFR": -0.864}
# The paper's length: 20,000 iterations of 2 episodes.
PAPER_EPISODES = 40_000
PAPER_ITERATIONS = 20_000
LEDUC5 = "unknown Leduc(5)"

# The authors' own logs on one unknown Leduc(4) (their game 10, NashConv,
# results/leduc_3_4_10_*.npz of github chenqiu01/VCFR): at their rounds
# 300, 1,000, 3,000 and 9,600 (round r is r + 1 iterations). Their VCFR
# curve is the exploration-draw design (vime_cfr.py, type default).
AUTHORS_LEDUC4_ROUNDS = (300, 1_000, 3_000, 9_600)
AUTHORS_LEDUC4_LOGS = {
    "VCFR (exploration draw)": (0.483, 0.323, 0.268, 0.134),
    "PSRLCFR": (0.511, 0.440, 0.206, 0.105),
    "PSRLCFR (br_dirc)": (0.421, 0.278, 0.197, 0.083)}
LEDUC4 = "unknown Leduc(4)"
# The learner whose curve the authors' ordering puts above the others'.
AUTHORS_VCFR = "VCFR (exploration draw)"


def listing(values: dict[str, tuple[float, ...] | list[float]]) -> str:
  """"name v1/v2/..., name ...": a learner's values at the logged rounds."""
  return ", ".join(f"{name} " + "/".join(f"{v:.3f}" for v in series)
                   for name, series in values.items())


def leduc5_paper_value() -> str:
  """The paper's Leduc(5) numbers, as the report's paper column shows
  them."""
  return (", ".join(f"{name} {value:.3f}" for name, value in
                    PAPER_LEDUC5.items()) + " (log base not stated; log10 "
          "NashConv fits the authors' logs); VCFR lowest")


def leduc4_paper_value() -> str:
  """The paper's Leduc(4) numbers, as the report's paper column shows
  them."""
  return (", ".join(f"{name} {value:.3f}" for name, value in
                    PAPER_LEDUC4.items()) + " (log base not stated; the "
          "text calls this a VCFR win, its numbers put VCFR above PSRLCFR)")


def authors_logs_paper_value() -> str:
  """The authors' logged Leduc(4) values, as the report's paper column
  shows them."""
  rounds = "/".join(f"{r:,}" for r in AUTHORS_LEDUC4_ROUNDS)
  return (f"NashConv at rounds {rounds}, one environment: "
          + listing(AUTHORS_LEDUC4_LOGS))
