"""Reading answers in words (``formalize.reading``): the offline reader on the readings the
free-text grader used to get wrong, bad input, the LLM reader under the early-stop vote (a repeat
decides, no repeat is unsure, calls counted, recorded and replayed), the combined reader, the
answer schema, WellPlay letters, and the ``bench freetext`` and ``detective-agreement --modes
exact`` commands."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchmarks.console.cli import app
from benchmarks.freetext_bench import LABELLED, load_labelled, read_by_rule
from formalize.interrogation.questions import Where
from formalize.reading.llm_reader import LLMReader
from formalize.reading.llm_schemas import reading_answer_model
from formalize.reading.offline import OfflineReader
from formalize.reading.reader import CombinedReader
from formalize.reading.reading import Reading
from formalize.reading.task import Option, ReadingTask, SlotSpec
from games.detective.reading import question_task
from games.mystery.llm_agents import QuestionSpec, parse_question
from games.mystery.wellplay import WellPlayQuestion
from games.mystery.wellplay_answer import chosen_letters
from reasoning.llm import LLMSettings, RecordingClient, ReplayClient, make_client
from reasoning.llm.scripted_server import ChatRequest, ScriptedChatServer, Step

runner = CliRunner()
SET = load_labelled(LABELLED)
CASE = SET.cases[0]  # Maud Carrow is the victim; Hugo Marsh (the private secretary) did it
QUESTIONS = {q.id: q for q in CASE.questions}
READER = OfflineReader(CASE.setting)


def read(qid: str, text: str) -> Reading:
    return READER.read(question_task(QUESTIONS[qid], CASE.setting), text)


def outcome(qid: str, text: str) -> list[str | None]:
    return [s.option or s.outcome for s in read(qid, text).slots]


@pytest.mark.parametrize(
    ("qid", "text", "expected"),
    [
        ("who", "It was not Hugo Marsh, it was Felix Kettering", ["felix"]),
        ("who", "Felix Kettering, Ada Jessop, Greta Ingram, Basil Blackwood", ["several"]),
        ("who", "Either Hugo Marsh or Felix Kettering", ["several"]),
        ("who", "Maud Carrow was shot by Ada Jessop", ["ada"]),
        ("who", "Don't know; maybe it was not Hugo Marsh after all", ["rejected"]),
        ("who", "the private secretary", ["hugo"]),
        ("who", "her secretary", ["hugo"]),
        ("who", "Marsh", ["hugo"]),
        ("who", "Hugo Mrash", ["hugo"]),
        ("who", "Hugo Marsh\u2019s cousin", ["unsure"]),
        ("who", "Maybe Hugo Marsh", ["unsure"]),
        ("why", "he was about to be sacked", ["dismissal"]),
        ("when", "8 pm", ["t2"]),
        ("when", "after eight", ["unsure"]),
        ("how", "the service revolver and the silk cord", ["several", "none"]),
        ("how", "shot with the revolver", ["servicerevolver", "shooting"]),
        ("why", "I don't know", ["none"]),
        ("why", "for the money", ["unsure"]),
        ("who", "Hugo Marsh, I don't think so", ["unsure"]),
        ("who", "I doubt it was Hugo Marsh", ["unsure"]),
        ("who", "No doubt it was Hugo Marsh", ["hugo"]),
        ("who", "Anyone but Hugo Marsh", ["rejected"]),
        ("who", "Hugo Marsh found the body", ["unsure"]),
    ],
)
def test_the_offline_reader_reads_what_keyword_matching_got_wrong(
    qid: str, text: str, expected: list[str]
) -> None:
    assert outcome(qid, text) == expected


@pytest.mark.parametrize(
    ("qid", "text", "expected"),
    [
        # predicates that deny or doubt reject the option they are said of
        ("who", "Hugo Marsh is the least likely", ["rejected"]),
        ("who", "Hugo Marsh is least likely", ["rejected"]),
        ("who", "Hugo Marsh can be ruled out", ["rejected"]),
        ("who", "Hugo Marsh is unlikely", ["rejected"]),
        ("who", "Hugo Marsh was framed", ["rejected"]),
        ("who", "Hugo Marsh is a red herring", ["rejected"]),
        ("who", "Hugo Marsh was elsewhere at the time", ["rejected"]),
        ("who", "Hugo Marsh has a solid alibi", ["rejected"]),
        ("who", "Hugo Marsh is innocent and so is Felix Kettering", ["rejected"]),
        ("who", "Hugo Marsh and Felix Kettering are both innocent", ["rejected"]),
        ("why", "Revenge can be ruled out", ["rejected"]),
        ("when", "Nine o'clock seems unlikely", ["rejected"]),
        ("how", "The carving knife was planted; she was shot", ["rejected", "shooting"]),
        # a method's words that name a weapon too ("cord") name neither for sure
        ("how", "Strangled with a cord", ["unsure", "unsure"]),
        # words the reader does not know, put to a name, leave it unsure
        ("who", "Hugo Marsh is the last person I would suspect", ["unsure"]),
        ("who", "Hugo Marsh was the victim's friend, not the killer", ["unsure"]),
        ("who", "Hugo Marsh, the victim's friend, not the killer", ["unsure"]),
        ("who", "Hugo Marsh was in the library at eight", ["unsure"]),
        ("who", "The killer was with Hugo Marsh", ["unsure"]),
        # someone else's belief, reported speech, a question back
        ("who", "The police think Hugo Marsh, but I disagree", ["unsure"]),
        ("who", "Everyone suspects the private secretary", ["unsure"]),
        ("who", "Felix Kettering said Hugo Marsh did it", ["unsure"]),
        ("who", "Hugo Marsh did it, according to the police", ["unsure"]),
        ("when", "The clock said eight o'clock, but it had been tampered with", ["unsure"]),
        ("who", "Was it Hugo Marsh?", ["unsure"]),
        # a conditional, or a hedge standing apart from the name, leaves it undecided
        ("who", "Hugo Marsh would have done it", ["unsure"]),
        ("who", "Hugo Marsh should have done it", ["unsure"]),
        ("who", "Hugo Marsh would never have done it", ["rejected"]),
        ("who", "I would go with Hugo Marsh", ["hugo"]),
        ("who", "Hugo Marsh, or someone else", ["unsure"]),
        ("who", "Hugo Marsh. Or someone else.", ["unsure"]),
        ("who", "Hugo Marsh. Maybe.", ["unsure"]),
        ("who", "Hugo Marsh will kill her", ["unsure"]),
        ("who", "I'll go with Hugo Marsh", ["hugo"]),
        # a lone "no" takes back what comes before it, not what follows
        ("who", "Hugo Marsh, no.", ["unsure"]),
        ("who", "Hugo Marsh (no)", ["unsure"]),
        ("who", "No, it was Hugo Marsh.", ["hugo"]),
        ("who", "Hugo Marsh did it. Felix Kettering, who is unlikely.", ["unsure"]),
        # who did it and who saw it
        ("who", "Felix Kettering saw Hugo Marsh shoot her", ["hugo"]),
        ("who", "Hugo Marsh saw Felix Kettering shoot her", ["felix"]),
        ("who", "Maud Carrow killed Hugo Marsh", ["unsure"]),
        # only one did it
        ("who", "Nobody but Hugo Marsh could have done it", ["hugo"]),
        ("who", "Only the private secretary could have done it", ["hugo"]),
        # reasons: one that names no other option and denies nothing leaves the answer as it is
        ("who", "Hugo Marsh, because he needed money", ["hugo"]),
        ("who", "Hugo Marsh, because Felix Kettering was away", ["unsure"]),
        ("who", "Hugo Marsh, because he could not account for his time", ["unsure"]),
        ("who", "Hugo Marsh, because Felix Kettering has an alibi", ["hugo"]),
        (
            "whole",
            "Hugo Marsh shot her at eight because she was going to dismiss him",
            ["hugo", "none", "dismissal", "t2"],
        ),
        # a relative clause is read as any clause: one the reader cannot read leaves it unsure
        ("who", "It was Hugo Marsh who killed her", ["hugo"]),
        ("who", "Hugo Marsh, who was away at the time", ["unsure"]),
        ("who", "Hugo Marsh, who did not do it", ["unsure"]),
        ("who", "Hugo Marsh, when she was shot", ["hugo"]),
    ],
)
def test_the_offline_reader_asserts_only_what_it_understands(
    qid: str, text: str, expected: list[str]
) -> None:
    assert outcome(qid, text) == expected


def test_evidence_spans_are_spans_of_the_text_as_given() -> None:
    text = "It wasn\u2019t Hugo Marsh \u2014 Felix Kettering did it"
    (slot,) = read("who", text).slots
    assert slot.option == "felix" and slot.rejected == ["hugo"]
    assert [(e.words, e.stance) for e in slot.evidence] == [
        ("Hugo Marsh", "rejected"),
        ("Felix Kettering", "asserted"),
    ]
    assert all(text[e.start : e.end] == e.words for e in slot.evidence)


@pytest.mark.parametrize(
    "text",
    [
        "Hugo Marsh " * 100_000,
        "Hugo\x00 Marsh\x07\x1b[31m",
        "\u0425\u044c\u044e\u0433\u043e \u041c\u0430\u0440\u0448",
        '{"culprit": "Hugo Marsh", "motive": null}',
        "",
        "\u200b\ufeff",
    ],
)
def test_bad_input_gets_a_reading_or_unsure(text: str) -> None:
    reading = read("whole", text)
    assert [s.slot for s in reading.slots] == ["culprit", "weapon", "motive", "time"]
    assert all(s.outcome in ("asserted", "none", "unsure") for s in reading.slots)
    if len(text) > 4000:
        assert {s.outcome for s in reading.slots} == {"unsure"}
    if text.startswith("\u0425"):  # another script: words the reader cannot place
        assert {s.outcome for s in reading.slots} == {"unsure"}


TASK = ReadingTask(
    question="Who did it?",
    slots=[
        SlotSpec(
            name="culprit",
            kind="culprit",
            options=[Option(value="ada", text="Ada Orme"), Option(value="basil", text="Basil Ash")],
        )
    ],
)


def reply(reading: str, words: str = "") -> str:
    return json.dumps({"culprit": {"words": words, "reading": reading}})


def test_the_llm_reader_votes_until_a_reading_repeats() -> None:
    script: list[Step] = [reply("Ada Orme", "Ada"), reply("several"), reply("Ada Orme", "Ada")]
    with ScriptedChatServer(script) as server:
        client = make_client(LLMSettings(base_url=server.base_url, model="m"))
        reading = LLMReader(client).read(TASK, "I'd say Ada.")
        seeds = [r.body.get("seed") for r in server.requests]
    (slot,) = reading.slots
    assert (slot.outcome, slot.option, slot.reader) == ("asserted", "ada", "llm")
    assert reading.calls == 3 and seeds == [0, 1, 2]
    assert reading.vote is not None and reading.vote.decided_by == "repeat"
    assert reading.vote.ballots == ["culprit=ada", "culprit=several", "culprit=ada"]
    assert [(e.start, e.end, e.stance) for e in slot.evidence] == [(8, 11, "asserted")]


def test_no_repeat_within_the_cap_is_unsure_and_a_malformed_reply_is_a_ballot() -> None:
    script: list[Step] = [reply("Ada Orme"), "no JSON here", reply("Basil Ash"), reply("none")]
    with ScriptedChatServer(script) as server:
        client = make_client(LLMSettings(base_url=server.base_url, model="m"))
        reading = LLMReader(client, max_attempts=4).read(TASK, "Ada? Basil?")
    assert [s.outcome for s in reading.slots] == ["unsure"] and reading.calls == 4
    assert reading.vote is not None and reading.vote.decided_by == "no repeat"
    assert reading.vote.ballots[1] == "culprit=unsure"


def test_llm_readings_are_recorded_and_replayed(tmp_path: Path) -> None:
    path = tmp_path / "calls.jsonl"
    with ScriptedChatServer(read_by_rule) as server:
        real = make_client(LLMSettings(base_url=server.base_url, model="m"))
        recorded = LLMReader(RecordingClient(real, path)).read(TASK, "Basil Ash did it")
    replayed = LLMReader(ReplayClient(path, model="m")).read(TASK, "Basil Ash did it")
    assert recorded == replayed and recorded.values() == {"culprit": "basil"}
    assert recorded.vote is not None and recorded.vote.recorded == [0, 1]


def test_the_combined_reader_asks_only_for_unsure_slots() -> None:
    asked: list[str] = []

    def script(request: ChatRequest) -> Step:
        asked.append(request.last_user)
        return read_by_rule(request)

    with ScriptedChatServer(script) as server:
        client = make_client(LLMSettings(base_url=server.base_url, model="m"))
        combined = CombinedReader(READER, LLMReader(client))
        task = question_task(QUESTIONS["whole"], CASE.setting)
        decided = combined.read(task, "Hugo Marsh, the service revolver, dismissal, 8 pm")
        assert decided.calls == 0 and not asked
        mixed = combined.read(
            task, "Hugo Marsh with the service revolver at 8 pm, because he hated her"
        )
    assert mixed.reader == "offline+llm" and mixed.calls == 2
    assert [s.reader for s in mixed.slots] == ["offline", "offline", "llm", "offline"]
    assert "- motive:" in asked[0] and "- culprit:" not in asked[0]


def test_the_answer_schema_enumerates_each_slots_options_and_stays_small() -> None:
    task = question_task(QUESTIONS["how"], CASE.setting)
    schema = reading_answer_model(task).model_json_schema()
    assert schema["required"] == ["weapon", "method"]
    slots = [schema["$defs"][ref.split("/")[-1]] for ref in
             (p["$ref"] for p in schema["properties"].values())]  # fmt: skip
    assert slots[0]["properties"]["reading"]["enum"] == [
        *(o.text for o in task.slots[0].options),
        "several",
        "none",
        "unsure",
    ]
    assert "maxLength" not in json.dumps(schema)
    with pytest.raises(ValueError, match="reader answers with it"):
        Option(value="x", text="None")


def test_wellplay_letters_are_read_from_the_words() -> None:
    options = {"a": "Alice", "b": "Bob", "c": "Carol", "d": "Dan", "e": "Eve"}
    single = WellPlayQuestion(
        points=10, multiple=False, question="Who?", options=options, key=frozenset({"b"})
    )
    several = single.model_copy(update={"multiple": True})
    assert chosen_letters(single, "b") == chosen_letters(single, "Bob") == {"b"}
    assert chosen_letters(single, "The answer is (b).") == {"b"}
    assert chosen_letters(single, "the butler") == frozenset()  # once b, e, t, h... by letter
    assert chosen_letters(single, "b, d") == frozenset()
    assert chosen_letters(several, "b, d") == chosen_letters(several, "b and d") == {"b", "d"}
    assert chosen_letters(several, "b or d") == frozenset()
    assert chosen_letters(single, "b is the answer") == chosen_letters(single, "b is correct")
    assert chosen_letters(single, "b is correct") == {"b"}
    # letters said to be wrong, doubted or put in someone else's mouth are not chosen
    for text in ("b is wrong", "Option b can be ruled out", "b (probably not)", "Alice said b"):
        assert chosen_letters(single, text) == chosen_letters(several, text) == frozenset(), text
    assert chosen_letters(several, "a and b are both wrong") == frozenset()


def test_name_fields_name_a_person_only_where_they_assert_one() -> None:
    setting = CASE.setting
    hour = setting.slots[2]
    for named in ("Hugo Marsh", "the private secretary", "Mr Marsh"):
        spec = QuestionSpec(kind="where", about=named, time=hour)
        assert parse_question(setting, spec) == Where("hugo", 2), named
    for named in ("Hugo Marsh can be ruled out", "Hugo Marsh (innocent)", "not Hugo Marsh"):
        assert parse_question(setting, QuestionSpec(kind="where", about=named, time=hour)) is None


def test_the_offline_reader_asserts_nothing_the_labelled_answers_do_not() -> None:
    readers = {c.name: OfflineReader(c.setting) for c in SET.cases}
    wrong = []
    for answer in SET.answers:
        case, question = SET.question(answer)
        reading = readers[case.name].read(question_task(question, case.setting), answer.text)
        for slot, asserted in reading.values().items():
            if asserted is not None and asserted != answer.truth[slot]:
                wrong.append((answer.id, answer.text, slot, asserted))
    assert not wrong


def test_bench_freetext_prints_the_table_per_kind_and_reader(tmp_path: Path) -> None:
    done = runner.invoke(
        app,
        ["bench", "freetext", "--readers", "offline,llm", "--scripted",
         "--batch", "held-out", "--out", str(tmp_path)],
    )  # fmt: skip
    assert done.exit_code == 0, done.output
    result = json.loads((tmp_path / "freetext.json").read_text())
    rows = {(r["reader"], r["kind"]): r for r in result["table"]}
    held_out = [a for a in SET.answers if a.batch == "held-out"]
    assert rows["offline", "all"]["answers"] == len(held_out)
    assert rows["offline", "all"]["over"] == 0 and rows["offline", "all"]["calls/answer"] == 0
    assert rows["llm", "all"]["calls/answer"] == 2.0
    assert "offline  plain" in done.output and "CPU" in done.output


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--readers", "offline,magic"], "--readers"),
        (["--readers", "llm"], "--base-url"),
        (["--labelled", "{missing}"], "missing.json"),
        (["--labelled", "{bad}"], "bad.json:1"),
    ],
)
def test_bench_freetext_bad_options_are_one_line(
    tmp_path: Path, args: list[str], needle: str
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"about": 1}')
    paths = {"missing": str(tmp_path / "missing.json"), "bad": str(bad)}
    done = runner.invoke(app, ["bench", "freetext", *(a.format(**paths) for a in args)])
    assert done.exit_code == 2 and needle in done.output
    assert len(done.output.strip().splitlines()) == 1


def test_detective_agreement_exact_needs_no_endpoint(tmp_path: Path) -> None:
    from games.detective.case import CaseKnobs, dump_case
    from games.detective.entry import game_case
    from games.detective.events import DetectiveConfig

    case = game_case(DetectiveConfig(knobs=CaseKnobs(questions=5)), 3)  # asks "who" alone
    case_file = tmp_path / "case.json"
    case_file.write_text(dump_case(case))
    q = next(q for q in case.questions if q.id == "who")
    culprit = case.setting.person(q.slots[0].answer).name if case.setting else ""
    study = [("a0", culprit), ("a1", f"not {culprit}"), ("a2", "maybe " + culprit)]
    answers = tmp_path / "answers.jsonl"
    answers.write_text(
        "".join(json.dumps({"id": i, "question": "who", "answer": t}) + "\n" for i, t in study)
    )
    grades = tmp_path / "grades.csv"
    grades.write_text("answer_id,grader,grade\na0,h1,3\na1,h1,0\na2,h1,3\n")
    done = runner.invoke(
        app,
        ["bench", "detective-agreement", "--case", str(case_file), "--answers", str(answers),
         "--grades", str(grades), "--modes", "exact", "--out", str(tmp_path / "out")],
    )  # fmt: skip
    assert done.exit_code == 0, done.output
    assert "Exact-Human" in done.output and "2 of 3 answers with slots judged, 1 unjudged" in (
        done.output
    )
    result = json.loads((tmp_path / "out" / "detective_agreement.json").read_text())
    assert result["unjudged"] == ["a2"]
    assert result["table"][0]["percent_exact"] == 100.0
