"""The three LLM agent types through the scripted chat server: good and malformed answers, and a
short game played by all three."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

import pytest
from pydantic import ValidationError

from games.core.agents import combined_fallbacks
from games.core.play import play_game
from games.undercover import prompts
from games.undercover.agent import Description
from games.undercover.agents import UndercoverAgentSettings
from games.undercover.checker import ConsistencyTest, ProverChecker
from games.undercover.engine import UndercoverGame, UndercoverState
from games.undercover.entry import ENTRY as UNDERCOVER
from games.undercover.entry import replay
from games.undercover.events import (
    CheckOutcome,
    DescriptionEvent,
    Side,
    UndercoverConfig,
    UndercoverSetup,
    VoteEvent,
)
from games.undercover.lexicon import Lexicon
from games.undercover.llm_agents import (
    FALLBACK_DESCRIPTIONS,
    AttNLIAgent,
    LLMAgent,
    NeuroSymbolicAttNLIAgent,
    check_description,
    contains_word,
    make_llm_agent,
    read_seat,
)
from games.undercover.llm_schemas import describe_answer_model, vote_answer_model
from games.undercover.pipeline import PipelineSettings, Validity
from games.undercover.words import WordPair
from provers.z3_prover import Z3Prover
from reasoning.llm import LLMSettings, MalformedAnswer, OpenAIChatClient
from reasoning.llm.pytest_plugin import StartServer
from reasoning.llm.scripted_server import ChatRequest, ScriptedChatServer
from reasoning.syntax import parse_formula
from tests.support.played import play_undercover, undercover_header
from tests.test_undercover_pipeline import (
    BERGAMOT,
    FORMS,
    ISLAND,
    RULES,
    WORD,
    Responder,
    observation,
    scripted,
)

ROUND_ONE = [(1, 1, BERGAMOT), (1, 2, ISLAND)]


# --- standard NLI -----------------------------------------------------------------------------


def test_nli_describes_from_the_game_state() -> None:
    responder = Responder(describe=["DESCRIPTION: It is a black tea with a citrus scent."])
    with scripted(responder) as (_, client):
        agent = LLMAgent(client, seed=1)
        description = agent.describe(observation(ROUND_ONE, living=(0, 1, 2)))
    assert description == Description("It is a black tea with a citrus scent.")
    prompt = responder.asked["describe"][0]
    assert prompt.messages[0]["content"].startswith("You are playing Undercover")
    text = prompt.last_user
    assert 'Your word card is "Earl Grey Tea"' in text
    assert f'player 1: round 1: "{BERGAMOT}"' in text and "DESCRIPTION:" in text
    assert agent.turns[0].fallback is False and agent.turns[0].role is None


def test_nli_votes_for_a_player() -> None:
    responder = Responder(vote=["VOTE: Player 2"])
    with scripted(responder) as (_, client):
        agent = LLMAgent(client, seed=1)
        assert agent.vote(observation(ROUND_ONE, living=(0, 1, 2))) == 2
    assert "You may vote for: player 1, player 2." in responder.asked["vote"][0].last_user


def test_a_malformed_description_is_reprompted_then_falls_back() -> None:
    bad = [
        "DESCRIPTION: It is Earl Grey tea, of course.",
        "I would rather not say.",
        f"DESCRIPTION: {BERGAMOT.upper()}",
        "DESCRIPTION:",
    ]
    responder = Responder(describe=bad)
    with scripted(responder) as (server, client):
        agent = LLMAgent(client, seed=3)
        description = agent.describe(observation(ROUND_ONE))
    assert len(server.requests) == 4
    assert description.text in FALLBACK_DESCRIPTIONS and description.formula is None
    assert agent.fallbacks.counts == {"describe": {"unparsed": 1}}
    followups = [r.last_user for r in responder.asked["describe"][1:]]
    assert "names your word" in followups[0]
    assert "DESCRIPTION:" in followups[1]
    assert "repeats what player 1 said in round 1" in followups[2]
    assert agent.turns[0].fallback and agent.turns[0].attempts == 4
    assert agent.seat.usage.fallbacks == 1 and agent.seat.usage.reprompts == 3


def test_a_vote_is_asked_for_as_json_among_the_living_targets_only() -> None:
    formats: list[dict[str, object]] = []

    def answer(request: ChatRequest) -> str:
        assert request.response_format is not None
        formats.append(request.response_format)
        return json.dumps(
            {"reasoning": "Player 2 was vague.", "role": "citizen", "vote": "player 2"}
        )

    with ScriptedChatServer(answer) as server:
        settings = LLMSettings(base_url=server.base_url, model="m", structured="json_object")
        agent = AttNLIAgent(OpenAIChatClient(settings), seed=1)
        assert agent.vote(observation(ROUND_ONE, living=(0, 1, 2))) == 2
    assert agent.role == "citizen" and agent.seat.usage.calls == 1
    schema = json.dumps(formats[0])
    assert '"player 1"' in schema and '"player 2"' in schema
    assert '"player 0"' not in schema and '"player 3"' not in schema
    votes = vote_answer_model((1, 2), uses_roles=False)
    with pytest.raises(ValidationError):
        votes.model_validate({"vote": "player 0"})
    with pytest.raises(ValidationError):
        describe_answer_model(False).model_validate({"description": ""})


def test_an_illegal_vote_is_reprompted_and_a_fixed_one_is_taken() -> None:
    responder = Responder(vote=["VOTE: player 0", "VOTE: player 2"])
    with scripted(responder) as (_, client):
        agent = LLMAgent(client, seed=1)
        assert agent.vote(observation(ROUND_ONE, living=(0, 1, 2))) == 2
    assert "you cannot vote for yourself" in responder.asked["vote"][1].last_user
    assert agent.fallbacks.total == 0


@pytest.mark.parametrize(
    ("reply", "reason"), [("VOTE: player 7", "illegal"), ("I abstain.", "unparsed")]
)
def test_a_vote_that_stays_unusable_falls_back_at_random(reply: str, reason: str) -> None:
    responder = Responder(vote=[reply])
    obs = observation(ROUND_ONE, living=(0, 1, 2))
    with scripted(responder) as (server, client):
        agent = LLMAgent(client, seed=5)
        target = agent.vote(obs)
    assert len(server.requests) == 4
    assert target in obs.vote_targets()
    assert agent.fallbacks.counts == {"vote": {reason: 1}}
    assert agent.turns[0].fallback


# --- Att-NLI ----------------------------------------------------------------------------------


def test_att_nli_states_its_role_before_describing() -> None:
    answers = [
        "REASONING: both fit my word.\nDESCRIPTION: It is often drunk in the afternoon.",
        "REASONING: both fit my word.\nROLE: citizen\nDESCRIPTION: It is often drunk in the "
        "afternoon.",
    ]
    responder = Responder(describe=answers)
    with scripted(responder) as (_, client):
        agent = AttNLIAgent(client, seed=2)
        description = agent.describe(observation(ROUND_ONE))
    assert description.text == "It is often drunk in the afternoon."
    assert agent.role == "citizen" and agent.turns[0].role == "citizen"
    first = responder.asked["describe"][0].last_user
    assert "Stage 1, intentions" in first and "ROLE: citizen or spy" in first
    assert "ROLE:" in responder.asked["describe"][1].last_user


def test_att_nli_votes_with_a_role() -> None:
    responder = Responder(vote=["REASONING: player 2 is odd.\nROLE: spy\nVOTE: 1"])
    with scripted(responder) as (_, client):
        agent = AttNLIAgent(client, seed=2)
        assert agent.vote(observation(ROUND_ONE, living=(0, 1, 2))) == 1
    assert agent.role == "spy"


def test_att_nli_rejects_an_unknown_role() -> None:
    responder = Responder(vote=["ROLE: detective\nVOTE: player 1", "ROLE: Citizen.\nVOTE: 1"])
    with scripted(responder) as (_, client):
        agent = AttNLIAgent(client, seed=2)
        assert agent.vote(observation(ROUND_ONE, living=(0, 1, 2))) == 1
    assert "must be citizen or spy" in responder.asked["vote"][1].last_user
    assert agent.role == "citizen"


# --- neuro-symbolic Att-NLI -------------------------------------------------------------------

OWN = "It is often drunk in the afternoon."
FORMS_WITH_OWN = {**FORMS, OWN: ["exists e. Drink(e) & Patient(e, item)"]}


def test_ns_agent_guesses_builds_the_record_and_formalises_its_description() -> None:
    describe = f"REASONING: player 1 fits, player 2 does not.\nROLE: citizen\nDESCRIPTION: {OWN}"
    responder = Responder(forms=FORMS_WITH_OWN, guess=["GUESS: Ceylon Tea"], describe=[describe])
    with scripted(responder) as (_, client):
        agent = NeuroSymbolicAttNLIAgent(client, prover=Z3Prover(), seed=4)
        description = agent.describe(observation(ROUND_ONE, living=(0, 1, 2)))
    assert agent.guess == "Ceylon Tea" and agent.role == "citizen"
    assert agent.records[-1].labels() == {1: Validity.VALID, 2: Validity.INVALID}
    assert description.text == OWN
    assert description.formula_text == FORMS_WITH_OWN[OWN][0]
    assert description.formula is not None
    prompt = responder.asked["describe"][0].last_user
    assert 'Your guess of the other word: "Ceylon Tea".' in prompt
    assert "- player 1: valid\n- player 2: invalid" in prompt
    assert "A theorem prover has checked" in prompt
    assert "You have no guess" not in prompt


def test_ns_agent_votes_with_the_record() -> None:
    responder = Responder(guess=["GUESS: Ceylon Tea"], vote=["ROLE: citizen\nVOTE: player 2"])
    with scripted(responder) as (_, client):
        agent = NeuroSymbolicAttNLIAgent(client, prover=Z3Prover(), seed=4)
        assert agent.vote(observation(ROUND_ONE, living=(0, 1, 2))) == 2
    prompt = responder.asked["vote"][0].last_user
    assert "Step 3: do most of them entail your word" in prompt
    assert "- player 2: invalid" in prompt


def test_ns_agent_without_a_usable_guess_counts_the_fallback() -> None:
    responder = Responder(guess=[f"GUESS: {WORD}"], vote=["ROLE: citizen\nVOTE: player 2"])
    with scripted(responder) as (_, client):
        agent = NeuroSymbolicAttNLIAgent(client, prover=Z3Prover(), seed=4)
        agent.vote(observation(ROUND_ONE, living=(0, 1, 2)))
    assert agent.guess is None and agent.fallbacks.counts == {"guess": {"unparsed": 1}}
    assert len(responder.asked["guess"]) == 4
    assert "You have no guess of the other word yet." in responder.asked["vote"][0].last_user


def test_make_llm_agent() -> None:
    with scripted(Responder()) as (_, client):
        kinds = [
            type(make_llm_agent(k, client, seat=1, seed=7, prover=Z3Prover()))
            for k in ("nli", "att-nli", "ns-att-nli")
        ]
        with pytest.raises(ValueError, match="unknown LLM agent kind 'gpt'"):
            make_llm_agent("gpt", client, seat=1, seed=7)  # type: ignore[arg-type]
    assert kinds == [LLMAgent, AttNLIAgent, NeuroSymbolicAttNLIAgent]


@pytest.mark.parametrize("kind", ["nli", "att-nli", "ns-att-nli"])
def test_every_kind_falls_back_in_both_phases(kind: str) -> None:
    responder = Responder(
        guess=["GUESS: Ceylon Tea"],
        describe=["ROLE: citizen\nDESCRIPTION: It is Earl Grey Tea."],
        vote=["ROLE: spy\nVOTE: player 0"],
    )
    obs = observation(ROUND_ONE, living=(0, 1, 2))
    with scripted(responder) as (_, client):
        agent = make_llm_agent(kind, client, seat=0, seed=3, prover=Z3Prover())  # type: ignore[arg-type]
        description = agent.describe(obs)
        target = agent.vote(obs)
    assert description.text in FALLBACK_DESCRIPTIONS and target in (1, 2)
    assert len(responder.asked["describe"]) == 4 and len(responder.asked["vote"]) == 4
    assert agent.fallbacks.counts == {
        "describe": {"unparsed": 1},
        "vote": {"illegal": 1},
    }
    assert [t.fallback for t in agent.turns] == [True, True]


# --- helpers ----------------------------------------------------------------------------------


def test_read_seat() -> None:
    assert read_seat("player 3") == 3
    assert read_seat("**Player #4**, because") == 4
    with pytest.raises(MalformedAnswer):
        read_seat("the quiet one")


def test_descriptions_are_checked_like_the_engine_compares_them() -> None:
    obs = observation(ROUND_ONE)
    assert contains_word("I love earl-grey TEA!", WORD)
    assert not contains_word("A grey sky over tea fields.", WORD)
    assert check_description('  "It grows   on hills."  ', obs) == "It grows on hills."
    with pytest.raises(MalformedAnswer, match="repeats"):
        check_description("it is flavoured with OIL of bergamot", obs)


# --- a short game -----------------------------------------------------------------------------

PAIR = WordPair(id="earl-grey-tea-ceylon-tea", words=("Earl Grey Tea", "Ceylon Tea"))
SAYINGS = {
    "Earl Grey Tea": [BERGAMOT, "It is named after a British prime minister."],
    "Ceylon Tea": [ISLAND, "It is graded by the altitude where it grows."],
}
GENERIC_FORM = "exists e. Say(e) & Topic(e, item)"


class GameResponder(Responder):
    """Answers a whole game: descriptions from ``SAYINGS`` with the speaker and round, votes for
    ``first_target`` in round 1 and for the spy afterwards."""

    def __init__(self, spy: int, first_target: int) -> None:
        super().__init__(
            forms={},
            rules={},
            guess=["GUESS: Green Tea"],
            update=["ROLE: citizen\nDECISION: keep\nGUESS: Green Tea"],
        )
        self.spy = spy
        self.first_target = first_target

    def __call__(self, request: ChatRequest) -> str:
        task = self.task(request)
        state = self.state(request)
        if task == "formalize":
            self.asked.setdefault(task, []).append(request)
            sentence = state.splitlines()[0].removeprefix("Sentence: ")
            return f"FORMULA: {FORMS.get(sentence, [GENERIC_FORM])[0]}"
        if task == "rules":
            self.asked.setdefault(task, []).append(request)
            first_fact = state.split("\n")[1].removeprefix("- ")
            rules = RULES.get(first_fact, ["Whatever is talked about is a tea."])
            return "RULES:\n" + "\n".join(f"- {r}" for r in rules)
        if task in ("describe", "vote"):
            self.asked.setdefault(task, []).append(request)
            seat = int(re.search(r"You are player (\d+)", state).group(1))  # type: ignore[union-attr]
            round_ = int(re.search(r"^Round (\d+)", state).group(1))  # type: ignore[union-attr]
            if task == "describe":
                word = re.search(r'Your word card is "([^"]+)"', state).group(1)  # type: ignore[union-attr]
                base = SAYINGS[word][(round_ - 1) % 2]
                text = f"{base.rstrip('.')}, says player {seat} in round {round_}."
                return f"REASONING: fine.\nROLE: citizen\nDESCRIPTION: {text}"
            target = self.first_target if round_ == 1 else self.spy
            if target == seat:
                allowed = re.search(r"You may vote for: ([^.]*)\.", state)
                target = int(re.findall(r"\d+", allowed.group(1))[0])  # type: ignore[union-attr]
            return f"REASONING: fine.\nROLE: citizen\nVOTE: player {target}"
        return super().__call__(request)


def play_short_game(seed: int) -> tuple[UndercoverGame, Sequence[LLMAgent], GameResponder]:
    game = UndercoverGame(UndercoverConfig(players=4), PAIR, seed)
    first_target = next(s for s in range(4) if s != game.spy_seat)
    responder = GameResponder(game.spy_seat, first_target)
    kinds = ("nli", "att-nli", "ns-att-nli", "nli")
    with scripted(responder) as (_, client):
        agents = [
            make_llm_agent(k, client, seat=s, seed=seed, prover=Z3Prover())  # type: ignore[arg-type]
            for s, k in enumerate(kinds)
        ]
        play_undercover(game, agents, ProverChecker(ConsistencyTest(Lexicon.load())))
    assert all(agent.fallbacks.total == 0 for agent in agents)
    return game, agents, responder


def test_a_short_game_with_the_three_agent_types() -> None:
    seed = next(
        s for s in range(50) if UndercoverGame(UndercoverConfig(players=4), PAIR, s).spy_seat != 2
    )
    game, agents, _ = play_short_game(seed)
    result = game.result
    assert result is not None and result.winner is Side.CITIZENS and result.rounds == 2
    assert [a.name for a in agents] == ["nli", "att-nli", "ns-att-nli", "nli"]
    events = list(game.events)
    described = [e for e in events if isinstance(e, DescriptionEvent)]
    ns_events = [e for e in described if e.seat == 2]
    assert len(ns_events) == 2
    # Each description ends ", says player k in round r": no reader reads that, so the seat's
    # own formula (here outside the pair's vocabulary too) is not taken as its meaning.
    for event in described:
        assert event.outcome is CheckOutcome.UNREAD and event.reading is not None
        seat_formula = event.reading.seat_formula
        assert (seat_formula is not None) == (event.seat == 2)
        assert seat_formula is None or seat_formula.failed in ("vocabulary", "sentence")
    assert all(e.formula is not None for e in ns_events)
    assert all(e.formula is None for e in described if e.seat != 2)
    for event in ns_events:
        assert event.formula is not None
        parse_formula(event.formula)
    ns = agents[2]
    assert isinstance(ns, NeuroSymbolicAttNLIAgent)
    assert len(ns.refinements) == 1 and ns.refinements[0].seat == result.eliminated[0]
    assert ns.records and ns.records[-1].round == 2
    assert len(ns.turns) == 4 and all(not t.fallback for t in ns.turns)
    header = undercover_header(game, [a.name for a in agents])
    replayed = replay(header, [game.start_event(), *events])
    assert replayed.result == result


class MuteSeatResponder(GameResponder):
    """Answers a whole game as ``GameResponder`` does, except that seat ``mute`` never says
    anything usable when asked to describe or vote."""

    def __init__(self, spy: int, first_target: int, mute: int) -> None:
        super().__init__(spy, first_target)
        self.mute = mute

    def __call__(self, request: ChatRequest) -> str:
        state = self.state(request)
        speaker = re.search(r"You are player (\d+)", state)
        if self.task(request) in ("describe", "vote") and speaker and int(speaker[1]) == self.mute:
            return "I would rather not say."
        return super().__call__(request)


def test_the_played_game_reports_each_llm_seats_own_fallbacks(
    scripted_chat: StartServer,
) -> None:
    seed = 3
    game = UndercoverGame(UndercoverConfig.model_validate({"players": 4}), PAIR, seed)
    mute = next(s for s in range(4) if s != game.spy_seat)
    first_target = next(s for s in range(4) if s not in (game.spy_seat, mute))
    server = scripted_chat(MuteSeatResponder(game.spy_seat, first_target, mute))
    llm = LLMSettings(base_url=server.base_url, model="scripted", max_retries=0)
    settings = UndercoverAgentSettings.create(
        client=OpenAIChatClient(llm), pipeline=PipelineSettings(backend="z3")
    )
    specs = ["nli", "att-nli", "ns-att-nli", "nli"]
    setup = UndercoverSetup(config=game.config, pair=PAIR)
    played = play_game(UNDERCOVER, specs, seed, settings, setup)
    assert server.errors == [] and isinstance(played.state, UndercoverState)
    events = played.state.game.events
    described = sum(isinstance(e, DescriptionEvent) and e.seat == mute for e in events)
    voted = sum(b.voter == mute for e in events if isinstance(e, VoteEvent) for b in e.ballots)
    assert described > 0 and voted > 0
    assert played.fallbacks[mute].counts == {
        "describe": {"unparsed": described},
        "vote": {"unparsed": voted},
    }
    assert [f.total for s, f in enumerate(played.fallbacks) if s != mute] == [0, 0, 0]
    assert combined_fallbacks(played.fallbacks) == played.fallbacks[mute]


@pytest.mark.parametrize("uses_roles", [False, True])
def test_a_structured_description_is_one_sentence_about_it(uses_roles: bool) -> None:
    model = describe_answer_model(uses_roles)
    extra = {"reasoning": "r", "role": "citizen"} if uses_roles else {}
    for good in ("It is a hot drink made from leaves.", "It comes from Sri Lanka"):
        model.model_validate({**extra, "description": good})
    for bad in ("Ceylon tea is a hot drink.", "It Ceylon.", 'It is "tea".', "It is hot. It is."):
        with pytest.raises(ValidationError, match="pattern"):
            model.model_validate({**extra, "description": bad})
    task = prompts.ATT_DESCRIBE_TASK if uses_roles else prompts.NLI_DESCRIBE_TASK
    assert 'starts with "It"' in task
