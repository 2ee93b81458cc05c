"""A story's sentences read back into what they state about a mystery world: per sentence a
formula over the world's atoms (``stated``), nothing at all (``narration``), or ``unsure``.

The sentences come from someone else (a model rewriting a case's cards), so the reader is
precise before it is wide. It finds the phrases naming the world's people, places, hours,
weapons, methods, motives and keys (``lexicon``: names, first names, surnames, roles, relations
and the generator's other words), sets aside the words that attribute a clause ("Ada says
that", ", says the vicar"), and takes what is left in one of a few frames: people somewhere at
an hour (or a body lying somewhere); two people together or apart; someone holding a weapon;
who had a key or a motive (closed, "only ...", when the clause says so); and when, where, how,
with what and why a victim died. A clause is read only when every word of it belongs to its
frame; one naming none of those things (nor a killing) is narration; anything else (a hedge, a
question, a pronoun standing for a person, a name two people share, a word the frame does not
know) is ``unsure``, with a note saying why. A witness speaks in the first person: "I", "me"
and "my" name the ``speaker``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import pairwise
from typing import Literal

from formalize.reading.lexicon import Phrase, hour_forms, person_forms, phrase
from formalize.reading.text import fold, tokens
from formalize.reading.words import COMMON
from formalize.world import atoms
from formalize.world import vocabulary as vocab
from formalize.world.facts import KeyHolders, Met, MotiveHolders, fact_formula
from formalize.world.setting import Setting
from reasoning.formula import Formula, Not, conj, disj


def _words(text: str) -> frozenset[str]:
    """The words of ``text`` (separated by spaces), as a set."""
    return frozenset(text.split())


Outcome = Literal["stated", "narration", "unsure"]
"""What a sentence is: it states facts, it states none, or the reader cannot tell."""

Kind = Literal["person", "place", "hour", "weapon", "method", "motive", "key", "house"]
Name = tuple[Kind, str]

FACT_KINDS: frozenset[str] = _words("hour weapon method motive key")
"""Kinds of name a sentence cannot mention without stating something."""

FIRST_PERSON = _words("i me my myself mine")
"""Words naming the speaker of a witness's words."""

NEGATORS = _words("not never no")
"""Words that turn a clause's fact into its denial."""

HEDGES = _words(
    "maybe perhaps possibly possible probably likely might may could would should "
    "must seems seemed appears appeared apparently think thinks thought believe "
    "believes believed suppose supposed guess rumour rumor rumoured claims claimed "
    "allegedly supposedly doubt doubts lied if unless whether either ?"
)
"""Words that leave what a clause says open (the note names them); a clause with one is
``unsure``, and so is attribution with one ("Ada thinks that ...")."""

CRIME_WORDS = _words(
    "kill killed killing killer killers murder murdered murderer murderess culprit "
    "guilty innocent alibi accused suspect suspected motive motives weapon poisoned "
    "stabbed strangled shot bludgeoned died attacked struck hit beat beaten battered "
    "choked throttled smothered drowned slain slew dispatched used"
)
"""Words about the crime that make a sentence state something even without a name."""

WHEREABOUTS_WORDS = _words(
    "alone together empty nobody anybody anyone everyone everybody someone somebody "
    "hour hours o'clock midnight later earlier afterwards meanwhile until till"
)
"""Words about who was where, with whom or when that make a sentence state something even
without a name ("He was alone", "The study was empty at that hour"); "no one" counts too."""

SPEECH = _words(
    "say says said tell tells told add adds added recall recalls recalled remember "
    "remembers remembered insist insists insisted admit admits admitted swear swears "
    "swore explain explains explained report reports reported write writes wrote "
    "declare declares declared mention mentions mentioned repeat repeats confirm "
    "confirms confirmed record records recorded note notes noted state states stated "
    "show shows showed establish established learn learned learnt found reads"
)
"""Verbs that attribute the clause after them ("the surgeon says that ...") or before them
(", says Ada")."""

