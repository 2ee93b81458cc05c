"""The licence and citation files agree with the package's metadata: one licence (MIT), one
version, so a wheel, a citation and a dataset card never name different ones."""

from __future__ import annotations

import tomllib
from pathlib import Path

import yaml

from benchmarks.dataset.card import license_id

ROOT = Path(__file__).resolve().parents[1]


def project() -> dict[str, object]:
    loaded = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert isinstance(loaded, dict)
    return loaded


def test_the_licence_file_is_the_licence_the_package_declares() -> None:
    meta = project()
    assert meta["license"] == "MIT" and meta["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n") and "WITHOUT WARRANTY OF ANY KIND" in text
    assert license_id(str(meta["license"]).lower()) == "mit"


def test_the_citation_names_the_package_version_and_licence() -> None:
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    meta = project()
    assert citation["cff-version"] == "1.2.0" and citation["type"] == "software"
    assert citation["version"] == meta["version"] and citation["license"] == meta["license"]
    assert citation["title"].startswith(str(meta["name"]))
