"""Pushing an exported dataset folder to the Hugging Face Hub with ``huggingface_hub``.

The token is the one ``huggingface_hub`` finds (``HF_TOKEN``, or a stored login); without one
the push is refused before anything is exported.
"""

from __future__ import annotations

from pathlib import Path

from reasoning.extras import optional_import


class PushError(ValueError):
    """A push that cannot be made or failed; one line naming the repository."""


def hub_token() -> str:
    """The Hugging Face token to push with; PushError when none is set."""
    token = optional_import("huggingface_hub", "export", "--push").get_token()
    if not token:
        raise PushError("--push: no Hugging Face token; set HF_TOKEN (or run `hf auth login`)")
    return str(token)


def push_folder(folder: Path, repo: str, token: str) -> str:
    """Create dataset repository ``repo`` (kept when it exists) and upload ``folder`` to it;
    the repository's URL. PushError in one line when the Hub refuses or cannot be reached."""
    api = optional_import("huggingface_hub", "export", "--push").HfApi(token=token)
    try:
        url = api.create_repo(repo, repo_type="dataset", exist_ok=True)
        api.upload_folder(
            repo_id=repo,
            folder_path=folder,
            repo_type="dataset",
            commit_message="Export gumshoe runs as a dataset",
        )
    except Exception as err:  # the client's HTTP errors (no connection) share no base with OSError
        first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        raise PushError(f"--push {repo}: {first}") from None
    return str(url)
