"""The inspect_ai commands of the LLM agents page run as written, in order, in one scratch
folder, each as the
subprocess a user starts: two live evaluations against the scripted chat server (reached as
llama-cpp-python's server and as an OpenAI-compatible one), a recorded Clue run exported as an
eval log, and ``inspect view``, whose listing shows the live and the exported Clue logs under one
task name, every log with its model, tokens and times."""

from __future__ import annotations

import json
import os
import re
import shlex
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("inspect_ai", reason="inspect_ai is not installed (gumshoe's [inspect] extra)")

from reasoning.llm.scripted_server import ChatRequest, ScriptedChatServer, Step
from tests.test_clue_llm_agent import phase_script
from tests.test_hanabi_llm import scripted as hanabi_answer

ROOT = Path(__file__).resolve().parents[1]
PAGE = (ROOT / "docs" / "llm.md").read_text()
BIN = Path(sys.executable).parent
MODEL = "SmolLM2-135M-Instruct"

pytestmark = pytest.mark.skipif(
    not entry_points(group="inspect_ai", name="gumshoe"),
    reason="gumshoe's inspect_ai entry point is not in the installed metadata "
    "(reinstall: pip install -e '.[inspect]')",
)


def inspect_commands() -> list[str]:
    """The ``inspect`` and ``gumshoe`` lines of the sh fence of the inspect_ai section of the
    LLM agents page."""
    section = PAGE[PAGE.index("### inspect_ai") : PAGE.index("## Local models")]
    fenced = re.findall(r"```sh\n(.*?)```", section, re.S)
    return [
        line.strip()
        for body in fenced
        for line in body.splitlines()
        if line.startswith(("inspect ", "gumshoe "))
    ]


def answer(request: ChatRequest) -> Step:
    """The stand-in model: Hanabi's rated moves, or Clue's answer to the phase asked."""
    if "Legal moves:" in request.last_user:
        return hanabi_answer(request)
    return CLUE(request)


CLUE = phase_script()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


def api(port: int, path: str, timeout_s: float = 60.0) -> Any:
    """The JSON at ``path`` of the viewer's API, waiting for the viewer to come up."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api{path}", timeout=10) as got:
                return json.loads(got.read())
        except (urllib.error.URLError, ConnectionError):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)


def test_the_readme_inspect_commands_run_as_written(tmp_path: Path) -> None:
    commands = inspect_commands()
    assert [c.split()[:2] for c in commands] == [
        ["inspect", "eval"],
        ["inspect", "eval"],
        ["gumshoe", "bench"],
        ["gumshoe", "export"],
        ["inspect", "view"],
    ]
    port = free_port()
    with ScriptedChatServer(answer, models=[MODEL]) as server:
        env = {
            **os.environ,
            "PYTHONPATH": str(ROOT),
            "LLAMA_CPP_PYTHON_BASE_URL": server.base_url,
            "OPENAI_BASE_URL": server.base_url,
            "OPENAI_API_KEY": "none",
            "INSPECT_VIEW_PORT": str(port),
            "INSPECT_DISPLAY": "none",
        }
        env.pop("INSPECT_LOG_DIR", None)
        for command in commands[:-1]:
            words = shlex.split(command.replace("URL", server.base_url))
            done = subprocess.run(
                [str(BIN / words[0]), *words[1:]],
                cwd=tmp_path,
                env=env,
                capture_output=True,
                text=True,
                timeout=600,
            )
            assert done.returncode == 0, f"{command}\n{done.stderr[-3000:]}"
    assert not server.errors, server.errors
    view = subprocess.Popen(
        [str(BIN / "inspect"), "view"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        listing = api(port, "/logs")
        files = [f["name"] for f in listing["files"]]
        query = urllib.parse.urlencode([("file", name) for name in files])
        headers = api(port, f"/log-headers?{query}")
    finally:
        view.terminate()
        view.wait(timeout=30)
    assert len(headers) == 3
    tasks = sorted(h["eval"]["task"] for h in headers)
    assert tasks == ["gumshoe/clue", "gumshoe/clue", "gumshoe/hanabi"]
    models = sorted(h["eval"]["model"] for h in headers)
    assert models == [MODEL, f"llama-cpp-python/{MODEL}", "openai/gpt-4o-mini"]
    for header in headers:
        stats = header["stats"]
        assert stats["started_at"] and stats["completed_at"], header["eval"]["task"]
        assert stats["started_at"] <= stats["completed_at"]
        tokens = sum(u["total_tokens"] for u in stats["model_usage"].values())
        assert tokens > 0, header["eval"]["model"]
        assert header["results"]["headline"]["score"] in ("win", "score")
