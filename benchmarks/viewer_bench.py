"""`gumshoe bench viewer`: the viewer's page sizes, generation cost and first paint.

Two pages: the committed live 30-round six-seat Clue game with its recordings, and a Clue run
(``--games`` games between a prover and random seats, played into ``--out`` first and resumed
when already there), whose games store their view data as they finish (``RunOptions.views``).
The run's page is generated twice, side by side: from the stored views (the row says how many
games had one, and what computing them cost per game, CPU and wall, when the run was played),
and computing every game's view again as for a run without them. Generation is timed in CPU and
wall seconds; the first paint is the time headless Chromium takes from loading the file to the
page's rendered state, when chromium and chromium-driver are installed. ``--screenshot`` also
writes a PNG of the game page.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path
from typing import Annotated, Any

import typer

from benchmarks.clue_bench import ClueBenchConfig, run
from benchmarks.report import format_table, measure, write_json
from benchmarks.runner import RunOptions
from benchmarks.viewer.page import write_view
from benchmarks.viewer.store import load_view

FIXTURE = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "llm" / "clue-live-30r"
TARGETS = {"game page": (1_000_000, 2.0), "run page": (10_000_000, 2.0)}
"""Page -> (size limit in bytes, generation CPU limit in seconds) the viewer aims for."""


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


def first_paint(page: Path, screenshot: Path | None = None) -> float | None:
    """Seconds from loading ``page`` in headless Chromium to its rendered state (None without
    chromium); a screenshot of it to ``screenshot`` when given."""
    chromium, driver_path = shutil.which("chromium"), shutil.which("chromedriver")
    if chromium is None or driver_path is None:
        return None
    driver = headless_chromium(chromium, driver_path)
    try:
        start = time.perf_counter()
        driver.get(page.as_uri())
        while not driver.find_element("tag name", "body").get_attribute("data-ready"):
            if time.perf_counter() - start > 30:
                return None
            time.sleep(0.01)
        elapsed = time.perf_counter() - start
        if screenshot is not None:
            driver.save_screenshot(str(screenshot))
        return elapsed
    finally:
        driver.quit()


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


def bench_viewer(
    out: Annotated[Path, typer.Option(help="Folder for the run, the pages and the JSON.")] = Path(
        "bench-results/viewer"
    ),
    games: Annotated[int, typer.Option(min=1, max=10_000, help="Games in the Clue run.")] = 1000,
    screenshot: Annotated[
        Path | None, typer.Option(help="Write a PNG of the game page here.")
    ] = None,
) -> None:
    """Page sizes, generation CPU and wall, and first paint for a game and a run (from stored
    views, and computing every game)."""
    out.mkdir(parents=True, exist_ok=True)
    game_folder = out / "clue-live-30r"
    if not game_folder.exists():
        shutil.copytree(FIXTURE, game_folder)
    run_folder = out / f"clue-run-{games}"
    typer.echo(f"playing {games} Clue games into {run_folder} (resumed when there)", err=True)
    run(
        ClueBenchConfig(agents=("prover", "random", "random")),
        games,
        run_folder,
        options=RunOptions(views=True),
    )
    rows: list[dict[str, Any]] = []
    cases = (
        ("game page", game_folder / "clue-seed0.jsonl", True),
        ("run page, stored views", run_folder, True),
        ("run page, every game computed", run_folder, False),
    )
    for name, source, reuse in cases:
        stored = stored_cost(source) if source.is_dir() and reuse else {"stored_views": 0}
        with measure() as timing:
            page = write_view(source, reuse=reuse, quiet=True)
        paint = first_paint(page, screenshot if name == "game page" else None)
        size_limit, cpu_limit = TARGETS["run page" if source.is_dir() else "game page"]
        rows.append(
            {
                "page": name,
                "bytes": page.stat().st_size,
                "bytes_target": size_limit,
                "gen_cpu_s": timing.cpu,
                "gen_wall_s": timing.wall,
                "gen_cpu_target_s": cpu_limit,
                "first_paint_s": paint,
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
        "first_paint_s",
        "stored_views",
        "stored_cpu_ms_per_game",
        "stored_wall_ms_per_game",
    ]
    typer.echo(format_table(rows, columns))
    typer.echo(str(write_json(out / "viewer.json", {"games": games, "rows": rows})))
