"""Word pools a generated mystery draws from: names, roles, places, weapons, motives, times."""

from __future__ import annotations

FIRST_NAMES: tuple[str, ...] = (
    "Ada",
    "Basil",
    "Cora",
    "Desmond",
    "Edith",
    "Felix",
    "Greta",
    "Hugo",
    "Irene",
    "Jasper",
    "Kitty",
    "Lionel",
    "Maud",
    "Nigel",
    "Olive",
    "Percy",
    "Rosalind",
    "Silas",
    "Tabitha",
    "Victor",
    "Winifred",
    "Alfred",
    "Beatrix",
    "Cecil",
)
SURNAMES: tuple[str, ...] = (
    "Ashby",
    "Blackwood",
    "Carrow",
    "Dunmore",
    "Ellery",
    "Fenwick",
    "Garland",
    "Hale",
    "Ingram",
    "Jessop",
    "Kettering",
    "Lisle",
    "Marsh",
    "Northcote",
    "Orme",
    "Pryce",
)
ROLES: tuple[str, ...] = (
    "the butler",
    "the cook",
    "the gardener",
    "the family solicitor",
    "the housekeeper",
    "the chauffeur",
    "a visiting cousin",
    "the private secretary",
    "the nurse",
    "the tutor",
    "an old army friend",
    "the stable master",
)
VICTIM_ROLES: tuple[str, ...] = (
    "the master of the house",
    "a wealthy widow",
    "a retired colonel",
    "a shipping magnate",
    "a celebrated novelist",
)
PLACES: tuple[str, ...] = (
    "hall",
    "library",
    "study",
    "kitchen",
    "pantry",
    "cellar",
    "conservatory",
    "ballroom",
    "dining room",
    "drawing room",
    "billiard room",
    "gun room",
    "chapel",
    "greenhouse",
    "stables",
    "boathouse",
    "gatehouse",
    "orchard",
    "rose garden",
    "terrace",
    "attic",
    "nursery",
    "laundry",
    "music room",
    "observatory",
)
WEAPONS: tuple[tuple[str, str], ...] = (
    ("carving knife", "stabbing"),
    ("letter opener", "stabbing"),
    ("candlestick", "bludgeoning"),
    ("fire poker", "bludgeoning"),
    ("silk cord", "strangling"),
    ("curtain rope", "strangling"),
    ("vial of arsenic", "poisoning"),
    ("bottle of laudanum", "poisoning"),
    ("service revolver", "shooting"),
    ("hunting rifle", "shooting"),
)
METHODS: dict[str, str] = {
    "stabbing": "stabbed with a blade",
    "bludgeoning": "struck with a heavy object",
    "strangling": "strangled with a cord",
    "poisoning": "poisoned",
    "shooting": "shot",
}
MOTIVES: tuple[tuple[str, str], ...] = (
    ("inheritance", "a place in the will"),
    ("debt", "debts owed to the victim"),
    ("jealousy", "jealousy over a love affair"),
    ("revenge", "an old wrong to avenge"),
    ("blackmail", "being blackmailed by the victim"),
    ("dismissal", "a threatened dismissal"),
    ("rivalry", "a business rivalry"),
)
RELATIONS: tuple[str, ...] = (
    "employer",
    "cousin",
    "sibling",
    "old friend",
    "creditor",
    "rival",
    "former fiance",
)
HOUSES: tuple[str, ...] = (
    "Ravensmoor Hall",
    "Thornfield Grange",
    "Ashcombe Manor",
    "Bellhaven House",
    "Wychwood Court",
    "Greyfriars Lodge",
)
HOURS: tuple[str, ...] = (
    "six o'clock",
    "seven o'clock",
    "eight o'clock",
    "nine o'clock",
    "ten o'clock",
    "eleven o'clock",
    "midnight",
    "one in the morning",
)

