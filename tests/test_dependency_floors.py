"""The lowest openai release pyproject.toml admits runs the LLM client's tests.

The client path is the one place where gumshoe leans on a recent API of a dependency (``omit``
for unset request options, the typed message params), so its floor is tested for real: that
release is installed into a scratch folder ahead of the environment's own and the client tests run
against it in a subprocess.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CLIENT_TESTS = [
    "tests/test_llm_client.py",
    "tests/test_llm_structured.py",
    "tests/test_llm_recording.py",
    "tests/test_scripted_chat_fixture.py",
]


def floor(package: str) -> str:
    """The ``>=`` version pyproject.toml gives ``package``."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    for requirement in project["dependencies"]:
        found = re.fullmatch(rf"{re.escape(package)}>=([\w.]+)", requirement)
        if found:
            return found.group(1)
    raise AssertionError(f"pyproject.toml names no floor for {package}")


def test_the_client_tests_pass_on_the_lowest_openai_release_allowed(tmp_path: Path) -> None:
    version = floor("openai")
    target = tmp_path / "floor"
    install = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "--target",
            str(target),
            f"openai=={version}",
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    if install.returncode != 0:
        pytest.skip(f"cannot install openai=={version} from PyPI: {install.stderr.strip()[-300:]}")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(target), str(ROOT)])}
    probe = subprocess.run(
        [sys.executable, "-c", "import openai; print(openai.__version__)"],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=120,
    )
    assert probe.stdout.strip() == version, probe.stderr
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *CLIENT_TESTS],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=900,
    )
    assert run.returncode == 0, run.stdout[-3000:]
