"""Packaging for spiel_ext: the metadata is in pyproject.toml.

This file stays so that ``python setup.py ...`` and tools that look for it
keep working; ``pip install .`` reads pyproject.toml.
"""
from setuptools import setup

setup()
