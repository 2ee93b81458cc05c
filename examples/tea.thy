# Seed 002's running example: the theory entails that some tea is Earl Grey.
axiom fact_1: exists x y e. Tea(x) & Bergamot(y) & Infuse(e) & Agent(e, x) & Patient(e, y)
axiom rule_2: forall x y e. Tea(x) & Bergamot(y) & Infuse(e) & Agent(e, x) & Patient(e, y)
    -> EarlGrey(x) & ~CeylonTea(x)
goal: exists x. EarlGrey(x)
