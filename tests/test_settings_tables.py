"""Settings as data: each paper experiment declares its paper setting and
its ablations, and the report shows them with every verdict's setting."""

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

from spiel_ext.experiments import EXPERIMENTS
from spiel_ext.experiments.solvers import ALGORITHMS
from spiel_ext.results.report import (PAPER_SETTING, Choice, Variant,
                                      badges_in, report_text, settings_table)

ROOT = Path(__file__).resolve().parent.parent
# The experiments whose verdicts are judged on the authors' settings.
DECLARED = ("bufp_convergence", "bufp_tables", "pref_cfr_kuhn_alpha",
            "pref_cfr_kuhn_settings", "pref_cfr_styles", "gxfp_vnm_asymmetric",
            "gxfp_vnm_raise", "gxfp_convergence", "vcfr_unknown_env",
            "vcfr_ablations", "vcfr_information")


@pytest.mark.parametrize("name", DECLARED)
def test_each_experiment_declares_its_settings(name):
  experiment = EXPERIMENTS[name]
  assert experiment.choices, name
  assert experiment.variants and experiment.variants[0].is_paper_setting
  for choice in experiment.choices:
    assert choice.name and choice.paper_text and choice.authors_code, choice
    assert choice.paper_setting, choice
  for variant in experiment.variants:
    assert set(variant.algorithms) <= set(ALGORITHMS), variant
    assert set(variant.algorithms) <= set(experiment.paper.algorithms)


def test_a_declaration_out_of_order_is_refused():
  experiment = EXPERIMENTS["pref_cfr_kuhn_alpha"]
  ablation, paper = experiment.variants[1], experiment.variants[0]
  with pytest.raises(ValueError, match="first variant must be"):
    dataclasses.replace(experiment, variants=(ablation, paper))
  with pytest.raises(ValueError, match="variant names repeat"):
    dataclasses.replace(experiment, variants=(paper, paper))
  with pytest.raises(ValueError, match="paper scale does not run"):
    dataclasses.replace(experiment, variants=(
        Variant(PAPER_SETTING, ("GXFP",)),))


def test_settings_table_by_hand():
  lines = settings_table(
      [Choice("schedule", "not stated", "a | b (x.py:1)", "simultaneous")],
      [Variant(PAPER_SETTING, ("A",), "as the authors"),
       Variant("alternating", ("B", "C"))])
  assert lines[2] == ("| choice | paper text | authors' code | paper setting "
                      "(ours) | ablations |")
  assert lines[4] == ("| schedule | not stated | a \\| b (x.py:1) | "
                      "simultaneous | - |")
  assert lines[6] == ("Variants: **paper setting** (A): as the authors; "
                      "**ablation: alternating** (B, C).")
  assert settings_table([], []) == []


@pytest.mark.slow
def test_report_gives_each_verdict_its_setting(tmp_path):
  """A tiny run of every variant of the Kuhn alpha experiment: the report
  has the settings table and one verdict row per variant, named."""
  experiment = EXPERIMENTS["pref_cfr_kuhn_alpha"]
  algorithms = [a for v in experiment.variants for a in v.algorithms]
  for flags in ([f"--experiment={experiment.name}", "--iterations=30",
                 "--seeds=2", f"--algorithms={','.join(algorithms)}"],
                ["--experiment=report"]):
    result = subprocess.run(
        [sys.executable, str(ROOT / "run_experiments.py"), "--quiet",
         f"--output_dir={tmp_path}", *flags], capture_output=True, text=True,
        cwd=ROOT, timeout=300)
    assert result.returncode == 0, result.stderr
  section = report_text(tmp_path / "reproduction.md").split(
      f"## {experiment.name}", 1)[1].split("\n## ", 1)[0]
  assert "| choice | paper text | authors' code |" in section
  assert "| CFR update schedule | not stated |" in section
  # A claim's row: | n | claim | paper | ours | badge titled its setting |.
  rows = [line for line in section.splitlines()
          if line.startswith("| ") and "<span" in line]
  alpha = [row for row in rows if "alpha = 0.2" in row]
  settings = [setting for _, setting in badges_in("\n".join(alpha))]
  assert settings == [v.label for v in experiment.variants]
  assert settings[0] == "paper setting"
  assert "moves the share by" in alpha[1]
  # The exploitability claim has a row per variant too, named the same.
  exploitability = [setting for _, setting in badges_in("\n".join(
      row for row in rows if "exploitability below" in row))]
  assert exploitability == settings
