"""Self-introductions with alibis (``MysteryConfig.alibis``): each says in prose where its character
was at each crime's hour, every sentence read back to exactly the facts logged with it (a
murderer's from its cover story), heard by all as testimony; without the option, as before."""

from __future__ import annotations

import re
from pathlib import Path

from formalize.interrogation.prose import parse_prose
from formalize.interrogation.questions import Where, answer_from
from formalize.interrogation.script_generate import ScriptConfig
from formalize.world.facts import holds_in
from games.core.play import play_game
from games.core.replay import replay
from games.core.runlog import EventLog
from games.mystery.audit import audit_game
from games.mystery.engine import MysteryState
from games.mystery.entry import ENTRY
from games.mystery.events import Introduction, MysteryConfig, record_fact

ALIBIS = MysteryConfig(scripts=ScriptConfig(players=5), alibis=True)


def test_introductions_state_their_alibis_in_prose(tmp_path: Path) -> None:
    path = tmp_path / "alibis.jsonl"
    with EventLog(path) as log:
        state = play_game(ENTRY, ("prover",) * 5, 3, None, ALIBIS, log=log).state
    assert isinstance(state, MysteryState)
    scripts = state.scripts
    setting = scripts.world.setting
    slots = sorted({c.slot for c in scripts.world.crimes})
    intros = [e for e in state.events() if isinstance(e, Introduction)]
    assert len(intros) == len(scripts.players)
    for intro in intros:
        person = scripts.players[intro.seat]
        facts = [record_fact(f) for f in intro.facts]
        told = scripts.covers.get(person) or scripts.scripts[person]
        assert facts == [f for t in slots for f in answer_from(told, Where(person, t))]
        if person not in scripts.murderers:
            assert all(holds_in(f, scripts.world) for f in facts)
        first, *rest = re.split(r"(?<=\.) (?=[A-Z])", intro.text)
        assert first.startswith("I am ") and parse_prose(first, setting) == []
        read = [f for sentence in rest for f in parse_prose(sentence, setting)]
        assert set(read) == set(facts)
    assert any(not holds_in(record_fact(f), scripts.world) for i in intros for f in i.facts)
    replay(ENTRY, ENTRY.read_log(path))
    with_alibis = audit_game(scripts, state.events(), ALIBIS.rounds)
    plain = play_game(ENTRY, ("prover",) * 5, 3).state
    assert isinstance(plain, MysteryState)
    assert all(not e.facts for e in plain.events() if isinstance(e, Introduction))
    without = audit_game(plain.scripts, plain.events(), plain.config.rounds)
    assert all(with_alibis.entropy[s][0] <= without.entropy[s][0] for s in without.entropy)
    assert any(with_alibis.entropy[s][0] < without.entropy[s][0] for s in without.entropy)
    assert with_alibis.lies and all(f.speaker in scripts.murderers for f in with_alibis.lies)
