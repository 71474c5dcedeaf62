"""The VCFR paper's experiments (Qiu, Wang, Ma, Wen, Zhang, "Combining
Counterfactual Regret Minimization with Information Gain to Solve Extensive
Games with Unknown Environments", 2023): learning in unknown environments.

- ``vcfr_unknown_env`` (:mod:`.unknown_env`): Figures 3-4.
- ``vcfr_ablations`` (:mod:`.ablations`): Figures 5-6.
- ``vcfr_information`` (:mod:`.information`): the bonus's designs and
  information models on unknown Leduc(4), and the authors' logged values.

Each runs the paper setting (the paper's Algorithm 1 and the authors'
baselines; where the text and the authors' code disagree, both readings)
and labelled variants beside it; :mod:`.settings` says which is which.

Everything of the paper is in this package: the learners' entries
(:mod:`.algorithms`), the paper's and the authors' logged numbers
(:mod:`.paper_values`), the paired comparisons over environments
(:mod:`.comparisons`), the claims' measures (:mod:`.measures`) and
declarations (:mod:`.claims`, with the declaration of a comparison on
the unknown games), the figures and tables (:mod:`.figures`) and the
three experiments.

Every paired comparison shows its noise floor: a learner against itself
with another learner seed, over the same environments. The paper plots the
logarithm of NashConv (the sum of both best-response gains, as the
authors' code computes it); we plot NashConv on a log axis and report
log10 values.
"""

from spiel_ext.experiments.vcfr.ablations import VCFR_ABLATIONS
from spiel_ext.experiments.vcfr.information import VCFR_INFORMATION
from spiel_ext.experiments.vcfr.unknown_env import VCFR_UNKNOWN_ENV

__all__ = ["VCFR_ABLATIONS", "VCFR_INFORMATION", "VCFR_UNKNOWN_ENV"]
