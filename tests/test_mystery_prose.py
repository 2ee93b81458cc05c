"""Scripts, cover stories and the introduction as prose stay faithful to their typed facts: every
sentence read back from its words alone states exactly the facts it is mapped to, together they
state every fact, each true of the world (of the cover, for a cover story), and none repeats."""

from __future__ import annotations

import pytest

from formalize.interrogation.prose import parse_prose, prose, prose_text
from formalize.interrogation.script import Scripts
from formalize.interrogation.script_generate import ScriptConfig
from formalize.world.facts import Fact, Seen, holds_in
from games.mystery.entry import scripts_for

SEEDS = range(6)


@pytest.fixture(scope="module")
def games() -> list[Scripts]:
    return [scripts_for(seed, ScriptConfig()) for seed in SEEDS]


def _faithful(scripts: Scripts, facts: tuple[Fact, ...], seed: str, public: bool = False) -> int:
    setting = scripts.world.setting
    sentences = prose(setting, facts, seed, public=public)
    if public:
        hedged = [s.text for s in sentences if s.text.startswith(("I ", "As far as I know"))]
        assert not hedged, "public facts are stated as facts, not as someone's memory"
    for sentence in sentences:
        assert set(parse_prose(sentence.text, setting)) == set(sentence.facts), sentence.text
    assert {f for s in sentences for f in s.facts} == set(facts)
    assert len({s.text for s in sentences}) == len(sentences), "a sentence repeats"
    assert prose_text(sentences).count(". ") == len(sentences) - 1
    return len(sentences)


def test_every_script_sentence_states_exactly_its_facts(games: list[Scripts]) -> None:
    grouped = 0
    for scripts in games:
        assert _faithful(scripts, scripts.intro, "intro", public=True)
        for person in scripts.players:
            facts = scripts.scripts[person]
            assert all(holds_in(f, scripts.world) for f in facts)
            grouped += len(facts) - _faithful(scripts, facts, person)
        for person, cover in scripts.covers.items():
            _faithful(scripts, cover, f"cover:{person}")
    assert grouped > 0, "rooms and empty hands should group facts into one sentence"


def test_a_changed_sentence_reads_as_other_facts(games: list[Scripts]) -> None:
    scripts = games[3]
    setting = scripts.world.setting
    person = scripts.civilians[0]
    sentence = next(
        s
        for s in prose(setting, scripts.scripts[person], person)
        if isinstance(s.facts[0], Seen) and len(s.facts) > 1
    )
    slot = sentence.facts[0].slot
    other = setting.slots[(slot + 1) % len(setting.slots)]
    changed = parse_prose(sentence.text.replace(setting.slots[slot], other), setting)
    assert changed and set(changed) != set(sentence.facts)
    assert not all(holds_in(f, scripts.world) for f in changed)
    assert parse_prose("The rain kept on all evening.", setting) == []
