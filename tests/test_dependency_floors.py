"""The lowest openai release pyproject.toml admits runs the LLM client's tests, and every other
requirement admits the release the suite runs against here.

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
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
CLIENT_TESTS = [
    "tests/test_llm_client.py",
    "tests/test_llm_structured.py",
    "tests/test_llm_recording.py",
    "tests/test_scripted_chat_fixture.py",
]


def requirements() -> list[str]:
    """Every requirement pyproject.toml lists: the core's and each extra's."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"].values()
    return [*project["dependencies"], *(r for extra in extras for r in extra)]


def floor(package: str) -> str:
    """The ``>=`` version pyproject.toml gives ``package`` in the core dependencies."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    for requirement in project["dependencies"]:
        found = re.fullmatch(rf"{re.escape(package)}>=([\w.]+)(,<[\w.]+)?", requirement)
        if found:
            return found.group(1)
    raise AssertionError(f"pyproject.toml names no floor for {package}")


def test_every_requirement_has_a_floor_and_admits_the_release_tested_here() -> None:
    """The floors are releases the suite has run against, so the release installed here (the
    one this suite runs against) must lie between a requirement's floor and its cap; a
    requirement without a floor, or one this environment breaks, is named."""
    broken = []
    for text in requirements():
        requirement = Requirement(text)
        if requirement.name == "gumshoe":
            continue
        floors = [s for s in requirement.specifier if s.operator == ">="]
        assert floors, f"{text}: no floor"
        try:
            installed = version(requirement.name)
        except PackageNotFoundError:
            continue
        if not requirement.specifier.contains(installed, prereleases=True):
            broken.append(f"{text} (installed: {installed})")
    assert broken == []


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
