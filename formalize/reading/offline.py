"""The offline reader: deterministic, no model, and precise: where it cannot place the words it
says ``unsure`` rather than guess.

It finds the phrases that name options (``lexicon``; a misspelt name within a small edit
distance counts) and the other things of the case the answer speaks of (people, weapons, hours,
places), cuts the answer into clauses and reads each with a small grammar over its word
categories (``frames``). An option is asserted only where its clause parses and puts it where an
answer stands; known words that deny or doubt reject it ("Hugo is innocent", "Hugo can be ruled
out"); hedges and alternatives offer it among others ("maybe Hugo", "Hugo or Felix"); a clause
the grammar cannot read leaves every slot ``unsure`` ("the police think Hugo Marsh, but I
disagree"), except an explanation ("Hugo Marsh, because he needed money"), which does so only
for the options it names, or for its sentence when it holds a word that denies or doubts. A
question, a name two options share, someone else's relation ("Hugo's brother") or the victim of
a killing are ``unclear``. A slot the text says nothing about is ``none``, unless the text holds
words the reader does not know: then it may be about that slot, and the slot is ``unsure``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from formalize.reading import words as w
from formalize.reading.frames import Clause, Symbol, View, read_clause, split
from formalize.reading.fuzzy import allowed_edits, edit_distance, nearest
from formalize.reading.lexicon import (
    LETTER_KIND,
    PERSON_KINDS,
    SlotLexicon,
    slot_lexicon,
    world_lexicons,
    world_words,
)
from formalize.reading.reading import Evidence, Outcome, Reading, SlotReading, Stance
from formalize.reading.task import ReadingTask
from formalize.reading.text import MAX_CHARS, Token, fold, tokens
from formalize.world.setting import Setting

Role = Literal["option", "outsider", "victim"]

_GRAMMAR_WORDS = frozenset(w.CATEGORIES) | frozenset(word for seq in w.UNKNOWN for word in seq)
_TITLES = frozenset({"mr", "mrs", "ms", "dr", "st"})
_POSITIVE = frozenset({"asserted", "hedged"})
_HEDGING = frozenset({"HEDGE", "LIKELY", "OR", "EITHER"})
"""Categories of the words by which a clause naming no option hedges its sentence ("Hugo
Marsh, maybe", "Hugo Marsh, or someone else")."""


@dataclass
class Mention:
    """Words naming things of one slot (``slot``; None for a thing of the case no slot asks
    about): token indices ``first`` to ``last`` (exclusive), the options they name, the kind of
    thing, and how the text takes them (``view``: unclear until a clause is read)."""

    slot: str | None
    kind: str
    options: frozenset[str]
    first: int
    last: int
    role: Role
    bare: bool = False
    view: View = "unclear"


@dataclass
class _Prepared:
    """A task's lexicons and known words, built once per task."""

    lexicons: list[SlotLexicon]
    world: list[SlotLexicon]
    known: frozenset[str]
    targets: tuple[str, ...]


@dataclass
class _Text:
    """One answer as tokens, with its sentences and the marks the reader found."""

    raw: str
    toks: list[Token]
    words: list[str]
    strange: list[bool]
    sentence: list[int] = field(default_factory=list)
    covered: set[int] = field(default_factory=set)
    unknown: list[tuple[int, int]] = field(default_factory=list)


class OfflineReader:
    """The offline reader of answers in words; ``world`` is the case's setting, when known (its
    people, roles, relations and the generator's words for its weapons, methods, motives and
    hours)."""

    name = "offline"

    def __init__(self, world: Setting | None = None) -> None:
        self.world = world
        self._prepared: dict[str, _Prepared] = {}

    def _prepare(self, task: ReadingTask) -> _Prepared:
        key = task.model_dump_json()
        if key not in self._prepared:
            lexicons = [slot_lexicon(s, self.world) for s in task.slots]
            known = world_words(self.world, task)
            targets = tuple(sorted(k for k in known if k.isalpha() and len(k) >= 5))
            world = world_lexicons(self.world)
            self._prepared[key] = _Prepared(lexicons, world, known, targets)
        return self._prepared[key]

    def read(self, task: ReadingTask, text: str) -> Reading:
        """Read ``text`` as an answer to ``task``: one slot reading per slot."""
        if len(text) > MAX_CHARS:
            note = f"the answer is longer than {MAX_CHARS} characters"
            return Reading(
                reader=self.name,
                slots=[SlotReading(slot=s.name, outcome="unsure", note=note) for s in task.slots],
            )
        prepared = self._prepare(task)
        parsed = _parse(text, prepared)
        mentions = {lex.slot: _mentions(lex, parsed) for lex in prepared.lexicons}
        for found in mentions.values():
            for m in found:
                parsed.covered |= set(range(m.first, m.last))
        things = _things(prepared.world, parsed)
        _sentences(parsed)
        _unknown_marks(parsed)
        for lex in prepared.lexicons:
            if lex.kind == "time":
                _settle_bare(mentions[lex.slot], parsed)
        _settle_bare([m for m in things if m.kind == "time"], parsed)
        every = [m for found in mentions.values() for m in found]
        unread = _read_clauses(parsed, every, things, prepared.known)
        unexplained = _unexplained(parsed, prepared.known)
        slots = [
            _decide(lex, mentions[lex.slot], parsed, unexplained, unread)
            for lex in prepared.lexicons
        ]
        return Reading(reader=self.name, slots=slots)


def _known(word: str, prepared: _Prepared) -> bool:
    return word in prepared.known or word in w.COMMON or word in _GRAMMAR_WORDS


def _parse(text: str, prepared: _Prepared) -> _Text:
    """Tokens of ``text``, a title's full stop dropped, unknown words near a known one
    corrected."""
    toks = tokens(fold(text))
    toks = [
        t for i, t in enumerate(toks) if not (t.word == "." and i and toks[i - 1].word in _TITLES)
    ]
    words = []
    for t in toks:
        word = t.word
        if not _known(word, prepared):
            capital = text[t.start : t.start + 1].isupper()
            if capital or len(word) >= 7:
                word = nearest(word, prepared.targets) or word
        words.append(word)
    strange = [word.isalpha() and not _known(word, prepared) for word in words]
    return _Text(raw=text, toks=toks, words=words, strange=strange)


def _mentions(lex: SlotLexicon, parsed: _Text) -> list[Mention]:
    """The slot's phrases in the text, longest first, left to right, not overlapping; a phrase
    of two words or more with one of them misspelt counts."""
    words, out, i = parsed.words, [], 0
    longest = lex.longest
    while i < len(words):
        for n in range(min(longest, len(words) - i), 0, -1):
            key = tuple(words[i : i + n])
            found = _lookup(lex, key, i, n) or _misspelt(lex, key, parsed.strange[i : i + n], i)
            if found is not None:
                out.append(found)
                i += n
                break
        else:
            i += 1
    return out


def _lookup(lex: SlotLexicon, key: tuple[str, ...], i: int, n: int) -> Mention | None:
    slot, kind = lex.slot, lex.kind
    if key in lex.phrases:
        return Mention(slot, kind, frozenset(lex.phrases[key]), i, i + n, "option")
    if key in lex.bare:
        return Mention(slot, kind, frozenset(lex.bare[key]), i, i + n, "option", bare=True)
    if key in lex.victims:
        return Mention(slot, kind, frozenset(), i, i + n, "victim")
    if key in lex.outsiders:
        return Mention(slot, kind, frozenset(), i, i + n, "outsider")
    return None


def _misspelt(
    lex: SlotLexicon, key: tuple[str, ...], strange: Sequence[bool], i: int
) -> Mention | None:
    """A phrase of the slot that ``key`` spells but for one word the reader does not know, which
    is within a small edit distance of the phrase's word there ("the servce revolver", "Cecil
    Mash"); the options of every such phrase."""
    if len(key) < 2 or sum(strange) != 1:
        return None
    k = list(strange).index(True)
    options: set[str] = set()
    for words, named in lex.phrases.items():
        if len(words) != len(key) or words[:k] != key[:k] or words[k + 1 :] != key[k + 1 :]:
            continue
        target = words[k]
        limit = allowed_edits(target)
        if len(target) >= 4 and edit_distance(key[k], target, limit) <= limit:
            options |= named
    if not options:
        return None
    return Mention(lex.slot, lex.kind, frozenset(options), i, i + len(key), "option")


def _things(world: list[SlotLexicon], parsed: _Text) -> list[Mention]:
    """The case's people, weapons, methods, motives, hours and places the text names where no
    slot's phrase does."""
    out = []
    for lex in world:
        for m in _mentions(lex, parsed):
            if not parsed.covered.intersection(range(m.first, m.last)):
                m.slot = None
                out.append(m)
    out.sort(key=lambda m: (m.first, m.first - m.last))
    kept: list[Mention] = []
    for m in out:
        if not kept or m.first >= kept[-1].last:
            kept.append(m)
    return kept


def _sentences(parsed: _Text) -> None:
    """Number each token's sentence (a full stop inside a phrase, as in "p.m.", ends none)."""
    index = 0
    for i, word in enumerate(parsed.words):
        parsed.sentence.append(index)
        if word in w.SENTENCE_ENDS and i not in parsed.covered:
            index += 1


def _unknown_marks(parsed: _Text) -> None:
    """Where the text says it has no answer ("I don't know", "no idea", "unclear")."""
    words = parsed.words
    for i in range(len(words)):
        for seq in w.UNKNOWN:
            if tuple(words[i : i + len(seq)]) == seq and i not in parsed.covered:
                lone = ("none",), ("no", "one"), ("nobody",)
                if seq in lone and _starts_list(parsed, i + len(seq)):
                    continue
                if _no_doubt(words, i):
                    continue
                parsed.unknown.append((i, i + len(seq)))
                break


def _starts_list(parsed: _Text, after: int) -> bool:
    """Whether "none"/"no one" ending before ``after`` begins "none of ...", "no one but ..." or
    "none other than ..." (not a non-answer alone)."""
    return after < len(parsed.words) and parsed.words[after] in ("of", "but", "except", "other")


def _no_doubt(words: list[str], i: int) -> bool:
    """A doubt denied ("no doubt", "without doubt", "beyond doubt"): certainty, not a hedge."""
    return words[i] == "doubt" and i > 0 and words[i - 1] in ("no", "without", "beyond")


def _settle_bare(found: list[Mention], parsed: _Text) -> None:
    """Mark the bare numbers that name no hour ``ignored``. Mentions joined by "or", "and" or
    a comma make a chain ("seven or eight o'clock"); a chain's bare numbers name hours when it
    holds a written-out hour, follows "at", "around", "between", "after"..., or stands alone
    between punctuation."""
    words = parsed.words
    ends = {",", ";", ":", ".", "!", "?", "(", ")", "-", '"'}
    chains: list[list[Mention]] = []
    for m in found:
        if chains and _joined(words, chains[-1][-1].last, m.first):
            chains[-1].append(m)
        else:
            chains.append([m])
    for chain in chains:
        if not any(m.bare for m in chain):
            continue
        first, last = chain[0].first, chain[-1].last
        lead = words[first - 1] if first else ""
        alone = (not lead or lead in ends) and (last >= len(words) or words[last] in ends)
        named = any(not m.bare for m in chain)
        if not (named or alone or lead in w.TIME_LEADS or lead in w.TIME_LIMITS):
            for m in chain:
                if m.bare:
                    m.view = "ignored"


def _joined(words: list[str], end: int, start: int) -> bool:
    """Whether the tokens from ``end`` to ``start`` only join two mentions ("or", ", or")."""
    between = words[end:start]
    return 0 < len(between) <= 2 and all(t in ("or", "and", ",", "nor") for t in between)


def _terminal(m: Mention) -> str:
    """The grammar's terminal for a mention."""
    if m.view == "ignored" and m.bare:
        return "NUM"
    if m.role == "victim":
        return "VICTIM"
    if m.kind in PERSON_KINDS or m.role == "outsider":
        return "PERSON"
    if m.kind == LETTER_KIND:
        return "LETTER"
    if m.kind in ("weapon", "method", "motive", "time", "place"):
        return m.kind.upper()
    return "OPTION"


def _symbols(
    parsed: _Text,
    clause: Clause,
    starts: dict[int, int],
    every: list[Mention],
    known: frozenset[str],
) -> list[Symbol]:
    """The clause as the grammar's symbols: each phrase of the case one terminal, each other
    word its category (``NOUN`` for another word of the case, ``UNK`` for an unknown one)."""
    out: list[Symbol] = []
    i = clause.first
    while i < clause.last:
        if i in starts:
            m = every[starts[i]]
            out.append((_terminal(m), starts[i]))
            i = m.last
            continue
        word = parsed.words[i]
        category = w.CATEGORIES.get(word) or ("NOUN" if word in known else "UNK")
        out.append((category, None))
        i += 1
    return out


def _read_clauses(
    parsed: _Text, mentions: list[Mention], things: list[Mention], known: frozenset[str]
) -> list[str]:
    """Read every clause and set each mention's view: where phrases naming different options
    overlap ("strangled with a cord", a method, holding "cord", a weapon) both are unclear, and
    so is a mention in a question; a clause naming no option that hedges ("maybe", "or
    someone else") hedges every option the answer offers, and a relative clause or a reason that
    denies or doubts makes them unclear (what it speaks of is elsewhere), as a lone "no" makes
    every option named before it ("Hugo Marsh, no."). Return the clauses the
    grammar could not read, other than reasons: they may take back anything, so every slot is
    unsure."""
    every = mentions + things
    starts: dict[int, int] = {}
    owner: dict[int, Mention] = {}
    clashed: list[Mention] = []
    for index, m in enumerate(every):
        span = range(m.first, m.last)
        held = [owner[i] for i in span if i in owner]
        if held:
            _set([m], "unclear")
            clashed += [o for o in held if (o.slot, o.options) != (m.slot, m.options)]
            continue
        starts[m.first] = index
        owner.update(dict.fromkeys(span, m))
    taken = set(owner)
    unread: list[str] = []
    hedged = doubted = False
    refused = -1
    later: list[tuple[Clause, list[Mention]]] = []
    for clause in split(parsed.words, taken):
        inside = [every[k] for i, k in starts.items() if clause.first <= i < clause.last]
        span = range(clause.first, clause.last)
        if any(s < clause.last and clause.first < e for s, e in parsed.unknown):
            _set(inside, "unclear")
            continue
        views = read_clause(_symbols(parsed, clause, starts, every, known))
        relative = w.CATEGORIES.get(parsed.words[clause.first]) == "REL"
        if views is not None and relative and any(parsed.words[i] in w.DOUBTS for i in span):
            doubted = True
        if views is not None and not inside and [parsed.words[i] for i in span] == ["no"]:
            refused = clause.first
        if views is not None:
            for k, view in views.items():
                if every[k].view != "ignored":
                    every[k].view = view
            if not inside and any(w.CATEGORIES.get(parsed.words[i]) in _HEDGING for i in span):
                hedged = True
        elif clause.reason:
            later.append((clause, inside))
        else:
            _set(inside, "unclear")
            unread.append(_words(parsed, clause.first, clause.last))
    for clause, inside in later:
        doubted = _unread_reason(parsed, clause, inside, mentions) or doubted
    _set(clashed, "unclear")
    ends = {s: i for i, s in enumerate(parsed.sentence)}
    for m in every:
        asked = parsed.words[ends[parsed.sentence[m.first]]] == "?"
        if m.view in _POSITIVE and (doubted or asked or m.first < refused):
            m.view = "unclear"
        elif m.view == "asserted" and hedged:
            m.view = "hedged"
    return unread


def _unread_reason(
    parsed: _Text, clause: Clause, inside: list[Mention], mentions: list[Mention]
) -> bool:
    """A reason the grammar cannot read: an option it names that the rest of the answer asserts
    too is beside the point, any other is unclear; whether it holds a word that denies or
    doubts (then every option the answer offers is unclear)."""
    for m in inside:
        same = any(
            o.slot == m.slot and o.options == m.options and o.view == "asserted"
            for o in mentions
            if o not in inside
        )
        m.view = "ignored" if same and len(m.options) == 1 else "unclear"
    return any(parsed.words[i] in w.DOUBTS for i in range(clause.first, clause.last))


def _set(found: Sequence[Mention], view: View) -> None:
    for m in found:
        if m.view != "ignored":
            m.view = view


def _words(parsed: _Text, first: int, last: int) -> str:
    return parsed.raw[parsed.toks[first].start : parsed.toks[last - 1].end]


def _unexplained(parsed: _Text, known: frozenset[str]) -> list[str]:
    """Words the reader does not know and no phrase covers (another script counts)."""
    return [
        word
        for i, (word, tok) in enumerate(zip(parsed.words, parsed.toks, strict=True))
        if i not in parsed.covered
        and (word[:1].isalnum() or not tok.ascii_word)
        and (
            not tok.ascii_word
            or (word not in known and word not in w.COMMON and word not in _GRAMMAR_WORDS)
        )
    ]


def _evidence(parsed: _Text, m: Mention, stance: Stance) -> Evidence:
    start, end = parsed.toks[m.first].start, parsed.toks[m.last - 1].end
    return Evidence(
        start=start,
        end=end,
        words=parsed.raw[start:end],
        options=sorted(m.options),
        stance=stance,
    )


def _unknown_evidence(parsed: _Text) -> list[Evidence]:
    out = []
    for first, last in parsed.unknown:
        start, end = parsed.toks[first].start, parsed.toks[last - 1].end
        out.append(Evidence(start=start, end=end, words=parsed.raw[start:end], stance="no answer"))
    return out


def _decide(
    lex: SlotLexicon,
    found: list[Mention],
    parsed: _Text,
    unexplained: list[str],
    unread: list[str],
) -> SlotReading:
    """The slot's outcome from how the text takes each of its mentions."""
    live = [m for m in found if m.view != "ignored" and m.role != "victim"]
    firm = [m for m in live if len(m.options) == 1 and m.role == "option" and m.view in _POSITIVE]
    for m in live:
        if len(m.options) > 1 and any(
            m.options >= f.options and parsed.sentence[f.first] == parsed.sentence[m.first]
            for f in firm
        ):
            m.view = "ignored"
    live = [m for m in live if m.view != "ignored"]
    unclear = [
        m
        for m in live
        if m.view in ("unclear", "patient") or (m.role == "outsider" and m.view in _POSITIVE)
    ]
    chosen = sorted(
        {o for m in live if m.view in _POSITIVE and m.role == "option" for o in m.options}
    )
    denied = sorted(
        {o for m in live if m.view == "rejected" and m.role == "option" for o in m.options}
    )
    hedged = any(m.view == "hedged" or len(m.options) > 1 for m in live) or any(
        parsed.words[j] in w.ALTERNATIVES
        for m in live
        for j, s in enumerate(parsed.sentence)
        if s == parsed.sentence[m.first] and j not in parsed.covered
    )
    no_answer = _unknown_evidence(parsed)

    def reading(
        outcome: Outcome,
        note: str = "",
        option: str | None = None,
        options: Sequence[str] = (),
        rejected: Sequence[str] = (),
    ) -> SlotReading:
        evidence = []
        for m in live:
            stance: Stance
            if m in unclear:
                stance = "unclear"
            elif m.view == "rejected":
                stance = "rejected"
            elif outcome == "several":
                stance = "hedged" if hedged else "listed"
            else:
                stance = "asserted" if m.view == "asserted" else "hedged"
            evidence.append(_evidence(parsed, m, stance))
        if outcome in ("none", "unsure", "rejected"):
            evidence += no_answer
        evidence.sort(key=lambda e: e.start)
        return SlotReading(
            slot=lex.slot,
            outcome=outcome,
            option=option,
            options=list(options),
            rejected=list(rejected),
            evidence=evidence,
            note=note,
        )

    if unread:
        shown = "; ".join(f"'{u}'" for u in unread[:3])
        return reading("unsure", f"the reader cannot read {shown}")
    if unclear:
        return reading("unsure", "the reader cannot place some of the words naming options")
    if chosen and set(chosen) & set(denied):
        return reading("unsure", "the answer both names and denies an option")
    if len(chosen) == 1 and no_answer:
        return reading("unsure", "the answer names an option but says it does not know")
    if len(chosen) == 1:
        (only,) = chosen
        if any(m.view == "hedged" and m.role == "option" for m in live):
            return reading("unsure", "the answer names one option with a hedge")
        return reading("asserted", option=only, rejected=denied)
    if len(chosen) > 1:
        return reading("several", options=chosen, rejected=denied)
    if denied:
        return reading("rejected", rejected=denied)
    killing = [
        word
        for i, word in enumerate(parsed.words)
        if i not in parsed.covered and w.CATEGORIES.get(word) == "KILL"
    ]
    if lex.kind == "method" and killing:
        return reading("unsure", f"words of killing that name no method: {', '.join(killing)}")
    if unexplained and not no_answer:
        shown = ", ".join(dict.fromkeys(unexplained[:5]))
        return reading("unsure", f"words the reader does not know: {shown}")
    return reading("none")
