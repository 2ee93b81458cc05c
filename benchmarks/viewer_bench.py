"""`gumshoe bench viewer`: the viewer's page sizes, generation cost and first paint.

The pages: the committed live 30-round six-seat Clue game with its recordings; one game of each
registered game between symbolic agents; a Clue run of ``--games`` games between a prover and two
random seats (played into ``--out`` first, resumed when already there), whose games store their
view data as they finish (``RunOptions.views``), paged from the stored views and again computing
every game's view; and that run compared with a second one of the same games where the prover sits
in the second seat. Generation is timed in CPU and wall seconds; the first paint is what headless
Chromium takes from loading the file to the page's rendered state (the median of three loads in
one browser), in wall seconds and in the renderer's main-thread task time (its CPU, from the
DevTools performance metrics), when chromium and chromium-driver are installed.
``--screenshots DIR`` also writes PNGs of the run, the comparison and the detective and Hanabi
pages (``viewer-*.png``), in 64 colours to stay small.
"""

from __future__ import annotations

import shutil
import statistics
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer

from benchmarks.clue_bench import ClueBenchConfig, run
from benchmarks.report import format_table, measure, write_json
from benchmarks.runner import RunOptions
from benchmarks.viewer.page import write_compare, write_view
from benchmarks.viewer.store import load_view
from games.core.play import play_game
from games.core.registry import game_names, get_game
from games.core.runlog import EventLog

FIXTURE = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "llm" / "clue-live-30r"
TARGETS = {"game": (1_000_000, 2.0), "run": (10_000_000, 2.0), "compare": (20_000_000, 2.0)}
"""Kind of page -> (size limit in bytes, first-paint limit in wall seconds) the viewer aims for
(a comparison carries every game of two runs)."""
SYMBOLIC = {"hanabi": "symbolic", "mystery": "prover"}
SHOTS = {"detective": "viewer-detective.png", "hanabi": "viewer-hanabi.png"}
"""The game pages ``--screenshots`` takes a picture of (with the run and the comparison)."""
"""The symbolic agent each game's benchmark page is played by (``prover`` where not named)."""


def headless_chromium(chromium: str, driver_path: str, size: str = "1200,900", *flags: str) -> Any:
    """A selenium driver of Debian's headless Chromium (no first-run, sync or background
    traffic) at window ``size``, with ``flags`` added."""
    from selenium import webdriver

    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--window-size={size}",
        *flags,
    ):
        options.add_argument(flag)
    service = webdriver.ChromeService(executable_path=driver_path)
    return webdriver.Chrome(service=service, options=options)


def _task_seconds(driver: Any) -> float:
    metrics = driver.execute_cdp_cmd("Performance.getMetrics", {})["metrics"]
    return float(next((m["value"] for m in metrics if m["name"] == "TaskDuration"), 0.0))


def first_paint(
    page: Path, screenshot: Path | None = None, fragment: str = "", loads: int = 3
) -> tuple[float, float] | None:
    """(wall, renderer CPU) seconds from loading ``page`` (at ``#fragment``) in headless
    Chromium to its rendered state, the median of ``loads`` loads in one browser (None without
    chromium); a screenshot of it to ``screenshot`` when given, quantised to 64 colours."""
    chromium, driver_path = shutil.which("chromium"), shutil.which("chromedriver")
    if chromium is None or driver_path is None:
        return None
    driver = headless_chromium(chromium, driver_path, "1400,1000")
    try:
        driver.execute_cdp_cmd("Performance.enable", {})
        walls, cpus = [], []
        for _ in range(loads):
            driver.get("about:blank")
            before = _task_seconds(driver)
            start = time.perf_counter()
            driver.get(page.resolve().as_uri() + fragment)
            while not driver.find_element("tag name", "body").get_attribute("data-ready"):
                if time.perf_counter() - start > 60:
                    return None
                time.sleep(0.01)
            walls.append(time.perf_counter() - start)
            cpus.append(_task_seconds(driver) - before)
        if screenshot is not None:
            _screenshot(driver, screenshot)
        return statistics.median(walls), statistics.median(cpus)
    finally:
        driver.quit()


def _screenshot(driver: Any, path: Path) -> None:
    """The whole page (up to 1,600 pixels tall) as a 64-colour PNG at ``path``."""
    from io import BytesIO

    from PIL import Image

    height = driver.execute_script(
        "return Math.max(document.body.scrollHeight, document.documentElement.scrollHeight)"
    )
    driver.set_window_size(1400, min(int(height) + 140, 1600))
    image = Image.open(BytesIO(driver.get_screenshot_as_png())).convert("RGB")
    path.parent.mkdir(parents=True, exist_ok=True)
    image.quantize(64).save(path, optimize=True)


