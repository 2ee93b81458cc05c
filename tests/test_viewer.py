"""`gumshoe view`: one self-contained page per game log or run, for every game, checked in a real
browser (Debian's chromium through selenium) with the network blocked."""

from __future__ import annotations

import gzip
import json
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from benchmarks.console.cli import app
from benchmarks.viewer_bench import headless_chromium
from games.core import game_names, get_game
from games.core.play import play_game
from games.core.runlog import EventLog

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "fixtures" / "llm" / "clue-live-30r"
CALLS = "clue-seed0.seat0.jsonl.gz"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
runner = CliRunner()
SYMBOLIC = {"clue": "prover", "detective": "prover", "hanabi": "symbolic", "undercover": "prover"}
"""A symbolic agent of each game (``prover`` where the game's list does not say otherwise)."""


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


def view(path: Path, *extra: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["view", str(path), *extra])
    return result.exit_code, result.stdout, result.stderr


def embedded(page: Path) -> dict[str, Any]:
    text = page.read_text(encoding="utf-8")
    start = text.index('id="gumshoe-data">') + len('id="gumshoe-data">')
    data: dict[str, Any] = json.loads(text[start : text.index("</script>", start)])
    return data


@pytest.mark.parametrize("game", game_names())
def test_every_game_gets_a_page_that_loads_nothing(tmp_path: Path, game: str) -> None:
    log = played_log(game, tmp_path)
    code, out, err = view(log)
    assert code == 0, err
    page = Path(out.strip())
    assert page == log.with_suffix(".html") and page.is_file()
    html = page.read_text(encoding="utf-8")
    for needle in ("<script src", "<link", "@import", "url(http", 'src="http', 'href="http'):
        assert needle not in html
    assert embedded(page)["kind"] == "game"


def test_bad_paths_and_logs_are_one_line(tmp_path: Path) -> None:
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


def open_page(driver: Any, page: Path) -> None:
    driver.get(page.as_uri())
    for _ in range(100):
        if driver.find_element("tag name", "body").get_attribute("data-ready"):
            break
        time.sleep(0.05)
    assert driver.find_element("tag name", "body").get_attribute("data-ready") == "1"


def replayed_live_game(folder: Path) -> Path:
    """The committed live SmolLM2 game replayed from its recordings into ``folder`` (so its log
    names the call behind each deduction), with the recordings beside it."""
    played = runner.invoke(app, ["play", "clue", "--replay", str(FIXTURE), "--out", str(folder)])
    assert played.exit_code == 0, played.output
    shutil.copytree(FIXTURE / "llm", folder / "llm")
    return folder / "clue-seed0.jsonl"


def test_the_live_clue_game_shows_its_verdicts_knowledge_and_calls(
    browser: Any, tmp_path: Path
) -> None:
    log = replayed_live_game(tmp_path / "clue-live-30r")
    code, out, err = view(log)
    assert code == 0, err
    audited = runner.invoke(app, ["audit", "clue", str(log), "--json"])
    record = json.loads(audited.stdout)
    open_page(browser, Path(out.strip()))
    cells = browser.find_elements("css selector", "table.summary tr[data-seat='0'] td[data-count]")
    shown = {c.get_attribute("data-count"): c.text for c in cells}
    seat0 = next(s for s in record["seats"] if s["seat"] == 0)
    assert shown == {k: str(seat0[k]) for k in shown}
    first = min(r["where"]["line"] for r in record["rows"])
    steps = browser.find_element("css selector", ".step-range")
    target = None
    for index in range(int(steps.get_attribute("max")) + 1):
        browser.execute_script(
            "arguments[0].value = arguments[1];arguments[0].dispatchEvent(new Event('input'));",
            steps,
            index,
        )
        label = browser.find_element("css selector", ".step-label").text
        if label.endswith(f"line {first}"):
            target = index
            break
    assert target is not None, f"no step at line {first}"
    rows = browser.find_elements("css selector", ".deduction")
    expected = [r for r in record["rows"] if r["where"]["line"] == first]
    assert [r.get_attribute("data-status") for r in rows] == [r["status"] for r in expected]
    grid = browser.find_elements("css selector", ".panel[data-seat='0'] td[data-code]")
    assert grid, "seat 0's knowledge grid is shown"
    rows[0].click()
    links = browser.find_elements("css selector", ".call-link")
    assert len(links) > 1, "the deduction links to its call and to seat 0's other calls"
    call = expected[0]["call"]
    recorded = [
        json.loads(line)
        for line in gzip.decompress((FIXTURE / "llm" / CALLS).read_bytes()).splitlines()
    ]
    assert recorded[call]["index"] == call
    shown = browser.find_element("css selector", ".calls")
    assert (shown.get_attribute("data-seat"), shown.get_attribute("data-call")) == ("0", str(call))
    reply = browser.find_element("css selector", ".call-reply").text
    assert reply.split() == recorded[call]["reply"]["content"].split()
    prompt = " ".join(browser.find_element("css selector", ".call-prompt").text.split())
    assert " ".join(recorded[call]["messages"][-1]["content"].split()) in prompt
    # the first deduction was sent back once: its call follows the one whose answer was revised
    earlier = browser.find_elements("css selector", ".call-earlier .call-link")
    assert [link.get_attribute("data-call") for link in earlier] == [str(call - 1)]
    earlier[0].click()
    assert browser.find_element("css selector", ".calls").get_attribute("data-call") == str(
        call - 1
    )
    browser.find_elements("css selector", ".row-detail .call-link")[-1].click()
    assert browser.find_element("css selector", ".calls").get_attribute("data-call") == str(
        len(recorded) - 1
    )
    browser.find_element("css selector", "#game-view").send_keys("\ue014")  # arrow right
    assert browser.find_element("css selector", ".step-range").get_attribute("value") == str(
        target + 1
    )


def test_a_run_page_lists_its_games_and_opens_one(browser: Any, tmp_path: Path) -> None:
    run = tmp_path / "run"
    (run / "games").mkdir(parents=True)
    for seed in (1, 2):
        played = played_log("clue", run / "games", seed)
        played.rename(run / "games" / f"game-{seed:05d}.jsonl")
    code, out, err = view(run)
    assert code == 0, err
    open_page(browser, Path(out.strip()))
    agents = browser.find_elements("css selector", "table.agents tbody tr")
    assert [row.find_element("css selector", "td").text for row in agents] == ["prover"]
    assert browser.find_elements("css selector", "svg.curve path.ideal")
    links = browser.find_elements("css selector", ".game-link")
    assert [link.text.split()[0] for link in links] == ["game-00001", "game-00002"]
    links[1].click()
    for _ in range(100):
        if browser.find_element("css selector", "#game-view").get_attribute("data-game"):
            break
        time.sleep(0.05)
    assert browser.find_element("css selector", "#game-view").get_attribute("data-game") == (
        "game-00002"
    )
    assert browser.find_elements("css selector", ".panel td[data-code]")
