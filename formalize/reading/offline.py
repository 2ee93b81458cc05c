"""The offline reader: deterministic, no model, and precise: where it cannot place the words it
says ``unsure`` rather than guess.

It finds the phrases that name options (``lexicon``; a misspelt name within a small edit
distance counts), then reads how the text takes each: denied ("not Hugo", "Hugo did not",
"rather than Hugo", "Hugo is innocent"), offered among others ("Hugo or Felix", "maybe Hugo",
"either"), listed ("Hugo and Felix"), the agent or the victim of a killing ("Maud was shot by
Ada": Ada did it), someone else's relation ("Hugo's brother"), or placed where it cannot tell (a
question, an "if", a name two options share, a second name in a clause that explains the first).
A slot the text says nothing about is ``none``, unless the text holds words the reader does not
know: then it may be about that slot, and the slot is ``unsure``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from formalize.reading import words as w
from formalize.reading.fuzzy import nearest
from formalize.reading.lexicon import PERSON_KINDS, SlotLexicon, slot_lexicon, world_words
from formalize.reading.reading import Evidence, Outcome, Reading, SlotReading, Stance
from formalize.reading.task import ReadingTask
from formalize.reading.text import MAX_CHARS, Token, fold, tokens
from formalize.world.setting import Setting

Role = Literal["option", "outsider", "victim"]
View = Stance | Literal["patient", "agent", "ignored"]

_MARKERS = (
    w.NEGATORS
    | w.AUXILIARIES
    | w.CLEARED
    | w.WEAK_HEDGES
    | w.KILL_VERBS
    | w.BE
    | w.SUBORDINATORS
    | w.EVERYONE
    | w.TIME_LEADS
    | w.TIME_LIMITS
    | w.KIN
    | w.ALTERNATIVES
    | w.WITNESS_VERBS
    | frozenset(word for seq in w.UNKNOWN for word in seq)
    | frozenset(word for pair in w.NEGATING_PAIRS for word in pair)
)
_ARTICLES = frozenset({"the", "a", "an", "his", "her", "their", "its", "this", "that"})
_SUBJECT_FILLER = (
    w.AUXILIARIES
    | _ARTICLES
    | frozenset(
        {"not", "also", "clearly", "definitely", "certainly", "entirely", "completely", "been"}
    )
)
_TITLES = frozenset({"mr", "mrs", "ms", "dr", "st"})


@dataclass
class Mention:
    """Words naming options of one slot: token indices ``first`` to ``last`` (exclusive)."""

    slot: str
    options: frozenset[str]
    first: int
    last: int
    role: Role
    bare: bool = False
    view: View = "asserted"


@dataclass
class _Prepared:
    """A task's lexicons and known words, built once per task."""

    lexicons: list[SlotLexicon]
    known: frozenset[str]
    targets: tuple[str, ...]


@dataclass
class _Text:
    """One answer as tokens, with its sentences and the marks the reader found."""

    raw: str
    toks: list[Token]
    words: list[str]
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
            self._prepared[key] = _Prepared(lexicons, known, targets)
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
        _sentences(parsed)
        _unknown_marks(parsed)
        negated = _negated(parsed)
        unexplained = _unexplained(parsed, prepared.known)
        slots = []
        for lex in prepared.lexicons:
            found = mentions[lex.slot]
            if lex.kind == "time":
                _settle_bare(found, parsed)
            for m in found:
                m.view = _view(m, lex, parsed, negated, found)
            slots.append(_decide(lex, found, parsed, unexplained))
        return Reading(reader=self.name, slots=slots)


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
        if word not in prepared.known and word not in w.COMMON and word not in _MARKERS:
            capital = text[t.start : t.start + 1].isupper()
            if capital or len(word) >= 7:
                word = nearest(word, prepared.targets) or word
        words.append(word)
    return _Text(raw=text, toks=toks, words=words)


