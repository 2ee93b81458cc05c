"""Spoken answers of LLM seats: formalised with repairs, matched to a legal reply, or sent back."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial

from formalize.davidsonian.autoformalize import Autoformalizer
from formalize.interrogation.script_generate import ScriptConfig
from formalize.world import atoms
from games.core.llm_player import LLMPlayer
from games.core.loop import decide
from games.core.random_agent import RandomAgent
from games.mystery.engine import Action, MysteryState, MysteryView, Reply
from games.mystery.entry import scripts_for
from games.mystery.events import MysteryConfig
from games.mystery.llm_agents import MysteryAnswer, MysteryPrompter
from games.mystery.spoken import AnswerReader, equivalent, facts_formula
from provers.sat_prover import SatProver
from reasoning.formula import Not
from reasoning.llm import LLMSettings, OpenAIChatClient
from reasoning.llm.scripted_server import ChatRequest, ScriptedChatServer
from reasoning.syntax import format_formula

SAID = "At six o'clock I was in the hall with the cook, and no one else was there."


def answering(murderer: bool) -> MysteryView:
    """The first view of a game played at random in which a seat (a murderer or a civilian, as
    asked) answers a question it knows something about."""
    config = MysteryConfig(scripts=ScriptConfig(players=5))
    for seed in range(20):
        state = MysteryState(scripts_for(seed, config.scripts), config, seed)
        agents = [RandomAgent(seed * 10 + k) for k in range(5)]
        while not state.is_terminal():
            seats = state.current_players()
            views = {k: state.observation(k) for k in seats}
            view = views[seats[0]]
            truth = view.legal[0]
            if (
                view.phase == "answer"
                and view.murderer == murderer
                and isinstance(truth, Reply)
                and truth.facts
            ):
                return view
            legal = {k: partial(state.legal_actions, k) for k in views}
            state.apply({k: decide(agents[k], v, legal[k]) for k, v in views.items()})
    raise AssertionError("no game reached such an answer")


def formula_of(view: MysteryView, reply: Action) -> str:
    """The logical form text of a legal reply's facts."""
    assert isinstance(reply, Reply)
    return format_formula(facts_formula(view.setting, reply.facts))


@contextmanager
def seat(
    formulas: Callable[[int], str],
) -> Iterator[tuple[ScriptedChatServer, LLMPlayer[MysteryView, MysteryAnswer, Action]]]:
    """An LLM seat that always says ``SAID`` and whose formaliser answers the k-th formalisation
    request with ``formulas(k)``."""
    asked: list[int] = []

    def answer(request: ChatRequest) -> str:
        if request.last_user.startswith("Sentence:") or "logical form" in request.last_user:
            asked.append(1)
            return f"FORMULA: {formulas(len(asked) - 1)}"
        return json.dumps({"say": SAID})

    with ScriptedChatServer(answer) as server:
        client = OpenAIChatClient(
            LLMSettings(base_url=server.base_url, model="scripted"), sleep=lambda _: None
        )
        reader = AnswerReader(Autoformalizer(client, prover=SatProver(), seed=1), SatProver())
        yield server, LLMPlayer(MysteryPrompter("questum", 1, reader), client, seed=1)


def test_a_spoken_answer_is_formalised_and_matched_to_the_truth() -> None:
    view = answering(murderer=False)
    truth = view.legal[0]
    with seat(lambda _: formula_of(view, truth)) as (server, player):
        assert player.act(view) == truth
    assert player.fallbacks.total == 0
    assert len(server.requests) == 2
    assert "Sentence: " + SAID in server.requests[1].last_user
    assert "at_P_L_T" in server.requests[1].last_user


def test_a_civilians_lie_is_sent_back_then_counted_as_a_fallback() -> None:
    view = answering(murderer=False)
    truth = view.legal[0]
    assert isinstance(truth, Reply)
    lie = format_formula(Not(facts_formula(view.setting, truth.facts)))
    with seat(lambda _: lie) as (server, player):
        action = player.act(view)
    assert action in view.legal
    assert player.fallbacks.total == 1
    sent_back = [r for r in server.requests if "not an answer you may give" in r.last_user]
    assert len(sent_back) == 3
    assert "cover story" not in sent_back[0].last_user


def test_a_malformed_formula_is_repaired_within_the_loop() -> None:
    view = answering(murderer=True)
    told = view.legal[1]
    unknown = atoms.at("nobody", "hall", 0).pred
    broken = [f"{formula_of(view, told)} &", f"{formula_of(view, told)} & {unknown}"]
    with seat(lambda k: broken[k] if k < 2 else formula_of(view, told)) as (server, player):
        assert player.act(view) == told
    assert player.fallbacks.total == 0
    repairs = [r.last_user for r in server.requests[2:4]]
    assert "syntax error" in repairs[0] and unknown in repairs[1]


def test_equivalence_is_checked_both_ways() -> None:
    view = answering(murderer=False)
    truth = view.legal[0]
    assert isinstance(truth, Reply)
    whole = facts_formula(view.setting, truth.facts)
    part = facts_formula(view.setting, truth.facts[:1])
    prover = SatProver()
    assert equivalent(prover, whole, whole)
    assert len(truth.facts) == 1 or not equivalent(prover, whole, part)
