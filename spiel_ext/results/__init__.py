"""Results: the long-format store, figures, tables and the reproduction report."""

from spiel_ext.results.store import (COLUMNS, Row, UnitStore, canonical_json,
                                     load_results, write_merged)

__all__ = ["COLUMNS", "Row", "UnitStore", "canonical_json", "load_results",
           "write_merged"]
