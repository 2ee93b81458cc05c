"""The core install, as a new user makes it: the wheel builds without a warning, and a fresh
virtual environment with that wheel and no extra (its dependencies from pip's configured index)
holds no torch, SciPy or optional package, stays under 300 MB, and runs the README's Python audit,
``gumshoe prove``, a Clue game of provers and its audit; the Attributional Score names the extra
it needs.

The environment is made without a pip of its own (the running pip installs into it), so its size
is the package and its dependencies. One wheel build and one install, from pip's cache when warm.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from reasoning.extras import EXTRAS

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("reasoning", "formalize", "provers", "games", "benchmarks")
MAX_MB = 300
BUILD = "from setuptools import build_meta; print(build_meta.build_wheel({dist!r}))"


def _run(
    args: list[str], cwd: Path, env: dict[str, str], timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


def _env() -> dict[str, str]:
    """The environment without this checkout on the path, writing byte code as a user's does."""
    unset = ("PYTHONPATH", "PYTHONDONTWRITEBYTECODE")
    return {k: v for k, v in os.environ.items() if k not in unset}


def disk_mb(folder: Path) -> float:
    """Disk space taken by ``folder`` (allocated blocks, as ``du`` counts them), in MB."""
    total = 0
    for parent, _, files in os.walk(folder):
        for name in files:
            total += os.lstat(Path(parent) / name).st_blocks * 512
    return total / 1e6


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """gumshoe's wheel, built with warnings as errors from a copy of the sources."""
    root = tmp_path_factory.mktemp("wheel")
    source, dist = root / "src", root / "dist"
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for package in SOURCES:
        shutil.copytree(ROOT / package, source / package, ignore=ignore)
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(ROOT / name, source / name)
    dist.mkdir()
    built = _run(
        [sys.executable, "-W", "error", "-c", BUILD.format(dist=str(dist))], source, _env()
    )
    assert built.returncode == 0, (built.stdout + built.stderr)[-3000:]
    warned = [
        line
        for line in (built.stdout + built.stderr).splitlines()
        if re.search(r"warning|deprecat", line, re.IGNORECASE)
    ]
    assert warned == []
    return dist / built.stdout.strip().splitlines()[-1]


@pytest.fixture(scope="module")
def core(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with the wheel installed, no extra; its ``bin`` folder."""
    venv = tmp_path_factory.mktemp("core") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    install = [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet"]
    done = _run([*install, "--disable-pip-version-check", str(wheel)], venv, _env(), timeout=900)
    if done.returncode != 0 and re.search(
        r"No matching distribution|Could not find a version|Failed to establish", done.stderr
    ):
        pytest.skip(
            f"the package index pip is configured with is unreachable: {done.stderr[-300:]}"
        )
    assert done.returncode == 0, done.stderr[-3000:]
    return venv / "bin"


def test_the_wheel_carries_the_licence_and_its_metadata(wheel: Path) -> None:
    import zipfile

    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        meta = archive.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    assert "License-Expression: MIT" in meta and "Classifier: Typing :: Typed" in meta
    assert "reasoning/py.typed" in names and "reasoning/formula.lark" in names
    assert "formalize/reading/frames.lark" in names
    assert "benchmarks/data/freetext/labelled.json" in names
    assert "benchmarks/data/undercover/descriptions.json" in names


def test_the_core_install_holds_no_optional_package_and_stays_small(core: Path) -> None:
    optional = ["torch", "scipy", *(m for modules in EXTRAS.values() for m in modules)]
    probe = "import importlib.util as u, sys; print([m for m in sys.argv[1:] if u.find_spec(m)])"
    found = _run([str(core / "python"), "-c", probe, *optional], core, _env())
    assert found.returncode == 0, found.stderr
    assert found.stdout.strip() == "[]"
    size = disk_mb(core.parent)
    assert size < MAX_MB, f"the core install takes {size:.0f} MB"


def test_the_readme_python_audit_runs_and_prints_what_the_readme_shows(
    core: Path, tmp_path: Path
) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", readme, re.DOTALL)
    code = next(b for b in blocks if "Verifier(" in b and ".audit(" in b)
    shown = [line[2:].split() for line in code.splitlines() if line.startswith("# ")]
    done = _run([str(core / "python"), "-c", code], tmp_path, _env())
    assert done.returncode == 0, done.stderr[-2000:]
    assert [line.split() for line in done.stdout.splitlines()] == shown


def test_prove_play_and_audit_run_on_the_core_install(core: Path, tmp_path: Path) -> None:
    gumshoe = str(core / "gumshoe")
    proved = _run([gumshoe, "prove", str(ROOT / "examples" / "tea.thy")], tmp_path, _env())
    assert proved.returncode == 0 and proved.stdout.startswith("VALID"), proved.stderr
    played = _run(
        [gumshoe, "play", "clue", "--agents", "prover*6", "--out", "clue"], tmp_path, _env()
    )
    assert played.returncode == 0, played.stderr[-2000:]
    (log,) = (tmp_path / "clue").glob("*.jsonl")
    audited = _run([gumshoe, "audit", "clue", str(log)], tmp_path, _env())
    assert audited.returncode == 0, audited.stderr[-2000:]
    assert "clue audit of" in audited.stdout and "sound" in audited.stdout


def test_the_attributional_score_names_the_embeddings_extra(core: Path, tmp_path: Path) -> None:
    args = [str(core / "gumshoe"), "play", "undercover", "--agents", "prover*6", "--scores"]
    done = _run(args, tmp_path, _env())
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().splitlines() == [
        "error: the Attributional Score (MiniLM sentence embeddings) needs "
        "sentence_transformers, which is not installed: pip install 'gumshoe[embeddings]'"
    ]