ROLE_WORDS: dict[str, tuple[str, ...]] = {
    "the butler": (),
    "the cook": (),
    "the gardener": (),
    "the family solicitor": ("solicitor", "lawyer"),
    "the housekeeper": (),
    "the chauffeur": ("driver",),
    "a visiting cousin": ("cousin",),
    "the private secretary": ("secretary",),
    "the nurse": (),
    "the tutor": (),
    "an old army friend": ("army friend", "friend"),
    "the stable master": ("stablemaster", "groom"),
    "the master of the house": ("master",),
    "a wealthy widow": ("widow",),
    "a retired colonel": ("colonel",),
    "a shipping magnate": ("magnate",),
    "a celebrated novelist": ("novelist",),
}
"""Other words an answer may use for a role (the role's own words, without its article, always
count): "his secretary" for the private secretary."""

RELATION_WORDS: dict[str, tuple[str, ...]] = {
    "employer": ("boss",),
    "cousin": (),
    "sibling": ("brother", "sister"),
    "old friend": ("friend",),
    "creditor": ("lender",),
    "rival": (),
    "former fiance": ("ex-fiance", "ex fiance", "fiance", "fiancee"),
}
"""Other words for how a person stands to the victim ("her brother" for a sibling)."""

WEAPON_WORDS: dict[str, tuple[str, ...]] = {
    "carving knife": ("knife", "kitchen knife", "carver"),
    "letter opener": ("opener", "paper knife", "paperknife"),
    "candlestick": ("candle stick", "candlesticks", "candleholder"),
    "fire poker": ("poker",),
    "silk cord": ("cord", "silken cord"),
    "curtain rope": ("rope", "curtain cord"),
    "vial of arsenic": ("arsenic", "vial"),
    "bottle of laudanum": ("laudanum",),
    "service revolver": ("revolver", "pistol", "handgun", "gun"),
    "hunting rifle": ("rifle", "gun"),
}
"""Other words for each weapon; a word two weapons of a case share ("gun") names neither."""

METHOD_WORDS: dict[str, tuple[str, ...]] = {
    "stabbing": ("stabbed", "stab", "stabs", "knifed", "stab wound", "stab wounds", "knife wound"),
    "bludgeoning": (
        "bludgeoned",
        "struck down",
        "struck over the head",
        "beaten",
        "battered",
        "clubbed",
        "bashed",
        "blunt force",
        "blunt instrument",
        "blow to the head",
        "hit over the head",
        "heavy object",
    ),
    "strangling": ("strangled", "strangle", "strangulation", "throttled", "garrotted", "choked"),
    "poisoning": ("poisoned", "poison", "overdose", "overdosed"),
    "shooting": ("shot", "gunshot", "shot dead", "gunned down", "bullet", "bullet wound"),
}
"""Other words for each method of killing."""

MOTIVE_WORDS: dict[str, tuple[str, ...]] = {
    "inheritance": (
        "inherit",
        "inheriting",
        "the will",
        "legacy",
        "bequest",
        "fortune",
    ),
    "debt": ("debts", "owed", "owing", "owed money", "money owed", "unpaid loan", "loan"),
    "jealousy": ("jealous", "love affair", "affair", "lover", "envy of a lover"),
    "revenge": (
        "vengeance",
        "avenge",
        "avenged",
        "old wrong",
        "grudge",
        "retribution",
        "spite",
        "get even",
        "getting even",
        "payback",
    ),
    "blackmail": ("blackmailed", "blackmailing", "blackmailer", "extortion", "hush money"),
    "dismissal": (
        "dismissed",
        "dismiss",
        "sacked",
        "sacking",
        "the sack",
        "sack him",
        "sack her",
        "fire him",
        "fire her",
        "lose his job",
        "lose her job",
        "lose his position",
        "lose her position",
        "losing his job",
        "losing her job",
        "losing his position",
        "losing her position",
    ),
    "rivalry": ("rival", "business rival", "competitor", "rivals"),
}
"""Other words for each motive ("he was about to be sacked" for a threatened dismissal)."""

HOUR_CLOCK: dict[str, int] = {
    "six o'clock": 18,
    "seven o'clock": 19,
    "eight o'clock": 20,
    "nine o'clock": 21,
    "ten o'clock": 22,
    "eleven o'clock": 23,
    "midnight": 0,
    "one in the morning": 1,
}
"""Each hour's time on the 24-hour clock: the evening hours of a case read "8 pm" or "20:00"."""
