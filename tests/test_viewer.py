"""`gumshoe view`: one self-contained page per game log, run or comparison of runs, for every game,
checked in a real browser (Debian's chromium through selenium, network blocked) as a reader uses
it: keys on load, steps in words, claims opening their detail beside them, answers in words beside
their readings, runs' tables against their summaries, deep links pasted, runs side by side, and
data that tries to break the page."""

from __future__ import annotations

import json
import re
import shutil
import time
from collections.abc import Callable, Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from benchmarks.clue_bench import ClueBenchConfig, run
from benchmarks.console.cli import app
from benchmarks.runner import RunOptions
from benchmarks.viewer.page import embedded_json, render_page
from benchmarks.viewer.run import view_run
from benchmarks.viewer_bench import headless_chromium
from games.core import game_names, get_game
from games.core.play import play_game
from games.core.runlog import EventLog
from games.detective import Case, CaseKnobs
from games.detective.agents import DetectiveAgentSettings
from games.detective.entry import game_case
from games.detective.events import AnswersEvent, DetectiveConfig
from reasoning.llm import LLMSettings
from reasoning.llm.scripted_server import ChatRequest, ScriptedChatServer, Step

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
runner = CliRunner()
SYMBOLIC = {"clue": "prover", "detective": "prover", "hanabi": "symbolic", "undercover": "prover"}
"""A symbolic agent of each game (``prover`` where the game's list does not say otherwise)."""
HOSTILE = '<!--<script></script><img src=x onerror="window.pwned=1"><script>window.pwned=2</script>'
"""What a name, id, title or LLM text may hold to break a page or run a script in it."""
ARROW_RIGHT = "\ue014"

RAW = {
    "a raw float": re.compile(r"\d\.\d{4,}"),
    "a Python repr": re.compile(r"\{'|': |\bNone\b|\bTrue\b|\bFalse\b|=\[|\w+=\w"),
    "a formula": re.compile(
        r"\b[A-Z]\w*\(\w+(:\w+)?[,)]|\bexists \w|\bforall \w"
        r"|[\u2200\u2203\u2227\u2228\u00ac]| -> | & "
    ),
    "an id with underscores": re.compile(r"\b[a-z]+_[a-z_]+\b"),
}
"""What no rendered text shows where words serve (formulas only on demand, folded)."""


def played_log(game: str, folder: Path, seed: int = 1) -> Path:
    """A finished log of ``game`` between symbolic agents."""
    entry = get_game(game)
    players = max(
        entry.info.min_players, min(entry.info.max_players, 5 if game == "mystery" else 3)
    )
    path = folder / f"{game}.jsonl"
    with EventLog(path) as log:
        play_game(entry, [SYMBOLIC.get(game, "prover")] * players, seed, log=log)
    return path


def view(*paths: Path | str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["view", *(str(p) for p in paths)])
    return result.exit_code, result.stdout, result.stderr


