"""The offline reader's function words: negation, hedges, "I don't know", verbs of killing,
and the common words an answer may use without naming anything.

These are the reader's own grammar; the words for the case's people, weapons, methods, motives
and hours come from the world (``formalize.world.vocabulary``) through ``lexicon``.
"""

from __future__ import annotations

NEGATORS = frozenset(
    {"not", "never", "cannot", "neither", "nor", "no", "without", "except", "excluding"}
)
"""Words that deny what follows them in their clause."""

NEGATING_PAIRS = frozenset({("rather", "than"), ("instead", "of"), ("other", "than"),
                            ("apart", "from")})
"""Two-word leads that deny what follows."""

AUXILIARIES = frozenset(
    {"did", "does", "do", "was", "is", "were", "are", "could", "can", "would", "will", "had",
     "has", "have", "should", "might", "must", "may"}
)
"""Verbs after which ``not`` denies the clause's subject ("Hugo did not do it")."""

CLEARED = frozenset({"innocent", "cleared", "alibi", "excluded", "eliminated", "guiltless"})
"""Words that deny the subject they follow ("Hugo is innocent")."""

NOT_A_DENIAL = frozenset({"sure", "certain", "clear", "known", "entirely", "quite", "only",
                          "completely", "totally"})
"""Words after which ``not`` hedges or widens instead of denying ("not sure", "not only")."""

WEAK_HEDGES = frozenset(
    {"maybe", "perhaps", "possibly", "possible", "conceivably", "might", "may", "could",
     "unsure", "uncertain", "guessing"}
)
"""Words that leave a named option open ("maybe Felix"); "could not" denies instead."""

ALTERNATIVES = frozenset({"or", "either", "whether"})
"""Words that make options named together alternatives rather than a list."""

WITNESS_VERBS = frozenset(
    {"found", "finds", "discovered", "discovers", "saw", "sees", "seen", "heard", "witnessed",
     "reported", "noticed", "called", "alerted", "raised", "screamed", "fainted", "arrived",
     "entered", "returned", "tried", "informed", "told", "warned", "suspected", "suspects",
     "accused", "accuses", "blamed", "blames", "says", "said", "claims", "claimed", "thinks",
     "thought", "believes", "believed", "knew", "knows", "helped", "loved", "hated"}
)
"""Verbs whose subject is a bystander, not the killer ("Hugo found the body")."""

UNKNOWN = (
    ("do", "not", "know"),
    ("does", "not", "know"),
    ("did", "not", "know"),
    ("no", "idea"),
    ("no", "clue"),
    ("not", "a", "clue"),
    ("not", "sure"),
    ("not", "certain"),
    ("can", "not", "tell"),
    ("cannot", "tell"),
    ("can", "not", "say"),
    ("cannot", "say"),
    ("cannot", "be", "determined"),
    ("can", "not", "be", "determined"),
    ("hard", "to", "say"),
    ("impossible", "to", "say"),
    ("not", "enough"),
    ("insufficient",),
    ("unknown",),
    ("unclear",),
    ("undetermined",),
    ("unsure",),
    ("uncertain",),
    ("n", "/", "a"),
    ("no", "answer"),
    ("none",),
    ("nobody",),
    ("no", "one"),
    ("pass",),
    ("?",),
)
"""Word sequences that say the answer gives no answer."""

KILL_VERBS = frozenset(
    {"killed", "kill", "kills", "killing", "murdered", "murder", "murders", "shot", "shoot",
     "shoots", "stabbed", "stab", "stabs", "poisoned", "poison", "poisons", "strangled",
     "strangle", "strangles", "bludgeoned", "slew", "slain", "smothered", "drowned", "attacked",
     "struck", "hit", "clubbed", "throttled", "choked", "beat", "beaten", "battered", "knifed",
     "finished", "dispatched"}
)
"""Verbs whose subject is the killer and whose object the victim."""

BE = frozenset({"was", "were", "is", "been", "got", "being", "be"})
"""Forms of "to be" (and "got") that make a kill verb passive."""

SUBORDINATORS = frozenset(
    {"because", "since", "as", "who", "whom", "whose", "which", "when", "while", "whilst",
     "after", "before", "for", "over", "though"}
)
"""Words that open a clause saying something other than who did it ("Felix, because Hugo...")."""

CLAUSE_BREAKS = frozenset(
    {",", ";", ":", ".", "!", "?", "-", "(", ")", "[", "]", "\"", "but", "however",
     "although", "whereas", "yet", "rather", "instead", "and", "or"}
)
"""Tokens that close the scope of a denial, unless a coordination carries it on."""

SENTENCE_ENDS = frozenset({".", "!", "?", ";"})
"""Tokens that end a sentence."""

EVERYONE = frozenset({"everyone", "anyone", "anybody", "everybody", "all", "nobody"})
"""Words after which ``but`` means "except" ("anyone but Felix")."""

TIME_LEADS = frozenset(
    {"at", "around", "about", "approximately", "roughly", "circa", "near", "nearly", "shortly",
     "just", "~", "approx", "between"}
)
"""Words after which a bare number reads as an hour ("at eight")."""

TIME_LIMITS = frozenset({"before", "after", "until", "till", "by", "past", "since", "to", "from"})
"""Words that bound an hour instead of naming it ("after eight")."""

KIN = frozenset(
    {"wife", "husband", "son", "daughter", "brother", "sister", "father", "mother", "cousin",
     "friend", "secretary", "servant", "lover", "partner", "nephew", "niece", "maid",
     "accomplice", "employer", "fiance", "fiancee", "uncle", "aunt", "widow", "heir", "family",
     "child", "children", "man", "woman", "valet", "twin", "boss", "colleague"}
)
"""Nouns for people: "Hugo's brother" names someone else than Hugo."""

COMMON = frozenset(
    """a an the and or but if then than that this these those there here it its it's itself
    i me my mine we our us you your he him his himself she her hers herself they them their
    theirs themselves one ones someone somebody something anything everything nothing other
    others another each every both all any some such own same so very too also just only even
    still again already yet ever quite rather really most more much many few less least
    be am is are was were been being have has had having do does did doing done will would
    shall should can could may might must ought of in on at to for from by with without
    about above across after against along among around before behind below beneath beside
    between beyond during except inside into near off onto out outside over past since
    through throughout toward towards under until up upon within via per
    who whom whose which what when where why how whoever whatever
    not no nor never none yes
    because as while whilst though although whereas however therefore thus hence so
    answer answers case question questions guess think believe suspect suppose reckon say
    said says seem seems seemed appear appears appeared clearly obviously surely certainly
    probably likely unlikely most definitely undoubtedly presumably apparently evidently
    indeed truly actually simply then later earlier soon
    killer murderer culprit perpetrator person suspect suspects murder murders killing crime
    motive motives reason reasons weapon weapons method means way time hour hours moment
    o'clock oclock clock pm am evening night morning afternoon
    death died die dies dead body victim victims scene room house household member members
    manor hall lodge grange court
    did do done doing make made get got go went gone come came take took taken use used using
    want wanted wants need needed kill killed fatal blow blows deed act acted
    know known tell told see seen saw find found look looked show shows showed
    sure certain fact facts evidence clue clues whole story
    first second third last final alone together""".split()
)
"""Common words an answer may use without naming an option."""
