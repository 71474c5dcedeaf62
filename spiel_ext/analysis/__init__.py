"""Paper-agnostic pure functions from results to the numbers figures,
tables and claims use.

Nothing here draws or writes: each function takes a results table (or
strategies) and returns numbers or a table. ``claims`` declares a paper's
claims as data; ``common``, ``labels``, ``poker_units`` and ``speed`` hold
what several experiments share. Each paper's own measures live in its
package, ``spiel_ext.experiments.<paper>``.
"""