def embedded(page: Path) -> dict[str, Any]:
    text = page.read_text(encoding="utf-8")
    start = text.index('id="gumshoe-data">') + len('id="gumshoe-data">')
    data: dict[str, Any] = json.loads(text[start : text.index("</script>", start)])
    return data


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One finished log of every game, with its page written beside it."""
    folder = tmp_path_factory.mktemp("games")
    found = {}
    for game in game_names():
        found[game] = played_log(game, folder)
        code, out, err = view(found[game])
        assert code == 0, err
        assert Path(out.strip()) == found[game].with_suffix(".html")
    return found


@pytest.mark.parametrize("game", game_names())
def test_every_game_gets_a_page_that_loads_nothing(logs: dict[str, Path], game: str) -> None:
    page = logs[game].with_suffix(".html")
    html = page.read_text(encoding="utf-8")
    for needle in ("<script src", "<link", "@import", "url(http", 'src="http', 'href="http'):
        assert needle not in html
    assert embedded(page)["kind"] == "game"


@pytest.mark.parametrize("game", ["detective", "undercover"])
def test_a_viewer_that_audits_gives_the_record_the_auditor_gives(
    logs: dict[str, Path], game: str
) -> None:
    entry = get_game(game)
    log = entry.read_log(logs[game])
    parts = entry.view(log)
    assert parts is not None and parts.record == entry.audit(log)
    assert parts.claims is not None and len(parts.claims) == len(parts.record.rows)


def test_bad_paths_logs_and_outputs_are_one_line(tmp_path: Path, logs: dict[str, Path]) -> None:
    code, _, err = view(tmp_path / "missing.jsonl")
    assert code == 2 and err.count("\n") == 1 and "missing.jsonl" in err
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n", encoding="utf-8")
    code, _, err = view(bad)
    assert code == 2 and err.count("\n") == 1 and "bad.jsonl" in err
    empty = tmp_path / "empty-run"
    empty.mkdir()
    code, _, err = view(empty)
    assert code == 2 and "not a run directory" in err
    code, _, err = view(empty, logs["clue"])
    assert code == 2 and err.count("\n") == 1 and "clue.jsonl: not a run directory" in err
    before = logs["clue"].read_bytes()
    result = runner.invoke(app, ["view", str(logs["clue"]), "-o", str(logs["clue"])])
    assert result.exit_code == 2 and "overwrite its own input" in result.stderr
    assert logs["clue"].read_bytes() == before


def test_data_in_a_page_cannot_close_its_script_block() -> None:
    data = {"kind": "run", "names": [HOSTILE, "a & b", "\u2028"], "nan": float("nan")}
    payload = embedded_json(data)
    for needle in ("<", ">", "&", "\u2028"):
        assert needle not in payload
    assert json.loads(payload) == {**data, "nan": None}
    page = render_page(HOSTILE, data)
    assert page.count("<script") == 2 and page.count("</script>") == 2
    assert "<!--" not in page


# --- in the browser ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if CHROMIUM is None or CHROMEDRIVER is None:
        pytest.skip("chromium and chromium-driver (Debian packages) are not installed")
    pytest.importorskip("selenium.webdriver", reason="selenium (dev extra) missing")
    driver = headless_chromium(
        CHROMIUM,
        CHROMEDRIVER,
        "1400,1000",
        "--proxy-server=127.0.0.1:9",
        "--proxy-bypass-list=<-loopback>",
    )
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["http://*", "https://*"]})
    try:
        yield driver
    finally:
        driver.quit()


def open_page(driver: Any, page: Path, fragment: str = "") -> None:
    """Load ``page`` afresh (at ``#fragment``) and wait until it has rendered."""
    driver.get("about:blank")
    driver.get(page.as_uri() + fragment)
    for _ in range(200):
        if driver.find_element("tag name", "body").get_attribute("data-ready"):
            break
        time.sleep(0.05)
    assert driver.find_element("tag name", "body").get_attribute("data-ready") == "1"


def css(driver: Any, selector: str) -> list[Any]:
    return list(driver.find_elements("css selector", selector))


def text_of(driver: Any, selector: str) -> str:
    return str(driver.find_element("css selector", selector).text)


def go_to_step(driver: Any, index: int, scope: str = "") -> None:
    driver.execute_script(
        "const r = document.querySelector(arguments[0] + ' .step-range');"
        "r.value = arguments[1]; r.dispatchEvent(new Event('input'));",
        scope,
        index,
    )


def assert_words_only(driver: Any, where: str, skip: tuple[str, ...] = ()) -> None:
    """No raw float, repr, formula or snake_case id in the text the page shows."""
    shown = str(driver.execute_script("return document.querySelector('main').innerText"))
    for path in skip:
        shown = shown.replace(path, "")
    for kind, pattern in RAW.items():
        found = pattern.search(shown)
        assert found is None, (
            f"{where}: {kind} shown: {shown[max(0, found.start() - 60) :][:160]!r}"
        )


def audited(game: str, log: Path) -> dict[str, Any]:
    result = runner.invoke(app, ["audit", game, str(log), "--json"])
    assert result.exit_code == 0, result.output
    record: dict[str, Any] = json.loads(result.stdout)
    return record


def test_every_game_reads_in_words_and_shows_each_game_as_it_is_seen(
    browser: Any, logs: dict[str, Path]
) -> None:
    for game, log in logs.items():
        page = log.with_suffix(".html")
        open_page(browser, page)
        record = audited(game, log)
        # the outcome is the log's end, and the audit table is `gumshoe audit --json`'s
        end = json.loads(log.read_text(encoding="utf-8").splitlines()[-1])
        outcome = text_of(browser, ".outcome")
        seats = json.loads(log.read_text(encoding="utf-8").splitlines()[0])["seats"]
        if len(set(end["ranks"])) > 1:
            winners = [seats[s]["name"] for s, rank in enumerate(end["ranks"]) if rank == 1]
            assert outcome.startswith("Won by") and all(w in outcome for w in winners), outcome
        if any(s["stated"] for s in record["seats"]):
            for seat in record["seats"]:
                cells = css(browser, f"table.summary tr[data-seat='{seat['seat']}'] td[data-count]")
                shown = {c.get_attribute("data-count"): c.text for c in cells}
                assert shown == {k: str(seat[k]) for k in shown}, game
        else:
            assert "nothing to audit" in text_of(browser, ".no-claims")
        # the arrow keys move the steps as soon as the page is there, without a click
        browser.find_element("tag name", "body").send_keys(ARROW_RIGHT)
        assert text_of(browser, ".step-label").startswith("step 2 of"), game
        assert browser.current_url.endswith("#step=2")
        last = int(css(browser, ".step-range")[0].get_attribute("max"))
        seen_claim = False
        claimed = {row["where"]["line"] - 2 for row in record["rows"][:1]}  # line 1: header
        for index in sorted({0, 1, last // 3, last // 2, last} | claimed):
            go_to_step(browser, index)
            assert_words_only(browser, f"{game} step {index}", (str(log),))
            claims = css(browser, ".deduction")
            if claims and not seen_claim:
                seen_claim = True
                claims[0].click()
                detail = browser.execute_script(
                    "return document.querySelector('.deduction.selected').nextElementSibling"
                )
                assert "claim-detail" in detail.get_attribute("class")
                assert "Judgement:" in detail.text
                assert_words_only(browser, f"{game} claim detail", (str(log),))
        assert seen_claim or not record["rows"], f"{game}: no claim was shown at the steps visited"
        shows_the_game_as_seen(browser, game, log)


def shows_the_game_as_seen(browser: Any, game: str, log: Path) -> None:
    """What each game's page draws of the game itself."""
    if game == "clue":
        assert css(browser, ".panel td[data-code]")
    elif game == "detective":
        go_to_step(browser, 2)  # the first visit: the location being read, after the intro
        docs = css(browser, ".panel details.document")
        assert docs[0].get_attribute("data-doc") == "introduction"
        reading = css(browser, ".panel details.document.reading")
        assert len(reading) == 1 and reading[0].get_attribute("open") is not None
        assert reading[0].text.startswith("Being read:")
        assert css(browser, ".panel details.reading mark.fact"), "fact sentences are marked"
        go_to_step(browser, 3)
        assert "grade" in text_of(browser, ".panel"), "the answers sit beside the text read"
    elif game == "hanabi":
        go_to_step(browser, 0)
        hands = css(browser, ".panel[data-seat='0'] .card[data-face]")
        deal = json.loads(log.read_text(encoding="utf-8").splitlines()[1])
        assert [c.get_attribute("data-face") for c in hands] == deal["hands"][0]
        assert [c.text for c in hands] == [card[1] for card in deal["hands"][0]]
        assert "fireworks" in text_of(browser, ".panel[data-seat='table']")
    elif game == "undercover":
        steps = css(browser, "ol.steps li")
        said = next(i for i, s in enumerate(steps) if "says “" in s.get_attribute("textContent"))
        go_to_step(browser, said)
        formula = css(browser, ".step-text details.formula")
        assert formula and formula[0].get_attribute("open") is None, "formula folded, on demand"
    elif game == "mystery":
        last = int(css(browser, ".step-range")[0].get_attribute("max"))
        go_to_step(browser, last)
        tables = css(browser, ".panel table.words")
        assert tables and "round 1" in tables[0].text


WORDS = DetectiveConfig(knobs=CaseKnobs(locations=6, questions=2))
WORDS_SEED = 7
EMOJI = "\U0001f50d"
"""A character JavaScript counts as two (UTF-16), put before the words an answer is read from."""


def answers_in_words(case: Case) -> Callable[[ChatRequest], Step]:
    """Answers in words by stage: no idea; a hedge between two options; one option with a hedge
    (the offline reader is unsure, and the LLM reader's five ballots never repeat); a wrong
    option only denied; then, after a reason holding an emoji (which the offline reader leaves
    aside), a wrong option denied and the right one asserted. Visits the first location
    listed."""
    attempts: dict[str, int] = {}

    def answer(request: ChatRequest) -> Step:
        prompt = request.last_user
        if "Answer given:" in prompt:
            attempt = attempts[prompt] = attempts.get(prompt, -1) + 1
            parts = re.findall(r'^- (\w+): "([^"]*)", "([^"]*)"', prompt, re.MULTILINE)
            return json.dumps(
                {
                    name: {"words": "", "reading": ["several", "none", "unsure", a, b][attempt]}
                    for name, a, b in parts
                }
            )
        if "your own words" in prompt:
            stage = min(prompt.count("$$ Location:"), 4)
            given = {}
            for number, q in enumerate(case.questions, start=1):
                parts = []
                for s in q.slots:
                    right = s.choice(s.answer).text.split(" (")[0]
                    wrong = next(c.text.split(" (")[0] for c in s.choices if c.value != s.answer)
                    parts.append(
                        [
                            "I don't know.",
                            f"either {wrong} or {right}",
                            f"maybe {right}",
                            f"not {wrong}",
                            f"as {EMOJI} shows, not {wrong} but {right}",
                        ][stage]
                    )
                given[str(number)] = ", ".join(parts)
            return json.dumps(given)
        first = re.search(r"not visited yet are:\n- (.*)", prompt)
        return json.dumps({"LOCATION": first.group(1) if first else ""})

    return answer


@pytest.fixture(scope="module")
def words_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A detective game answered in words (read offline, and by the LLM where offline is
    unsure), with its page written beside it."""
    path = tmp_path_factory.mktemp("words") / "detective-words.jsonl"
    with ScriptedChatServer(answers_in_words(game_case(WORDS, WORDS_SEED))) as server:
        llm = LLMSettings(base_url=server.base_url, model="scripted")
        settings = DetectiveAgentSettings(llm=llm, reader="combined")
        with EventLog(path) as log:
            play_game(get_game("detective"), ["llm-words"], WORDS_SEED, settings, WORDS, log=log)
    code, _, err = view(path)
    assert code == 0, err
    return path


def test_answers_in_words_are_shown_beside_their_readings(browser: Any, words_log: Path) -> None:
    log = get_game("detective").read_log(words_log)
    case = game_case(WORDS, WORDS_SEED)
    rows = audited("detective", words_log)["rows"]
    open_page(browser, words_log.with_suffix(".html"))
    outcomes: set[str] = set()
    stages = [(i, e) for i, e in enumerate(log.events) if isinstance(e, AnswersEvent)]
    for step, event in stages[:5]:
        go_to_step(browser, step)
        assert_words_only(browser, f"answers in words at step {step}", (str(words_log),))
        lines = browser.execute_script(
            "return [...document.querySelectorAll('.panel .line')].map((n) => n.firstChild"
            " ? n.firstChild.textContent.trim() : '')"
        )
        said = css(browser, ".panel q.said")
        assert event.texts is not None and event.readings is not None and event.grades is not None
        here = {
            (r["detail"]["question"], r["detail"]["slot"]): r["judgement"]
            for r in rows
            if r["where"]["line"] == log.line_of(step)
        }
        for number, question in enumerate(case.questions):
            text, reading = event.texts[question.id], event.readings[question.id]
            at = next(i for i, line in enumerate(lines) if line.startswith(question.text))
            grade = event.grades[number]
            assert lines[at].endswith("unjudged" if grade is None else f"grade {grade} of 3")
            # the text as given, each piece of evidence marked over its own words (after an
            # emoji too: the page counts no offsets), with the stance the reading gave it
            assert lines[at + 1] == text == said[number].get_attribute("textContent")
            evidence = [e for s in reading.slots for e in s.evidence]
            spans = sorted({(e.start, e.end, e.words, e.stance) for e in evidence})
            assert all(a[1] <= b[0] for a, b in pairwise(spans)), spans
            marks = said[number].find_elements("css selector", "mark.evidence")
            shown = [
                (m.get_attribute("textContent"), m.get_attribute("data-stance")) for m in marks
            ]
            assert shown == [(words, stance) for _, _, words, stance in spans]
            # who read it: offline, and the LLM (its calls, its vote) where offline was unsure
            assert reading.reader == "offline+llm"
            if reading.calls:
                assert lines[at + 2].startswith("read offline, the slots it was unsure of by the")
                assert f"({reading.calls} LLM calls)" in lines[at + 2]
                assert f"no reading repeated in {reading.calls} ballots" in lines[at + 2]
            else:
                assert lines[at + 2] == "read offline, sure of every slot (no LLM call)"
            for slot, line in zip(question.slots, lines[at + 3 :], strict=False):
                read = reading.slot(slot.name)
                outcomes.add(read.outcome)
                words = {c.value: c.text for c in slot.choices}
                assert line.startswith(f"{slot.name}: ")
                if read.outcome == "asserted":
                    verdict = here[(question.id, slot.name)]
                    assert line.startswith(
                        f"{slot.name}: {words[slot.answer]}, asserted — {verdict}"
                    )
                    for e in read.evidence:
                        verb = "asserts" if e.stance == "asserted" else "rejects"
                        assert f"“{e.words}” {verb} {words[e.options[0]]}" in line
                    assert text.index(EMOJI) < text.index(read.evidence[-1].words)
                elif read.outcome == "several":
                    options = " or ".join(words[o] for o in read.options)
                    assert line.startswith(f"{slot.name}: {options}: several, not credited · ")
                    for e in read.evidence:
                        assert f"“{e.words}” offers {words[e.options[0]]} with a hedge" in line
                elif read.outcome == "rejected":
                    assert line.startswith(
                        f"{slot.name}: {words[read.rejected[0]]}: only rejected, not credited · "
                    )
                elif read.outcome == "none":
                    assert line.startswith(f"{slot.name}: no answer · “don't know”: no answer")
                else:
                    assert line.startswith(f"{slot.name}: unread: the reader could not decide")
                    assert here[(question.id, slot.name)] == "unjudged"
                    assert line.endswith("— unjudged")
        # a slot the reader could not decide is listed as unread, not as a blank answer
        claims = css(browser, ".deduction")
        assert len(claims) == len(here)
        for claim in claims:
            unread = claim.get_attribute("data-judgement") == "unjudged"
            assert "no answer" not in claim.text
            assert ("unread, the reader could not decide" in claim.text) == unread
            assert unread or "read from “" in claim.text
        if any(c.get_attribute("data-judgement") == "unjudged" for c in claims):
            claims[0].click()
            assert "No claim was read from its words" in text_of(browser, ".claim-detail")
            assert_words_only(browser, "an unread slot's detail", (str(words_log),))
    assert outcomes == {"none", "several", "unsure", "rejected", "asserted"}


def clue_run(folder: Path, agents: tuple[str, ...]) -> Path:
    run(ClueBenchConfig(agents=agents), 3, folder, options=RunOptions(views=True, quiet=True))
    return folder


def test_runs_pages_and_their_comparison_in_the_browser(browser: Any, tmp_path: Path) -> None:
    first = clue_run(tmp_path / "prover-first", ("prover", "random", "random"))
    second = clue_run(tmp_path / "prover-second", ("random", "prover", "random"))
    code, out, err = view(first)
    assert code == 0, err
    page = Path(out.strip())
    open_page(browser, page)
    assert_words_only(browser, "run page", (str(first),))
    # the per-agent table agrees with the run's summary
    summary = json.loads((first / "summary.json").read_text(encoding="utf-8"))
    for agent in summary["per_agent"]:
        row = css(browser, f"table.agents tr[data-agent='{agent['agent']}'] td")
        rate = round(100 * agent["wins"] / agent["seat_games"])
        assert row[2].text.startswith(f"{rate}%"), (agent, row[2].text)
    # the games in seed order, each outcome the log's end
    rows = css(browser, "table.games tr.game-row")
    assert [r.get_attribute("data-game") for r in rows] == [f"clue-seed{s}" for s in range(3)]
    for row in rows:
        end = json.loads(
            (first / "games" / f"{row.get_attribute('data-game')}.jsonl")
            .read_text()
            .splitlines()[-1]
        )
        winner = end["ranks"].index(1)
        assert f"won by P{winner}" in row.text
    # sorted by a click on a heading (twice: the other way), filtered by words
    seed_head = css(browser, "table.games th")[0]
    seed_head.click()
    seed_head.click()
    order = [r.get_attribute("data-game") for r in css(browser, "table.games tr.game-row")]
    assert order == [f"clue-seed{s}" for s in (2, 1, 0)]
    box = css(browser, ".filter")[0]
    box.send_keys("seed1")
    assert [
        r.get_attribute("data-game") for r in css(browser, "tr.game-row") if r.is_displayed()
    ] == ["clue-seed1"]
    box.clear()
    box.send_keys(" ")
    # the plots have axes, ticks, labels, a legend and a tooltip
    known = css(browser, "svg.chart[data-chart='known']")[0]
    ticks = [t.text for t in known.find_elements("css selector", "text.tick")]
    assert "1" in ticks and len(ticks) > 6
    labels = [t.text for t in known.find_elements("css selector", "text.axis-label")]
    assert labels == ["round", "cards known (mean per seat)"]
    legend = text_of(browser, "#chart-known .chart-legend")
    assert "ideal reasoner" in legend and "prover" in legend
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(browser).move_to_element(known.find_element("css selector", ".hover")).perform()
    assert text_of(browser, ".tooltip").startswith("round")
    # a row opens its game in place, right under it, and the address says which and where
    target = next(
        r for r in css(browser, "tr.game-row") if r.get_attribute("data-game") == "clue-seed2"
    )
    target.click()
    opened = browser.execute_script(
        "return document.querySelector('tr[data-game=\"clue-seed2\"]').nextElementSibling"
    )
    for _ in range(100):
        if opened.find_elements("css selector", ".step-label"):
            break
        time.sleep(0.05)
    assert opened.get_attribute("data-game") == "clue-seed2"
    assert browser.current_url.endswith("#game=clue-seed2&step=1")
    browser.find_element("tag name", "body").send_keys(ARROW_RIGHT)
    assert browser.current_url.endswith("#game=clue-seed2&step=2")
    assert_words_only(browser, "run page, game open", (str(first),))
    # a pasted deep link opens that game at that step
    open_page(browser, page, "#game=clue-seed1&step=7")
    opened_game = css(browser, "tr.opened-game")
    assert [g.get_attribute("data-game") for g in opened_game] == ["clue-seed1"]
    assert text_of(browser, "tr.opened-game .step-label").startswith("step 7 of")

    # a long run shows its games a hundred a page, and a deep link turns to the right page
    one = view_run(first, quiet=True)
    games = [one.games[0].model_copy(update={"id": f"g{i:03d}", "seed": i}) for i in range(150)]
    long_page = tmp_path / "long.html"
    data = {"kind": "run", "run": one.model_copy(update={"games": games}).model_dump(mode="json")}
    long_page.write_text(render_page("long", data), encoding="utf-8")
    open_page(browser, long_page, "#game=g140&step=3")
    assert "rows 101 to 150 of 150" in text_of(browser, "table.games ~ .pager")
    assert [g.get_attribute("data-game") for g in css(browser, "tr.opened-game")] == ["g140"]
    assert text_of(browser, "tr.opened-game .step-label").startswith("step 3 of")

    # two runs side by side
    code, out, err = view(first, second)
    assert code == 0, err
    compare = Path(out.strip())
    assert compare.parent == tmp_path and compare.name == "compare-prover-first-prover-second.html"
    open_page(browser, compare)
    assert_words_only(browser, "comparison", (str(tmp_path),))
    diffs = css(browser, "table.differences tbody tr")
    assert [d.find_elements("css selector", "td")[1].text for d in diffs] == [
        "P0: prover → random",
        "P1: random → prover",
        "P2: random → random",
    ]
    shared = css(browser, "table.shared-games tr.game-row")
    assert len(shared) == 3
    shared[0].click()
    for _ in range(100):
        if len(css(browser, "tr.opened-game .step-label")) == 2:
            break
        time.sleep(0.05)
    games = css(browser, "tr.opened-game section.game")
    assert [g.get_attribute("data-game") for g in games] == [
        shared[0].get_attribute("data-game")
    ] * 2
    browser.find_element("tag name", "body").send_keys(ARROW_RIGHT, ARROW_RIGHT)
    labels = [label.text for label in css(browser, "tr.opened-game .step-label")]
    assert all(label.startswith("step 3 of") for label in labels), labels
    open_page(browser, compare, "#game=clue-seed0&step=4")
    labels = [label.text for label in css(browser, "tr.opened-game .step-label")]
    assert len(labels) == 2 and all(label.startswith("step 4 of") for label in labels)


def test_data_that_tries_to_break_a_page_is_shown_as_text(browser: Any, tmp_path: Path) -> None:
    """Every data field holds markup: seat names and agents, the game id (file name), the run's
    folder (its title), the summary's fields and the recorded LLM text. The pages render it as
    text and run none of it."""
    folder = tmp_path / "<!--<script>run"
    (folder / "games").mkdir(parents=True)
    log = played_log("clue", tmp_path, seed=2)
    lines = log.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["seats"] = [{"name": f"{HOSTILE}{i}", "agent": HOSTILE} for i in range(3)]
    stem = "<!--<script>x<img src=x onerror=window.pwned=3>-seed2"
    target = folder / "games" / f"{stem}.jsonl"
    target.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8")
    (folder / "llm").mkdir()
    call = {
        "index": 0,
        "model": HOSTILE,
        "seed": None,
        "messages": [{"role": "system", "content": HOSTILE}, {"role": "user", "content": HOSTILE}],
        "reply": {"content": HOSTILE, "model": HOSTILE, "prompt_tokens": 3, "latency_s": 0.25},
    }
    (folder / "llm" / f"{stem}.seat0.jsonl").write_text(json.dumps(call) + "\n", encoding="utf-8")
    (folder / "summary.json").write_text(
        json.dumps({"rows": [{"agent": HOSTILE, "title": HOSTILE, "wins": 1}]}), encoding="utf-8"
    )
    for path in (folder, target):
        code, out, err = view(path)
        assert code == 0, err
        page = Path(out.strip())
        assert "<!--" not in page.read_text(encoding="utf-8").split('id="gumshoe-data">')[1]
        open_page(browser, page)
        assert browser.execute_script("return window.pwned") is None
        assert not css(browser, "main img, main script")
        if path == folder:
            assert css(browser, "table.agents td")[0].text == HOSTILE
            css(browser, "tr.game-row")[0].click()
            for _ in range(100):
                if css(browser, ".step-label"):
                    break
                time.sleep(0.05)
        assert HOSTILE + "0" in text_of(browser, "section.game p.muted")
        steps = int(css(browser, ".step-range")[0].get_attribute("max"))
        for index in range(steps + 1):
            go_to_step(browser, index)
            if css(browser, ".deduction"):
                break
        css(browser, ".deduction")[0].click()
        others = css(browser, ".other-calls")
        others[0].click()
        others[0].find_element("css selector", ".call-link").click()
        assert text_of(browser, ".call-reply") == HOSTILE
        assert browser.execute_script("return window.pwned") is None
        assert not css(browser, "main img, main script")
