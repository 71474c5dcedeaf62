"""vcfr_information: the VCFR bonus's designs and information models on
unknown Leduc(4) (Qiu, Wang, Ma, Wen, Zhang, "Combining Counterfactual Regret
Minimization with Information Gain to Solve Extensive Games with Unknown
Environments", 2023).

Each design of the bonus beside its no-bonus twin, the bonus's options,
the information models (the exact conjugate one, our network, the authors'
network KL), and the authors' own logged values beside our curves.
"""

from __future__ import annotations

import functools

from spiel_ext.analysis.claims import ClaimSpec
from spiel_ext.experiments.spec import Experiment, Scale
from spiel_ext.experiments.vcfr import settings
from spiel_ext.experiments.vcfr.claims import (NOISE_FLOOR, PAPER,
                                               judged_on, noise_floor, paired)
from spiel_ext.experiments.vcfr.figures import FINAL, summarize_information
from spiel_ext.experiments.vcfr.measures import authors_logs
from spiel_ext.experiments.vcfr.paper_values import authors_logs_paper_value
from spiel_ext.results.report import Variant, verdict_from

NETWORKS = ("VCFR-BNN", "VCFR-BNN (authors' KL)")
NETWORK_ITERATIONS = 500
INFORMATION = ("VCFR", "Naive-CFR", "VCFR (eta=0.01)",
               "VCFR (exploration draw)", "PSRLCFR", "PSRLCFR (br_dirc)",
               "VCFR (ours: both draws)", "PSRLCFR (ours)",
               "Naive-CFR (posterior mean)", "VCFR (both players)",
               "VCFR (eta=0.5)") + NETWORKS + ("VCFR (replicate)",
                                                "PSRLCFR (replicate)")
_VARIANTS = (
    Variant("paper setting (Algorithm 1, text's eta)",
            ("VCFR", "Naive-CFR", "PSRLCFR"), "eta = 0.005"),
    Variant("paper setting (Algorithm 1, code's eta)",
            ("VCFR (eta=0.01)", "Naive-CFR"), "eta = 0.01"),
    Variant("paper setting (authors' logged design)",
            ("VCFR (exploration draw)", "PSRLCFR", "PSRLCFR (br_dirc)"),
            "the bonus on the exploration draw; PSRLCFR's two types"),
    Variant("paper setting (the authors' network, capped)",
            ("VCFR-BNN (authors' KL)", "Naive-CFR"),
            "the authors' network KL, eta = 0.01, "
            f"{NETWORK_ITERATIONS} iterations"),
    Variant("our earlier design",
            ("VCFR (ours: both draws)", "PSRLCFR (ours)"),
            "raw bonus for both players on both draws, best-response "
            "exploration paired with the average"),
    Variant("bonus for both players", ("VCFR (both players)",),
            "no zero-sum shift"),
    Variant("eta 0.5", ("VCFR (eta=0.5)",), "a bonus 100x the paper's"),
    Variant("our network", ("VCFR-BNN",),
            f"our network's expected gain, {NETWORK_ITERATIONS} iterations"),
    Variant("posterior-mean Naive", ("Naive-CFR (posterior mean)",),
            "CFR on the posterior mean"),
    Variant(NOISE_FLOOR, ("VCFR (replicate)", "PSRLCFR (replicate)"),
            "another learner seed"))
(_ALG1, _ALG1_CODE_ETA, _LOGGED, _NETWORK, _EARLIER, _BOTH, _ETA_05,
 _OUR_NETWORK, _MEAN, _NOISE) = (variant.label for variant in _VARIANTS)
_pair = functools.partial(paired, replicates=("VCFR", "PSRLCFR"))
AUTHORS_LOGS = (ClaimSpec(
    PAPER, "The authors' own Leduc(4) logs: their VCFR (the exploration-draw "
    "design) ends above both PSRLCFR exploration types",
    authors_logs_paper_value(),
    authors_logs(judged_on(_LOGGED, ("VCFR (exploration draw)",))),
    verdict_from, FINAL),)

VCFR_INFORMATION = Experiment(
    name="vcfr_information",
    description="The designs and the information model on unknown "
                "Leduc(4): the paper's Algorithm 1 and the authors' other "
                "design, each beside its no-bonus twin; the bonus's options; "
                "our network and the authors' network KL (need the bnn "
                "extra)",
    quick=Scale(iterations=150, seeds=1,
                games=settings.environments(("kuhn_poker()",), range(1)),
                algorithms=tuple(name for name in INFORMATION
                                 if name not in NETWORKS)),
    paper=Scale(iterations=20_000, seeds=1,
                games=settings.environments(settings.BASES[1:2], range(5)),
                algorithms=INFORMATION,
                iteration_caps=tuple((name, NETWORK_ITERATIONS)
                                     for name in NETWORKS)),
    metrics=("nash_conv",),
    summarize=functools.partial(summarize_information, order=INFORMATION),
    claims=AUTHORS_LOGS + (
        _pair("VCFR", "Naive-CFR", "The bonus helps the paper's Algorithm "
              "1: VCFR vs its no-bonus twin (the same draws, "
              "average-strategy episodes)", _ALG1),
        _pair("VCFR (eta=0.01)", "Naive-CFR", "The bonus helps Algorithm 1 "
              "with the authors' code's eta = 0.01", _ALG1_CODE_ETA),
        _pair("VCFR (exploration draw)", "PSRLCFR", "The bonus helps the "
              "authors' exploration-draw design: vs its no-bonus twin, "
              "PSRLCFR with the default exploration", _LOGGED),
        _pair("VCFR (ours: both draws)", "PSRLCFR (ours)", "The bonus helps "
              "our earlier design: vs its no-bonus twin", _EARLIER),
        _pair("VCFR (both players)", "Naive-CFR", "Algorithm 1 with the "
              "bonus for both players vs its no-bonus twin", _BOTH),
        _pair("VCFR (eta=0.5)", "Naive-CFR", "Algorithm 1 with a 100x bonus "
              "vs its no-bonus twin", _ETA_05),
        _pair("VCFR-BNN (authors' KL)", "Naive-CFR", "Algorithm 1 with the "
              "authors' network KL vs its no-bonus twin", _NETWORK),
        _pair("VCFR-BNN", "Naive-CFR", "Algorithm 1 with our network vs its "
              "no-bonus twin", _OUR_NETWORK),
        _pair("VCFR", "PSRLCFR", "VCFR (Algorithm 1) vs PSRLCFR", _ALG1),
        _pair("PSRLCFR (br_dirc)", "PSRLCFR", "The authors' two PSRLCFR "
              "explorations: br_dirc vs default", _LOGGED),
        _pair("Naive-CFR (posterior mean)", "Naive-CFR", "Naive on the "
              "posterior mean vs on a posterior draw", _MEAN),
        noise_floor("VCFR", _NOISE),
        noise_floor("PSRLCFR", _NOISE)),
    choices=settings.SHARED + (settings.NAIVE, settings.PSRL_EXPLORATION),
    variants=_VARIANTS)
