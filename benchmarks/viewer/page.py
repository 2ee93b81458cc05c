"""`gumshoe view`: one self-contained HTML page for a game log or a run directory.

The page embeds its data as JSON and its script and styles inline; it loads nothing from the
network. A run's games are embedded gzip-compressed and rendered when opened, so a page for a
thousand games stays small. What a page shows comes from ``games.core.view``: the steps, each
seat's knowledge panels (from the game's own viewer), the audit record, and the recorded LLM calls.
A run's games are taken from their stored views (``benchmarks.viewer.store``) where those are
valid, and computed (and stored) otherwise, with a progress bar.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from benchmarks.viewer.compare import view_compare
from benchmarks.viewer.game import pack, view_log
from benchmarks.viewer.run import view_run
from reasoning.outfile import write_atomic

SCRIPTS = ("base.js", "charts.js", "game.js", "run.js")
"""The viewer's script files, in the order the page inlines them (one strict-mode function)."""


def _asset(name: str) -> str:
    return resources.files("benchmarks.viewer").joinpath(name).read_text(encoding="utf-8")


def _script() -> str:
    body = "\n".join(_asset(name) for name in SCRIPTS)
    return f'"use strict";\n(function () {{\n{body}\n}})();'


def render_page(title: str, data: dict[str, Any]) -> str:
    """The HTML page showing ``data`` (``{"kind": "game", "game": ...}`` or a run)."""
    payload = embedded_json(data)
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{_escape(title)}</title>"
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:\">"
        f"<style>{_asset('viewer.css')}</style></head>"
        f"<body><header><h1>gumshoe · {_escape(title)}</h1></header><main></main>"
        f'<script type="application/json" id="gumshoe-data">{payload}</script>'
        f"<script>{_script()}</script></body></html>\n"
    )


def embedded_json(data: Any) -> str:
    """``data`` as JSON that is safe inside a ``<script>`` block whatever its strings hold: every
    ``<``, ``>`` and ``&`` is written ``\\u003c``, ``\\u003e``, ``\\u0026`` (the same string to
    ``JSON.parse``), so no ``</script>`` or ``<!--`` can reach the HTML parser; so are U+2028 and
    U+2029, which some JavaScript parsers take for line ends."""
    text = json.dumps(_finite(data), separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return text.translate(_SCRIPT_SAFE)


def _finite(value: Any) -> Any:
    """``value`` with every NaN or infinity replaced by None (JSON has no such numbers, and
    ``JSON.parse`` would refuse the whole page)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(v) for v in value]
    return value


_SCRIPT_SAFE = {ord(ch): f"\\u{ord(ch):04x}" for ch in "<>&\u2028\u2029"}


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def write_view(
    path: Path, out: Path | None = None, *, reuse: bool = True, quiet: bool = False
) -> Path:
    """Write the page for ``path`` (a log or a run directory) to ``out`` (default: beside it,
    ``.html``); return where it went. ``reuse``: take a run's stored game views where valid."""
    if path.is_dir():
        run = view_run(path, reuse=reuse, quiet=quiet)
        data: dict[str, Any] = {"kind": "run", "run": run.model_dump(mode="json")}
        title = f"run {run.title}"
        target, inside = (out, None) if out is not None else (path / "view.html", path)
        inputs = sorted((path / "games").glob("*.jsonl"))
    else:
        game = view_log(path)
        data = {"kind": "game", "packed": pack(game)}
        title = game.view.title
        target, inside, inputs = out or path.with_suffix(".html"), None, [path]
    return write_atomic(target, render_page(title, data), inside=inside, inputs=inputs)


def write_compare(
    paths: Sequence[Path], out: Path | None = None, *, reuse: bool = True, quiet: bool = False
) -> Path:
    """Write the page comparing the runs ``paths`` (two or more run directories) to ``out``
    (default: beside the first, ``compare-<first>-<second>...html``); return where it went."""
    if len(paths) < 2:
        raise ValueError("a comparison needs two or more run directories")
    for path in paths:
        if not path.is_dir():
            raise ValueError(f"{path}: not a run directory (only runs are compared)")
    view = view_compare(paths, reuse=reuse, quiet=quiet)
    names = "-".join(p.resolve().name for p in paths)
    target = out or paths[0].resolve().parent / f"compare-{names}.html"
    data = {"kind": "compare", "compare": view.model_dump(mode="json")}
    inputs = [log for path in paths for log in sorted((path / "games").glob("*.jsonl"))]
    return write_atomic(target, render_page(f"compare {view.title}", data), inputs=inputs)