def stored_cost(run_folder: Path) -> dict[str, Any]:
    """How many of the run's games have a valid stored view, and the mean CPU and wall
    milliseconds computing one took."""
    stored = [v for log in sorted((run_folder / "games").glob("*.jsonl")) if (v := load_view(log))]
    count = len(stored)
    return {
        "stored_views": count,
        "stored_cpu_ms_per_game": 1000 * sum(v.cpu_s for v in stored) / count if count else None,
        "stored_wall_ms_per_game": 1000 * sum(v.wall_s for v in stored) / count if count else None,
    }


def game_logs(folder: Path) -> list[tuple[str, Path]]:
    """One game of each registered game between symbolic agents (seed 1), played into
    ``folder`` unless there already."""
    folder.mkdir(parents=True, exist_ok=True)
    logs = []
    for name in game_names():
        entry = get_game(name)
        path = folder / f"{name}.jsonl"
        if not path.is_file():
            players = max(entry.info.min_players, min(entry.info.max_players, 3))
            with EventLog(path) as log:
                play_game(entry, [SYMBOLIC.get(name, "prover")] * players, 1, log=log)
        logs.append((name, path))
    return logs


def bench_viewer(
    out: Annotated[Path, typer.Option(help="Folder for the runs, the pages and the JSON.")] = Path(
        "bench-results/viewer"
    ),
    games: Annotated[int, typer.Option(min=1, max=10_000, help="Games in each Clue run.")] = 1000,
    screenshots: Annotated[
        Path | None, typer.Option(help="Write a PNG of each page into this folder.")
    ] = None,
) -> None:
    """Page sizes, generation CPU and wall, and first paint (wall and renderer CPU) for the
    live Clue game, a game of each game, a run (from stored views, and computing every game)
    and two runs compared."""
    out.mkdir(parents=True, exist_ok=True)
    live = out / "clue-live-30r"
    if not live.exists():
        shutil.copytree(FIXTURE, live)
    runs = [out / f"clue-run-{games}", out / f"clue-run-{games}-prover-second"]
    for folder, agents in zip(
        runs, (("prover", "random", "random"), ("random", "prover", "random")), strict=True
    ):
        typer.echo(f"playing {games} Clue games into {folder} (resumed when there)", err=True)
        run(ClueBenchConfig(agents=agents), games, folder, options=RunOptions(views=True))
    cases: list[tuple[str, str, Sequence[Path], bool, str, str]] = [
        ("the live Clue game, with recordings", "game", [live / "clue-seed0.jsonl"], True, "", "")
    ]
    cases += [
        (f"one {name} game", "game", [path], True, SHOTS.get(name, ""), "#step=6")
        for name, path in game_logs(out / "games")
    ]
    cases += [
        (
            f"a {games}-game Clue run, stored views",
            "run",
            [runs[0]],
            True,
            "viewer-run.png",
            "",
        ),
        ("the same run, every game computed", "run", [runs[0]], False, "", ""),
        ("two runs compared", "compare", runs, True, "viewer-compare.png", ""),
    ]
    rows: list[dict[str, Any]] = []
    for name, kind, sources, reuse, shot, fragment in cases:
        stored = stored_cost(sources[0]) if kind == "run" and reuse else {"stored_views": 0}
        with measure() as timing:
            if kind == "compare":
                page = write_compare(sources, out / "compare.html", reuse=reuse, quiet=True)
            else:
                page = write_view(sources[0], reuse=reuse, quiet=True)
        target = screenshots / shot if screenshots is not None and shot else None
        paint = first_paint(page, target, fragment)
        size_limit, paint_limit = TARGETS[kind]
        rows.append(
            {
                "page": name,
                "bytes": page.stat().st_size,
                "bytes_target": size_limit,
                "gen_cpu_s": timing.cpu,
                "gen_wall_s": timing.wall,
                "paint_cpu_s": paint[1] if paint else None,
                "paint_wall_s": paint[0] if paint else None,
                "paint_target_s": paint_limit,
                **stored,
                "path": str(page),
            }
        )
    columns = [
        "page",
        "bytes",
        "bytes_target",
        "gen_cpu_s",
        "gen_wall_s",
        "paint_cpu_s",
        "paint_wall_s",
        "stored_views",
        "stored_cpu_ms_per_game",
        "stored_wall_ms_per_game",
    ]
    typer.echo(format_table(rows, columns))
    typer.echo(str(write_json(out / "viewer.json", {"games": games, "rows": rows})))