DOUBTS = _words(
    "lie lies lying lied liar false falsely untrue wrong wrongly mistaken mistakenly pretend "
    "pretends pretended invent invents invented forged forgery deny denies denied nobody "
    "hardly barely scarcely rumour rumours gossip hearsay wonder wonders unreliable"
)
"""Words that make the report of a clause doubtful ("Nigel is lying when he says that")."""

ATTRIBUTION = _words(
    "the a an this his her its their my your our he she you me us him i it they them "
    "that : , is was has had have does did will can could able to also quietly firmly plainly "
    "calmly again then already certain sure quite on one thing point much well as "
    "of in from by according written down hand neat cramped careful brief short "
    "police inspector inspector's constable sergeant surgeon doctor vicar landlord manager "
    "bank postmistress editor newspaper clerk coroner coroner's stationmaster chemist "
    "dressmaker report notes note notebook diary letter ledger register daybook account "
    "book page paper sheet examination wounds wound body household servants village local "
    "family who whose crumpled folded small old torn open leather pocket"
)
"""The only words a clause's attribution may use besides a verb of saying; one outside them
leaves the attribution in the clause, where the frames will not place it."""

THAT_VERBS = _words("found learn learned learnt establish established")
"""Attribution verbs that must be followed by "that" (else "was found in the hall" would be
taken for one)."""

_PUNCTUATION = frozenset({",", ".", "!", ":", "-", "(", ")", "'", '"', "--"})
_AFTER_SPEECH = _words("that you me us him her them : ,")
_MAX_ATTRIBUTION = 14
_JOINS = _words("and but while whereas")
_CLAUSE_ENDS = _words("; . !")
_GENERAL = _words(
    "the a an that this then still also too indeed certainly definitely clearly "
    "plainly evening night was were is are am 'm been had has have did does do"
)
"""Words any frame allows: articles, auxiliaries and adverbs that add nothing to a fact."""

_BODY = _words("body corpse lay lying lies dead")
_EXCLUSIVE: tuple[Phrase, ...] = (
    ("only",),
    ("nobody", "but"),
    ("nobody", "else"),
    ("nobody", "except"),
    ("no", "one", "but"),
    ("no", "one", "else"),
    ("no", "one", "except"),
    ("none", "but"),
    ("and", "to", "nobody", "else"),
)
_PRESENCE_PHRASES: tuple[Phrase, ...] = (("could", "be", "found"), ("set", "foot"))
_MOTIVE_PHRASES: tuple[Phrase, ...] = (("will", "not", "deny", "it"), ("do", "not", "deny", "it"))
_CRIME_PHRASES: tuple[Phrase, ...] = (("took", "place"), ("out", "of"))
"""Phrases a frame reads as a whole (a denial in "I will not deny it" denies nothing)."""
_ACTIVITY = _words("reading writing working sitting standing waiting resting sleeping")
"""What someone was doing where they were, which adds nothing to where they were."""
_POSSESSED = _words("hands hand body corpse death possession killer")

_PRESENCE = (
    _BODY
    | _ACTIVITY
    | _words(
        "in inside at of spent stayed remained sat stood waited worked busy seen found "
        "present there whole hour never and together 's"
    )
)
_COMPANY = _words(
    "in at one room rooms together company kept keeping with same different "
    "separate apart from spent whole hour of and"
)
_WITH = _words("together company with same")
_APART = _words("different separate apart")
_HOLDING = _words("had held holding carrying carried hands hand in of possession at 's with")
_HOLD = _words("had have held holding carrying carried hands hand possession")
_KEYS = _words("held kept owned possessed copy copies of belonged to ever and own one")
_MOTIVE = _words(
    "motive motives reason reasons to want wanted wish wished dead enough such as "
    "of for and gave give given whole household good strong harm"
)
_CRIME = _words(
    "died death killed murdered murder attacked attack on at in of came to met his "
    "her happened whatever whoever it used weapon with by acted for killer motive "
    "reason behind crime or 's wounds wound"
)
_DEATH = _words("died death killed murdered murder attacked attack killer whoever whatever")


