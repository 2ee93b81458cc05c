"""Every LLM seat of the interrogation game is told the rules its exact audit reasons with: the
house plan, the locked rooms, every kind of background-theory axiom, and its own objectives."""

from __future__ import annotations

import pytest

from formalize.davidsonian.autoformalize import Autoformalizer
from formalize.interrogation.prose import prose
from formalize.interrogation.script_generate import ScriptConfig
from formalize.world.theory import background_theory
from games.mystery.engine import MysteryState
from games.mystery.entry import scripts_for
from games.mystery.events import MysteryConfig
from games.mystery.llm_agents import RULES, MysteryPrompter, rule_kind
from games.mystery.spoken import AnswerReader
from provers.sat_prover import SatProver
from reasoning.llm import LLMSettings, OpenAIChatClient


def _prompter() -> MysteryPrompter:
    client = OpenAIChatClient(LLMSettings(base_url="http://127.0.0.1:9/v1", model="unused"))
    reader = AnswerReader(Autoformalizer(client, prover=SatProver(), seed=0), SatProver())
    return MysteryPrompter("questum", 0, reader)


@pytest.mark.parametrize("seed", [1, 2, 3, 7])
def test_every_seat_is_told_the_plan_the_locks_the_rules_and_its_objectives(seed: int) -> None:
    config = MysteryConfig(scripts=ScriptConfig())
    scripts = scripts_for(seed, config.scripts)
    setting = scripts.world.setting
    state = MysteryState(scripts, config, seed)
    kinds = {rule_kind(axiom.name) for axiom in background_theory(setting)}
    assert kinds <= set(RULES), kinds - set(RULES)
    room = {p.id: p.name for p in setting.places}
    prompter = _prompter()
    murderers = 0
    for seat, person in enumerate(scripts.players):
        text = prompter.system_prompt(state.observation(seat))
        for kind in kinds:
            assert RULES[kind] in text, kind
        for a, b in setting.passages:
            assert f"{room[a]} - {room[b]}" in text
        for place in setting.places:
            if place.key is not None:
                key = setting.item(place.key).name
                assert f"the {place.name} (opened only by the {key})" in text
        for weapon in setting.weapons:
            assert f"the {weapon.name}: {setting.method(weapon.method or '').name}" in text
        assert all(hour in text for hour in setting.slots)
        mine = prose(setting, scripts.scripts[person], person)
        assert all(sentence.text in text for sentence in mine)
        objectives = scripts.objectives[person]
        assert objectives and all(
            f"{o.text.rstrip('.')} ({o.points} points)" in text for o in objectives
        )
        public = _line(text, "What everyone knows: ")
        assert "I remember" not in public and "As far as I know" not in public
        for crime in scripts.world.crimes:
            victim = setting.person(crime.victim).name
            asked = f"Find out what weapon killed {victim}" in text
            assert asked == (person not in crime.killers), "a killer knows its own weapon"
        murderers += person in scripts.murderers
    assert murderers, "the sample holds murderers"


def _line(text: str, start: str) -> str:
    return next(line for line in text.splitlines() if line.startswith(start))


def test_a_new_kind_of_axiom_without_a_sentence_is_caught() -> None:
    assert rule_kind("crime2_armed") == "armed" and rule_kind("one_holder") == "one_holder"
    assert rule_kind("crimescene_x") == "crimescene_x"
