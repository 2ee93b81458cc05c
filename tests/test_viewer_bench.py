"""The viewer benchmark measures a page given by a path relative to the working folder, as its
default ``--out`` gives them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from benchmarks.viewer_bench import first_paint


def test_a_relative_page_path_is_loaded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if shutil.which("chromium") is None or shutil.which("chromedriver") is None:
        pytest.skip("chromium and chromium-driver (Debian packages) are not installed")
    pytest.importorskip("selenium.webdriver", reason="selenium (dev extra) missing")
    (tmp_path / "page.html").write_text(
        "<!doctype html><body><script>document.body.dataset.ready = '1'</script></body>"
    )
    monkeypatch.chdir(tmp_path)
    timing = first_paint(Path("page.html"), loads=1)
    assert timing is not None and timing[0] > 0