@dataclass(frozen=True, slots=True)
class StatementReading:
    """One sentence read: its ``outcome``, the ``formula`` it states (``stated`` only) and,
    when ``unsure``, a ``note`` saying why."""

    text: str
    outcome: Outcome
    formula: Formula | None = None
    note: str = ""


@dataclass(frozen=True, slots=True)
class _Mention:
    """Tokens ``first`` to ``last`` (exclusive) naming ``names`` (kind and id pairs)."""

    first: int
    last: int
    names: frozenset[Name]

    @property
    def kinds(self) -> frozenset[str]:
        """The kinds of thing the words may name."""
        return frozenset(kind for kind, _ in self.names)


@dataclass(frozen=True)
class _Lexicon:
    """The phrases naming a setting's things, the bare hour numbers ("eight", read only after
    "at" or in a list of hours), and which crime each victim is the victim of."""

    phrases: dict[Phrase, frozenset[Name]]
    bare: dict[Phrase, frozenset[Name]]
    victims: dict[str, int]
    last_slot: int

    @property
    def longest(self) -> int:
        """The most tokens a phrase has."""
        return max(len(p) for p in self.phrases)


def _article_free(text: str) -> set[Phrase]:
    """``text`` as a phrase, with and without its leading article."""
    found = {phrase(text)}
    for article in ("the ", "a ", "an "):
        if text.casefold().startswith(article):
            found.add(phrase(text[len(article) :]))
    return {p for p in found if p}


_SYNONYMS = frozenset({"person", "weapon", "method", "motive"})
"""Kinds whose other words may include a common word that names nothing alone."""


def _named(forms: Iterable[Phrase]) -> set[Phrase]:
    """``forms`` without a lone common word (as "will" of "the will")."""
    return {f for f in forms if f and not (len(f) == 1 and f[0] in COMMON)}


@lru_cache(maxsize=16)
def _lexicon(setting_json: str) -> _Lexicon:
    """The names of a setting's things (built once per setting, a few kept)."""
    setting = Setting.model_validate_json(setting_json)
    table: dict[Phrase, set[Name]] = {}
    bare: dict[Phrase, set[Name]] = {}

    def add(kind: Kind, key: str, forms: Iterable[Phrase]) -> None:
        for form in _named(forms) if kind in _SYNONYMS else forms:
            table.setdefault(form, set()).add((kind, key))

    for person in setting.people:
        add("person", person.id, person_forms(person, setting))
    if len(setting.crimes) == 1:
        victim = setting.crimes[0].victim
        for word in ("victim", "deceased"):
            table.setdefault((word,), set()).add(("person", victim))
    for place in setting.places:
        add("place", place.id, _article_free(place.name))
        if place.key is not None:
            name = place.name
            keys = [f"key to the {name}", f"keys to the {name}", f"key of the {name}"]
            add("key", place.key, {phrase(k) for k in [*keys, f"{name} key", f"{name} keys"]})
    for t, label in enumerate(setting.slots):
        named: set[Phrase] = set()
        numbers: set[Phrase] = set()
        if label in vocab.HOUR_CLOCK:
            named, numbers = hour_forms(vocab.HOUR_CLOCK[label])
        add("hour", str(t), {*named, phrase(label)})
        for number in numbers:
            bare.setdefault(number, set()).add(("hour", str(t)))
    for item in setting.weapons:
        add(
            "weapon",
            item.id,
            {phrase(item.name), *map(phrase, vocab.WEAPON_WORDS.get(item.name, ()))},
        )
    for key in setting.keys:
        add("key", key.id, _article_free(key.name))
    for method in setting.methods:
        words = vocab.METHOD_WORDS.get(method.id, ())
        add("method", method.id, {phrase(method.name), phrase(method.id), *map(phrase, words)})
    for motive in setting.motives:
        words = vocab.MOTIVE_WORDS.get(motive.id, ())
        add(
            "motive",
            motive.id,
            {*_article_free(motive.name), phrase(motive.id), *map(phrase, words)},
        )
    add("house", setting.title, {phrase(setting.title)})
    victims = {c.victim: i for i, c in enumerate(setting.crimes, 1)}
    return _Lexicon(
        {k: frozenset(v) for k, v in table.items()},
        {k: frozenset(v) for k, v in bare.items()},
        victims,
        len(setting.slots) - 1,
    )


