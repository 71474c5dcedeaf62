"""Packaging for spiel_ext: newer equilibrium-finding algorithms on OpenSpiel."""
import re
from pathlib import Path

from setuptools import find_packages, setup

_VERSION = re.search(
    r'^__version__ = "([^"]+)"',
    (Path(__file__).parent / "spiel_ext" / "__init__.py").read_text(),
    re.M,
).group(1)

setup(
    name="spiel-ext",
    version=_VERSION,
    description=(
        "BUFP, GXFP, Pref-CFR and VCFR as drop-in OpenSpiel solvers, the "
        "games their papers use, and one-command reproductions."
    ),
    long_description=(Path(__file__).parent / "README.md").read_text(),
    long_description_content_type="text/markdown",
    packages=find_packages(include=["spiel_ext", "spiel_ext.*"]),
    python_requires=">=3.10",
    install_requires=[
        "open_spiel>=1.5",
        "numpy>=1.24",
        "numba>=0.58",
        "absl-py>=1.0",
        "pandas>=1.5",
        "pyarrow>=12",
        "matplotlib>=3.6",
        "tqdm>=4.60",
    ],
    extras_require={
        "test": ["pytest>=7", "hypothesis>=6", "cvxpy>=1.3", "ecos>=2.0",
                 "ray>=2.9"],
        "ray": ["ray>=2.9"],
        "bnn": ["torch>=2.0,<2.14"],
    },
    license="Apache-2.0",
)
