# The same knowledge does not entail that anything is Ceylon tea: expect INVALID and a countermodel.
axiom fact_1: ∃x y e. Tea x ∧ Bergamot y ∧ Infuse e ∧ Agent e x ∧ Patient e y
axiom rule_2: ∀x y e. Tea x ∧ Bergamot y ∧ Infuse e ∧ Agent e x ∧ Patient e y
    ⟶ EarlGrey x ∧ ¬CeylonTea x
goal: ∃x. CeylonTea x