def _scan(words: Sequence[str], lex: _Lexicon, speaker: str | None) -> list[_Mention]:
    """The phrases of ``words`` naming things, longest first, left to right; a bare number
    is an hour after "at" or after an hour and a comma, "or" or "and"."""
    out: list[_Mention] = []
    i = 0
    while i < len(words):
        if speaker is not None and words[i] in FIRST_PERSON:
            out.append(_Mention(i, i + 1, frozenset({("person", speaker)})))
            i += 1
            continue
        for n in range(min(lex.longest, len(words) - i), 0, -1):
            names = lex.phrases.get(tuple(words[i : i + n]))
            if names is not None:
                out.append(_Mention(i, i + n, names))
                i += n
                break
        else:
            names = lex.bare.get((words[i],))
            after_hour = (
                i >= 2
                and words[i - 1] in (",", "or", "and")
                and bool(out)
                and out[-1].last == i - 1
                and out[-1].kinds == {"hour"}
            )
            if names is not None and ((i > 0 and words[i - 1] == "at") or after_hour):
                out.append(_Mention(i, i + 1, names))
            i += 1
    return out


@dataclass
class _Clause:
    """A clause's words, the names it mentions and which words they cover."""

    words: list[str]
    mentions: list[_Mention]
    speaker: str | None
    lex: _Lexicon
    setting: Setting
    covered: set[int] = field(default_factory=set)

    def __post_init__(self) -> None:
        for m in self.mentions:
            self.covered |= set(range(m.first, m.last))

    def ids(self, kind: str) -> list[str]:
        """The distinct ids of ``kind`` mentioned, in order."""
        found = [k for m in self.mentions for (mk, k) in m.names if mk == kind]
        return list(dict.fromkeys(found))

    def of(self, kind: str) -> list[_Mention]:
        """The mentions naming only things of ``kind``."""
        return [m for m in self.mentions if m.kinds == {kind}]

    def rest(self) -> list[tuple[int, str]]:
        """The words no name covers, but punctuation."""
        return [
            (i, w)
            for i, w in enumerate(self.words)
            if i not in self.covered and w not in _PUNCTUATION
        ]

    def victims(self) -> list[str]:
        """The victims the clause names."""
        return [p for p in self.ids("person") if p in self.lex.victims]

    def suspects(self) -> list[str]:
        """The people the clause names who are no victims."""
        return [p for p in self.ids("person") if p not in self.lex.victims]


def _consume(rest: list[tuple[int, str]], seq: Phrase) -> bool:
    """Remove the first run of ``seq`` (consecutive in the clause) from ``rest``."""
    for start in range(len(rest) - len(seq) + 1):
        run = rest[start : start + len(seq)]
        if tuple(w for _, w in run) == seq and all(b[0] == a[0] + 1 for a, b in pairwise(run)):
            del rest[start : start + len(seq)]
            return True
    return False


def _joined(clause: _Clause, mentions: Sequence[_Mention], joiners: frozenset[str]) -> bool:
    """Whether consecutive ``mentions`` are joined by ``joiners`` (and articles) alone."""
    for a, b in pairwise(mentions):
        between = clause.words[a.last : b.first]
        if not between or not all(w in joiners or w in ("the", "a", "an") for w in between):
            return False
    return True


def _person_list(clause: _Clause, people: Sequence[str]) -> bool:
    """Whether the people ``people`` are named as one list ("Ada, Basil and Cora")."""
    named = [m for m in clause.of("person") if next(iter(m.names))[1] in people]
    distinct: list[_Mention] = []
    for m in named:
        if not distinct or m.names != distinct[-1].names:
            distinct.append(m)
    return len(distinct) == len(people) and _joined(clause, distinct, frozenset({",", "and"}))


FrameResult = Formula | str | None
"""A frame's reading of a clause: its formula, a note saying why it cannot read it, or None
when the clause is not of its kind."""


