"""gumshoe in inspect_ai (the optional extra ``[inspect]``): every game as an inspect task scored
by the gumshoe audit, and gumshoe runs written as inspect eval logs. Nothing outside this package
imports inspect_ai."""