def _mentions(lex: SlotLexicon, parsed: _Text) -> list[Mention]:
    """The slot's phrases in the text, longest first, left to right, not overlapping."""
    words, out, i = parsed.words, [], 0
    longest = lex.longest
    while i < len(words):
        for n in range(min(longest, len(words) - i), 0, -1):
            key = tuple(words[i : i + n])
            found = _lookup(lex, key, i, n)
            if found is not None:
                out.append(found)
                i += n
                break
        else:
            i += 1
    return out


def _lookup(lex: SlotLexicon, key: tuple[str, ...], i: int, n: int) -> Mention | None:
    if key in lex.phrases:
        return Mention(lex.slot, frozenset(lex.phrases[key]), i, i + n, "option")
    if key in lex.bare:
        return Mention(lex.slot, frozenset(lex.bare[key]), i, i + n, "option", bare=True)
    if key in lex.victims:
        return Mention(lex.slot, frozenset(), i, i + n, "victim")
    if key in lex.outsiders:
        return Mention(lex.slot, frozenset(), i, i + n, "outsider")
    return None


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
                if seq in (("none",), ("no", "one"), ("nobody",)) and _starts_list(parsed, i):
                    continue
                if _no_doubt(words, i):
                    continue
                parsed.unknown.append((i, i + len(seq)))
                break


def _starts_list(parsed: _Text, i: int) -> bool:
    """Whether "none"/"no one" at ``i`` begins "none of ..." or "no one but" (not a non-answer
    alone)."""
    after = parsed.words[i + 1 : i + 3]
    return bool(after) and after[0] in ("of", "but", "except", "other")


def _no_doubt(words: list[str], i: int) -> bool:
    """A doubt denied ("no doubt", "without doubt", "beyond doubt"): certainty, not a hedge."""
    return words[i] == "doubt" and i > 0 and words[i - 1] in ("no", "without", "beyond")


def _hard_break(parsed: _Text, i: int) -> bool:
    return i not in parsed.covered and parsed.words[i] in w.CLAUSE_BREAKS


def _next_content(parsed: _Text, i: int) -> int:
    """The first index from ``i`` that is not an article."""
    while i < len(parsed.words) and parsed.words[i] in _ARTICLES:
        i += 1
    return i


def _negated(parsed: _Text) -> set[int]:
    """Token indices in the scope of a denial: after a negator to the end of its clause (a
    coordination naming more carries it on: "neither Hugo nor Felix"), and the subject a
    denial or a word of clearing follows ("Hugo and Felix did not", "Hugo is innocent")."""
    words, out = parsed.words, set()
    for k, word in enumerate(words):
        if k in parsed.covered:
            continue
        lead = word in w.NEGATORS or (
            k + 1 < len(words) and (word, words[k + 1]) in w.NEGATING_PAIRS
        )
        if word == "but" and k and words[k - 1] in w.EVERYONE:
            lead = True
        if not lead or _not_a_denial(parsed, k):
            continue
        j = k + 2 if word not in w.NEGATORS and word != "but" else k + 1
        while j < len(words):
            if j in parsed.covered:
                out.add(j)
            elif words[j] in ("and", "or", "nor"):
                if _next_content(parsed, j + 1) not in parsed.covered:
                    break
            elif words[j] in w.CLAUSE_BREAKS:
                break
            else:
                out.add(j)
            j += 1
        if _post_denial(parsed, k):
            out |= _subject_before(parsed, k)
    for k, word in enumerate(words):
        if word in w.CLEARED and k not in parsed.covered:
            out |= _subject_before(parsed, k)
    return out


def _not_a_denial(parsed: _Text, k: int) -> bool:
    """``not`` in "not sure", "not only"; ``no`` in "no doubt"; a denial that hedges or widens."""
    words = parsed.words
    after = words[k + 1] if k + 1 < len(words) else ""
    if words[k] == "not" and after in w.NOT_A_DENIAL:
        return True
    if words[k] == "no" and after in ("doubt", "question", "idea", "clue", "answer", "one"):
        return True
    return any(start <= k < end for start, end in parsed.unknown)