def _unknown(rest: Sequence[tuple[int, str]], allowed: frozenset[str]) -> str | None:
    """A note naming the first word of ``rest`` a frame allowing ``allowed`` cannot place."""
    strange = [w for _, w in rest if w not in allowed and w not in _GENERAL]
    if not strange:
        return None
    hedges = [w for w in strange if w in HEDGES]
    if hedges:
        return f"it hedges or asks ({hedges[0]!r})"
    return f"the reader cannot place the word {strange[0]!r} in a sentence of this kind"


def _polarity(rest: list[tuple[int, str]]) -> bool | str:
    """True for an affirmation, False for a denial; a note for a double denial."""
    negators = [w for _, w in rest if w in NEGATORS]
    if len(negators) > 1:
        return "it denies more than once"
    return not negators


def _presence(c: _Clause, rest: list[tuple[int, str]]) -> FrameResult:
    people, places, hours = c.ids("person"), c.ids("place"), c.ids("hour")
    if len(places) != 1 or len(hours) > 1 or c.ids("weapon") or c.ids("method"):
        return None
    if c.ids("motive") or c.ids("key"):
        return None
    body = any(w in _BODY for _, w in rest)
    if not people and body and len(c.lex.victims) == 1:
        people = list(c.lex.victims)
    if not people:
        return None
    if not hours and not body:
        return "it names no hour"
    for seq in _PRESENCE_PHRASES:
        _consume(rest, seq)
    unknown = _unknown(rest, _PRESENCE | NEGATORS)
    if unknown:
        return unknown
    if len(people) > 1 and not _person_list(c, people):
        return "it names several people in a way the reader cannot place"
    if any(w == "together" for _, w in rest) and len(people) < 2:
        return "it says 'together' of one person"
    positive = _polarity(rest)
    if isinstance(positive, str):
        return positive
    if not positive and (len(people) > 1 or body):
        return "it denies something of several people at once"
    slot = int(hours[0]) if hours else c.lex.last_slot
    place = places[0]
    if body:
        if any(p not in c.lex.victims for p in people):
            return "it speaks of a body of someone who is not a victim"
        dead = [disj(atoms.time(c.lex.victims[p], t) for t in range(slot + 1)) for p in people]
        return conj([*(atoms.at(p, place, slot) for p in people), *dead])
    found = conj(atoms.at(p, place, slot) for p in people)
    return found if positive else Not(found)


def _company(c: _Clause, rest: list[tuple[int, str]]) -> FrameResult:
    people, hours = c.ids("person"), c.ids("hour")
    if len(people) != 2 or len(hours) != 1 or c.ids("place"):
        return None
    if any(c.ids(k) for k in ("weapon", "method", "motive", "key")):
        return None
    unknown = _unknown(rest, _COMPANY | NEGATORS)
    if unknown:
        return unknown
    words = {w for _, w in rest}
    together, apart = bool(words & _WITH), bool(words & _APART)
    if together == apart:
        return "it does not say plainly whether they were together or apart"
    positive = _polarity(rest)
    if isinstance(positive, str):
        return positive
    return fact_formula(Met(people[0], people[1], int(hours[0]), together == positive), c.setting)


def _holding(c: _Clause, rest: list[tuple[int, str]]) -> FrameResult:
    people, weapons, hours, places = c.ids("person"), c.ids("weapon"), c.ids("hour"), c.ids("place")
    if len(weapons) != 1 or not people or c.ids("method") or c.ids("motive") or c.ids("key"):
        return None
    if c.victims() and not c.suspects():
        return None
    if len(people) != 1 or len(hours) != 1 or len(places) > 1:
        return "it names too many or too few people, hours or rooms for who held what"
    unknown = _unknown(rest, _HOLDING | NEGATORS)
    if unknown:
        return unknown
    if not any(w in _HOLD for _, w in rest):
        return "it does not say who held the weapon"
    positive = _polarity(rest)
    if isinstance(positive, str):
        return positive
    person, slot = people[0], int(hours[0])
    held = atoms.holds(person, weapons[0], slot)
    if places:
        if not positive:
            return "it denies something of a room and a weapon at once"
        return conj([atoms.at(person, places[0], slot), held])
    return held if positive else Not(held)


