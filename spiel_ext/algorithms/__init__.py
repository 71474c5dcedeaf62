"""Algorithms built on the engine (CFR family, fictitious play, VCFR)."""