def _post_denial(parsed: _Text, k: int) -> bool:
    """Whether the denial at ``k`` follows its subject ("did not", "never", "is innocent")."""
    words = parsed.words
    if words[k] == "not":
        return k > 0 and words[k - 1] in w.AUXILIARIES
    return words[k] in ("never", "cannot")


def _subject_before(parsed: _Text, k: int) -> set[int]:
    """The tokens of the names just before a denial, back over auxiliaries and coordination."""
    words, out = parsed.words, set()
    j = k - 1
    while j >= 0 and words[j] in _SUBJECT_FILLER and j not in parsed.covered:
        j -= 1
    while j >= 0 and (j in parsed.covered or words[j] in ("and", "or", "nor", ",")):
        if j in parsed.covered:
            out.add(j)
        j -= 1
    return out


def _sentence_words(parsed: _Text, i: int) -> list[tuple[int, str]]:
    s = parsed.sentence[i]
    return [(j, word) for j, word in enumerate(parsed.words) if parsed.sentence[j] == s]


def _clause_start(parsed: _Text, i: int) -> int:
    j = i - 1
    while j >= 0 and not _hard_break(parsed, j):
        j -= 1
    return j + 1


def _hedged(parsed: _Text, m: Mention) -> bool:
    """A weak hedge in the mention's sentence ("maybe", "possibly", "could" but not "only ...
    could")."""
    sentence = _sentence_words(parsed, m.first)
    only = any(word == "only" for _, word in sentence)
    words = parsed.words
    return any(
        word in w.WEAK_HEDGES
        and not (word == "could" and only)
        and not (j + 1 < len(words) and words[j + 1] in ("not", "never"))
        and not _no_doubt(words, j)
        and j not in parsed.covered
        for j, word in sentence
    )


def _alternative(parsed: _Text, m: Mention) -> bool:
    """An "or" / "either" / "whether" in the mention's clause (between punctuation): "Hugo or
    someone else" offers Hugo as one of several."""
    words, breaks = parsed.words, w.CLAUSE_BREAKS - {"and", "or"}
    j = m.first - 1
    while j >= 0 and not (j not in parsed.covered and words[j] in breaks):
        if j not in parsed.covered and words[j] in w.ALTERNATIVES:
            return True
        j -= 1
    j = m.last
    while j < len(words) and not (j not in parsed.covered and words[j] in breaks):
        if j not in parsed.covered and words[j] in w.ALTERNATIVES:
            return True
        j += 1
    return False


def _kill_before(parsed: _Text, i: int, reach: int = 6) -> bool:
    return any(parsed.words[j] in w.KILL_VERBS for j in range(max(0, i - reach), i))


def _person_view(m: Mention, parsed: _Text, found: list[Mention]) -> View | None:
    """For a person slot: agent or victim of a killing, someone's relation, or a name inside a
    clause that explains another one; None when nothing of the kind."""
    words = parsed.words
    before = m.first - 1
    while before >= 0 and words[before] in _ARTICLES:
        before -= 1
    if before >= 0 and words[before] == "by":
        return "agent" if _kill_before(parsed, before) else "unclear"
    if before >= 0 and words[before] in w.KILL_VERBS and not (before and words[before - 1] in w.BE):
        return "patient"
    after = m.last
    verb = after
    while verb < len(words) and words[verb] in w.BE | {"had", "has", "then", "later", "first"}:
        verb += 1
    if verb < len(words) and words[verb] in w.WITNESS_VERBS:
        return "unclear"
    if after < len(words) and words[after] in w.BE:
        nxt = after + 1
        while nxt < len(words) and words[nxt] in ("also", "then", "brutally", "cruelly"):
            nxt += 1
        if nxt < len(words) and words[nxt] in w.KILL_VERBS:
            return "patient"
    if after + 1 < len(words) and words[after] == "'s":
        target = after + 1
        while target < len(words) and words[target] in ("own", "younger", "older", "elder"):
            target += 1
        if target < len(words) and (words[target] in w.KIN or target in parsed.covered):
            return "unclear"
    if m.first >= 2 and words[m.first - 1] == "'s":
        owner = next((o for o in found if o.last == m.first - 1), None)
        if words[m.first - 2] != "victim" and (owner is None or owner.role != "victim"):
            return "unclear"
    earlier = [
        o
        for o in found
        if o.last <= m.first
        and o.role == "option"
        and o.view in ("asserted", "agent", "hedged")
        and o.options != m.options
        and parsed.sentence[o.first] == parsed.sentence[m.first]
    ]
    if earlier and any(
        words[j] in w.SUBORDINATORS and j not in parsed.covered
        for j in range(earlier[-1].last, m.first)
    ):
        return "unclear"
    return None


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