def _exclusive(rest: list[tuple[int, str]]) -> bool:
    """Whether the clause limits what it says to the people it names ("only", "nobody but");
    the words that say so are removed from ``rest``."""
    found = False
    for seq in _EXCLUSIVE:
        found = _consume(rest, seq) or found
    return found


def _holders(
    c: _Clause,
    rest: list[tuple[int, str]],
    what: str,
    allowed: frozenset[str],
    closed: Callable[[tuple[str, ...]], Formula],
    has: Callable[[str], Formula],
) -> FrameResult:
    """Who had a key or a motive: everyone named (``has``), or exactly them when the clause
    says "only" (``closed``), or one person's denial."""
    people = c.suspects()
    only = _exclusive(rest)
    unknown = _unknown(rest, allowed | NEGATORS)
    if unknown:
        return unknown
    if len(people) > 1 and not _person_list(c, people):
        return "it names several people in a way the reader cannot place"
    positive = _polarity(rest)
    if isinstance(positive, str):
        return positive
    if only:
        if not positive:
            return f"it both limits and denies who had the {what}"
        return closed(tuple(sorted(people)))
    if not positive:
        if len(people) > 1:
            return "it denies something of several people at once"
        return Not(has(people[0]))
    return conj(has(p) for p in people)


def _keys(c: _Clause, rest: list[tuple[int, str]]) -> FrameResult:
    keys = c.ids("key")
    if len(keys) != 1 or c.ids("hour") or c.ids("weapon") or c.ids("motive"):
        return None
    if not c.suspects() or c.victims() or c.ids("method"):
        return "it does not say plainly who had the key"
    key = keys[0]
    return _holders(
        c,
        rest,
        "key",
        _KEYS,
        lambda people: fact_formula(KeyHolders(key, people), c.setting),
        lambda person: atoms.has_key(person, key),
    )


def _motive(c: _Clause, rest: list[tuple[int, str]]) -> FrameResult:
    motives = c.ids("motive")
    if not motives or not c.suspects() or c.ids("hour") or c.ids("place"):
        return None
    if c.ids("weapon") or c.ids("method") or c.ids("key"):
        return None
    if len(motives) > 1:
        return "it names more than one motive for someone"
    for seq in _MOTIVE_PHRASES:
        _consume(rest, seq)
    motive = motives[0]
    return _holders(
        c,
        rest,
        "motive",
        _MOTIVE,
        lambda people: fact_formula(MotiveHolders(motive, people), c.setting),
        lambda person: atoms.has_motive(person, motive),
    )


def _crime(c: _Clause, rest: list[tuple[int, str]]) -> FrameResult:
    victims = c.victims()
    if len(victims) != 1 or c.suspects() or c.ids("key"):
        return None
    words = {w for _, w in rest}
    methods = c.ids("method")
    if not (words & _DEATH) and not methods and not c.ids("weapon"):
        return None
    crime = c.lex.victims[victims[0]]
    for seq in _CRIME_PHRASES:
        _consume(rest, seq)
    unknown = _unknown(rest, _CRIME | NEGATORS)
    if unknown:
        return unknown
    parts: list[tuple[str, list[str]]] = [
        (kind, c.ids(kind)) for kind in ("hour", "place", "method", "weapon", "motive")
    ]
    parts = [(kind, ids) for kind, ids in parts if ids]
    if not parts:
        return "it says nothing of when, where, how, with what or why"
    for kind, ids in parts:
        if len(ids) > 1:
            if kind in ("method", "weapon"):
                return f"it names more than one {kind}"
            if not _joined(c, c.of(kind), frozenset({",", "or"})):
                return f"it names several {kind}s in a way the reader cannot place"
    build: dict[str, Callable[[str], Formula]] = {
        "hour": lambda v: atoms.time(crime, int(v)),
        "place": lambda v: atoms.scene(crime, v),
        "method": lambda v: atoms.method(crime, v),
        "weapon": lambda v: atoms.weapon(crime, v),
        "motive": lambda v: atoms.motive(crime, v),
    }
    formula = conj(disj(build[kind](v) for v in ids) for kind, ids in parts)
    positive = _polarity(rest)
    if isinstance(positive, str):
        return positive
    if positive:
        return formula
    if len(parts) > 1 or len(parts[0][1]) > 1:
        return "it denies more than one thing at once"
    return Not(formula)


