"""Pure functions from results to the numbers figures, tables and claims use.

Nothing here draws or writes: each function takes a results table (or
strategies) and returns numbers or a table. ``common`` holds what several
papers' experiments share; the other modules hold one paper's analysis.
"""