def _view(
    m: Mention, lex: SlotLexicon, parsed: _Text, negated: set[int], found: list[Mention]
) -> View:
    """How the text takes mention ``m`` (see the module docstring)."""
    words = parsed.words
    sentence = _sentence_words(parsed, m.first)
    prev = m.first - 1
    if m.view == "ignored":
        return "ignored"
    if m.first in negated:
        return "rejected"
    if sentence and sentence[-1][1] == "?":
        return "unclear"
    start = _clause_start(parsed, m.first)
    if any(words[j] in ("if", "unless", "whether") for j in range(start, m.first)):
        return "unclear"
    if lex.kind == "time" and prev >= 0 and words[prev] in w.TIME_LIMITS:
        return "unclear"
    role = _person_view(m, parsed, found) if lex.kind in PERSON_KINDS else None
    if role in ("unclear", "patient"):
        return role
    if _hedged(parsed, m) or _alternative(parsed, m):
        return "hedged"
    return "agent" if role == "agent" else "asserted"


def _unexplained(parsed: _Text, known: frozenset[str]) -> list[str]:
    """Words the reader does not know and no phrase covers (another script counts)."""
    return [
        word
        for i, (word, tok) in enumerate(zip(parsed.words, parsed.toks, strict=True))
        if i not in parsed.covered
        and (word[:1].isalnum() or not tok.ascii_word)
        and (
            not tok.ascii_word
            or (word not in known and word not in w.COMMON and word not in _MARKERS)
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
    lex: SlotLexicon, found: list[Mention], parsed: _Text, unexplained: list[str]
) -> SlotReading:
    """The slot's outcome from how the text takes each of its mentions."""
    live = [m for m in found if m.view != "ignored" and m.role != "victim"]
    if any(m.view == "agent" for m in live):
        live = [m for m in live if m.view != "patient"]
    positive = {"asserted", "agent", "hedged"}
    firm = [m for m in live if len(m.options) == 1 and m.role == "option" and m.view in positive]
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
        if m.view in ("unclear", "patient") or (m.role == "outsider" and m.view in positive)
    ]
    chosen = sorted(
        {o for m in live if m.view in positive and m.role == "option" for o in m.options}
    )
    denied = sorted(
        {o for m in live if m.view == "rejected" and m.role == "option" for o in m.options}
    )
    hedged = any(m.view == "hedged" or len(m.options) > 1 for m in live) or any(
        parsed.words[j] in w.ALTERNATIVES
        for m in live
        for j, _ in _sentence_words(parsed, m.first)
        if j not in parsed.covered
    )
    stance_of: dict[str, Stance] = {"asserted": "asserted", "agent": "asserted"}
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
                stance = stance_of.get(m.view, "hedged")
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
    if unexplained and not no_answer:
        shown = ", ".join(dict.fromkeys(unexplained[:5]))
        return reading("unsure", f"words the reader does not know: {shown}")
    return reading("none")