_FRAMES: tuple[Callable[[_Clause, list[tuple[int, str]]], FrameResult], ...] = (
    _presence,
    _company,
    _holding,
    _keys,
    _motive,
    _crime,
)
"""Every frame a clause may be read in; a clause is read when exactly one reads it."""


def _possessive_problem(c: _Clause) -> str | None:
    """A name's possessive the frames cannot read ("Ada's cousin", "my brother")."""
    owners = {m.last for m in c.mentions if m.kinds == {"person"}}
    for i, w in enumerate(c.words):
        after = c.words[i + 1] if i + 1 < len(c.words) else ""
        if w == "'s" and i in owners and after not in _POSSESSED:
            return "it names someone's relation or belonging the reader cannot place"
        if w in ("my", "his", "her", "their", "'s") and any(
            m.first == i + 1 and "person" in m.kinds for m in c.mentions
        ):
            return "it names a person through someone else"
    return None


class StatementReader:
    """Reads sentences about the world of ``setting`` (see the module docstring)."""

    def __init__(self, setting: Setting) -> None:
        self.setting = setting
        self._lex = _lexicon(setting.model_dump_json())

    def read(self, sentence: str, speaker: str | None = None) -> StatementReading:
        """What ``sentence`` states, its first person naming ``speaker`` (a person id) when
        given."""
        words = [t.word for t in tokens(fold(sentence)) if t.word not in ('"', "'")]
        covered = {i for m in _scan(words, self._lex, speaker) for i in range(m.first, m.last)}
        clauses: list[list[str]] = [[]]
        for i, w in enumerate(words):
            if w in _CLAUSE_ENDS and i not in covered:
                clauses.append([])
            else:
                clauses[-1].append(w)
        formulas: list[Formula] = []
        for part in clauses:
            if not part:
                continue
            found = self._clause(part, speaker)
            if isinstance(found, str):
                halves = self._halves(part, speaker)
                if halves is None:
                    return StatementReading(sentence, "unsure", note=found)
                formulas += halves
            elif found is not None:
                formulas.append(found)
        if not formulas:
            return StatementReading(sentence, "narration")
        return StatementReading(sentence, "stated", conj(formulas))

    def _halves(self, words: list[str], speaker: str | None) -> list[Formula] | None:
        """The formulas of a clause cut at ", and" or ", but" when every part states something
        read on its own ("Ada was in the hall at six, and Basil had the rope at seven"), else
        None (a part that states nothing may lean on the others: ", and he used it")."""
        cuts = [i for i in range(1, len(words) - 1) if words[i] == "," and words[i + 1] in _JOINS]
        if not cuts:
            return None
        bounds = [0, *cuts, len(words)]
        out: list[Formula] = []
        for lo, hi in pairwise(bounds):
            part = words[lo:hi]
            if part and part[0] == ",":
                part = part[2:]
            found = self._clause(part, speaker) if part else None
            if found is None or isinstance(found, str):
                return None
            out.append(found)
        return out

    def _bearing(
        self, mentions: Sequence[_Mention], words: Sequence[str], speaker: str | None
    ) -> bool:
        """Whether a clause with ``mentions`` says something of the world (else narration: it
        names at most the speaker or a victim, or places with no person, and speaks of no
        killing, company, absence or hour)."""
        kinds = {k for m in mentions for k in m.kinds} - {"house"}
        people = {key for m in mentions for kind, key in m.names if kind == "person"}
        allowed = set(self._lex.victims) | ({speaker} if speaker else set())
        if kinds & FACT_KINDS or people - allowed:
            return True
        if "place" in kinds and (people or any(w in _BODY for w in words)):
            return True
        if any(pair == ("no", "one") for pair in pairwise(words)):
            return True
        return any(w in CRIME_WORDS or w in WHEREABOUTS_WORDS for w in words)

    def _attribution(self, c: _Clause) -> tuple[int, int] | str:
        """The span of the clause left once the words attributing it are set aside, or a note
        when they doubt or deny it."""
        words, start, end = c.words, 0, len(c.words)

        def clean(lo: int, hi: int) -> bool | str:
            """Whether ``words[lo:hi]`` only attribute (a note when they doubt or deny)."""
            inside = [m for m in c.mentions if m.first >= lo and m.last <= hi]
            own = frozenset({("person", c.speaker)})
            if not all(m.names == own or m.kinds <= {"house", "place"} for m in inside):
                return False
            named = {i for m in inside for i in range(m.first, m.last)}
            rest = [w for i, w in enumerate(words[lo:hi], lo) if i not in named]
            rest = [w for w in rest if w not in _PUNCTUATION]
            if any(w in HEDGES or w in NEGATORS or w in DOUBTS for w in rest):
                return "the words that report it doubt or deny it"
            return all(w in ATTRIBUTION or w in SPEECH for w in rest)

        verbs = [
            s
            for s in range(min(len(words) - 1, _MAX_ATTRIBUTION))
            if words[s] in SPEECH
            and s not in c.covered
            and (words[s] not in THAT_VERBS or words[s + 1] in ("that", ":"))
        ]
        verbs.sort(key=lambda s: words[s + 1] not in ("that", ":"))
        for s in verbs:
            ok = clean(0, s + 1)
            if isinstance(ok, str):
                return ok
            if ok:
                start = s + 1
                while start < len(words) and words[start] in _AFTER_SPEECH:
                    start += 1
                break
        if words[:2] == ["according", "to"] and "," in words:
            comma = words.index(",")
            ok = clean(0, comma)
            if isinstance(ok, str):
                return ok
            if ok:
                start = max(start, comma + 1)
        commas = [i for i, w in enumerate(words) if w == "," and i >= start]
        if commas:
            tail = commas[-1]
            if any(w in SPEECH for w in words[tail + 1 :]) and len(words) - tail <= 12:
                ok = clean(tail + 1, len(words))
                if isinstance(ok, str):
                    return ok
                if ok:
                    end = tail
        return start, end

    def _clause(self, words: list[str], speaker: str | None) -> Formula | str | None:
        """A clause's formula, a note when it cannot be read, or None for narration."""
        mentions = _scan(words, self._lex, speaker)
        if not self._bearing(mentions, words, speaker):
            return None
        words = [
            "no," if w == "no" and (i + 1 == len(words) or words[i + 1] in _PUNCTUATION) else w
            for i, w in enumerate(words)
        ]
        whole = _Clause(words, mentions, speaker, self._lex, self.setting)
        span = self._attribution(whole)
        if isinstance(span, str):
            return span
        lo, hi = span
        core = [m for m in mentions if m.first >= lo and m.last <= hi]
        shifted = [_Mention(m.first - lo, m.last - lo, m.names) for m in core]
        c = _Clause(words[lo:hi], shifted, speaker, self._lex, self.setting)
        strange = next((m for m in c.mentions if len(m.names) > 1), None)
        if strange is not None:
            said = " ".join(c.words[strange.first : strange.last])
            return f"the words {said!r} could name more than one thing"
        if any(m.kinds == {"house"} for m in c.mentions):
            return "it names the house where a room is wanted"
        problem = _possessive_problem(c)
        if problem is not None:
            return problem
        readings: list[Formula] = []
        notes: list[str] = []
        for frame in _FRAMES:
            found = frame(c, c.rest())
            if isinstance(found, str):
                notes.append(found)
            elif found is not None:
                readings.append(found)
        if len(readings) == 1:
            return readings[0]
        if len(readings) > 1:
            return "it can be read in more than one way"
        return notes[0] if notes else "it names things of the case in no way the reader knows"
