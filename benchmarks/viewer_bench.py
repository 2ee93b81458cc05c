"""`gumshoe bench viewer`: the viewer's page sizes, generation cost and first paint.

Two pages: the committed live 30-round six-seat Clue game with its recordings, and a Clue run
(``--games`` games between a prover and random seats, played into ``--out`` first and resumed
when already there). Generation is timed in CPU and wall seconds; the first paint is the time
headless Chromium takes from loading the file to the page's rendered state, when chromium and
chromium-driver are installed. ``--screenshot`` also writes a PNG of the game page.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path
from typing import Annotated, Any

import typer

from benchmarks.clue_bench import ClueBenchConfig, run
from benchmarks.report import format_table, measure, write_json
from benchmarks.viewer.page import write_view

FIXTURE = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "llm" / "clue-live-30r"
TARGETS = {"game page": (1_000_000, 2.0), "run page": (10_000_000, 2.0)}
"""Page -> (size limit in bytes, generation CPU limit in seconds) the viewer aims for."""


def first_paint(page: Path, screenshot: Path | None = None) -> float | None:
    """Seconds from loading ``page`` in headless Chromium to its rendered state (None without
    chromium); a screenshot of it to ``screenshot`` when given."""
    chromium, driver_path = shutil.which("chromium"), shutil.which("chromedriver")
    if chromium is None or driver_path is None:
        return None
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
        "--window-size=1200,900",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(
        service=webdriver.ChromeService(executable_path=driver_path), options=options
    )
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


def bench_viewer(
    out: Annotated[Path, typer.Option(help="Folder for the run, the pages and the JSON.")] = Path(
        "bench-results/viewer"
    ),
    games: Annotated[int, typer.Option(min=1, max=10_000, help="Games in the Clue run.")] = 1000,
    screenshot: Annotated[
        Path | None, typer.Option(help="Write a PNG of the game page here.")
    ] = None,
) -> None:
    """Page sizes, generation CPU and wall, and first paint for a game and a run."""
    out.mkdir(parents=True, exist_ok=True)
    game_folder = out / "clue-live-30r"
    if not game_folder.exists():
        shutil.copytree(FIXTURE, game_folder)
    run_folder = out / f"clue-run-{games}"
    typer.echo(f"playing {games} Clue games into {run_folder} (resumed when there)", err=True)
    run(ClueBenchConfig(agents=("prover", "random", "random")), games, run_folder)
    rows: list[dict[str, Any]] = []
    for name, source in (
        ("game page", game_folder / "clue-seed0.jsonl"),
        ("run page", run_folder),
    ):
        with measure() as timing:
            page = write_view(source)
        paint = first_paint(page, screenshot if name == "game page" else None)
        size_limit, cpu_limit = TARGETS[name]
        rows.append(
            {
                "page": name,
                "bytes": page.stat().st_size,
                "bytes_target": size_limit,
                "gen_cpu_s": timing.cpu,
                "gen_wall_s": timing.wall,
                "gen_cpu_target_s": cpu_limit,
                "first_paint_s": paint,
                "path": str(page),
            }
        )
    columns = ["page", "bytes", "bytes_target", "gen_cpu_s", "gen_wall_s", "first_paint_s"]
    typer.echo(format_table(rows, columns))
    typer.echo(str(write_json(out / "viewer.json", {"games": games, "rows": rows})))
