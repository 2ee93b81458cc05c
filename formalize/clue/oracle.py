"""A Clue knowledge grid as an entailment oracle (``reasoning.oracle``), so the Clue audit
classifies stated deductions by the Verifier's rule."""

from __future__ import annotations

from formalize.clue.knowledge import KnowledgeGrid
from reasoning.formula import Formula, literal


class GridOracle:
    """Answers entailment of a cell literal (a cell atom under any number of negations) from the
    grid, which is exact: a cell is fixed exactly when the knowledge entails its value."""

    def __init__(self, grid: KnowledgeGrid) -> None:
        self.grid = grid
        self._names = frozenset(grid.setup.atom_names())

    def entails(self, claim: Formula) -> bool | None:
        """Whether the knowledge entails the cell literal ``claim``; None for any other
        formula (a ``reasoning.oracle.FallbackOracle`` sends those to a prover)."""
        found = literal(claim)
        if found is None:
            return None
        atom, positive = found
        if atom.args or atom.pred not in self._names:
            return None
        value = self.grid.fixed.get(atom.pred)
        return value is not None and value == positive
