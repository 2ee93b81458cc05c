"""``bench mystery --wellplay``: plays of a user's WellPlay copy on the shared runner, summarised
as seed 004's Appendix C.2 reports them.

Each script folder is played ``runs`` times (game ``<folder>.run-<k>``, seed first-seed + k, which
also shuffles the question options), the civilians on one framework
(``games.mystery.wellplay_play``) with the run's ``WellPlaySettings`` (memory, rounds, pruner,
sensors). Per run, the win rate is the share of all victims whose killer was voted out, and the
question accuracy per category is pooled over the scripts and over each play's evaluations (every
evaluation answers the same questions, so pooling them is their average, as the seed reports):
the question-count-weighted mean of the scripts' accuracies, with the Overall weighted by the
total possible points (C.2). The summary gives every metric's mean and standard deviation over
the runs, in all and per script.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from statistics import fmean, pstdev
from typing import Any

from pydantic import ValidationError

from benchmarks.llm_usage import game_usage
from benchmarks.runner import MemoryLog
from formalize.interrogation.quiz import accuracy
from games.core.log import LogEnd
from games.core.runlog import LogError, RunDir
from games.mystery.wellplay import load_script
from games.mystery.wellplay_play import (
    WellPlayGame,
    WellPlayPlayed,
    WellPlaySettings,
    WellPlayVariant,
)
from reasoning.llm import LLMSettings, make_client

METRICS = ("win_rate", "objective", "reasoning", "relation", "overall")
"""The metrics reported per run, as mean and standard deviation."""


def game_ids(folders: Sequence[Path], runs: int) -> list[str]:
    """One game per script folder and run: ``<folder>.run-<k>``, k from 0."""
    return [f"{folder.name}.run-{k}" for k in range(runs) for folder in folders]


@dataclass(frozen=True)
class WellPlayPlayer:
    """Plays game ``<folder>.run-<k>`` of the copy at ``root`` (a picklable ``GamePlayer``)."""

    root: Path
    variant: WellPlayVariant
    llm: LLMSettings
    first_seed: int = 0
    settings: WellPlaySettings = field(default_factory=WellPlaySettings)

    def __call__(self, game_id: str, log: MemoryLog) -> dict[str, Any]:
        """Play the script once and log the play and its end."""
        folder, _, run = game_id.rpartition(".run-")
        seed = self.first_seed + int(run)
        script = load_script(self.root / folder, seed)
        game = WellPlayGame(make_client(self.llm), script, self.variant, seed, self.settings)
        played = game.play()
        log.write(played)
        share = played.win_rate
        returns = tuple(1.0 - share if c in played.murderers else share for c in played.characters)
        ranks = tuple(1 + sum(o > r for o in set(returns)) for r in returns)
        log.write(LogEnd(status="finished", returns=returns, ranks=ranks, reason="votes cast"))
        return {"usage": game_usage(game.meters())}


def _metrics(plays: Sequence[WellPlayPlayed]) -> dict[str, float]:
    graded = [g for p in plays for g in p.graded]
    votes = [v for p in plays for v in p.votes]
    out = accuracy(graded, [g.correct for g in graded])
    out["win_rate"] = sum(v.solved for v in votes) / len(votes) if votes else 0.0
    return out


def _spread(per_run: Sequence[dict[str, float]]) -> dict[str, dict[str, float]]:
    return {
        m: {"mean": fmean(r[m] for r in per_run), "std": pstdev(r[m] for r in per_run)}
        for m in METRICS
    }


def read_plays(rundir: RunDir[Any], ids: Sequence[str]) -> tuple[list[WellPlayPlayed], int]:
    """The plays the finished games logged, and how many games errored."""
    plays: list[WellPlayPlayed] = []
    errored = 0
    for gid in ids:
        if not rundir.is_finished(gid):
            errored += 1
            continue
        events = rundir.read_events(gid)
        try:
            plays += [
                WellPlayPlayed.model_validate(e) for e in events if e.get("type") == "wellplay_play"
            ]
        except ValidationError as err:
            raise LogError(rundir.log_path(gid), 1, f"not a WellPlay play: {err}") from None
    return plays, errored


def wellplay_summary(rundir: RunDir[Any], ids: Sequence[str]) -> dict[str, Any]:
    """Win rate and accuracy per category, mean and std over the runs, in all and per script;
    the votes of every play, its fallbacks and the civilians' mean H per round."""
    plays, errored = read_plays(rundir, ids)
    by_run: dict[int, list[WellPlayPlayed]] = defaultdict(list)
    by_script: dict[str, dict[int, list[WellPlayPlayed]]] = defaultdict(lambda: defaultdict(list))
    for play in plays:
        by_run[play.seed].append(play)
        by_script[play.script][play.seed].append(play)
    per_run = [_metrics(by_run[seed]) for seed in sorted(by_run)]
    heights: dict[int, list[float]] = defaultdict(list)
    for play in plays:
        for turn in play.turns:
            if turn.asker not in play.murderers:
                heights[turn.round].append(turn.entropy)
    return {
        "games": len(ids),
        "finished": len(ids) - errored,
        "errored": errored,
        "runs": len(per_run),
        "evaluations_per_play": max((g.evaluation + 1 for p in plays for g in p.graded), default=0),
        "per_run": per_run,
        "overall": _spread(per_run) if per_run else None,
        "scripts": {
            name: _spread([_metrics(runs[s]) for s in sorted(runs)])
            for name, runs in sorted(by_script.items())
        },
        "mean_h_per_round": [fmean(heights[r]) for r in sorted(heights)],
        "votes": [
            {
                "script": p.script,
                "seed": p.seed,
                "accused": {v.victim: v.accused for v in p.votes},
                "solved": [v.solved for v in p.votes],
            }
            for p in plays
        ],
        "fallbacks": sum(p.fallbacks for p in plays),
    }


def summary_rows(summary: dict[str, Any]) -> list[dict[str, str]]:
    """One table row per script and one for all: each metric as mean±std over the runs."""
    named = [*summary["scripts"].items(), ("all", summary["overall"])]
    return [
        {
            "script": name,
            **{m: f"{s[m]['mean']:.3f}±{s[m]['std']:.3f}" for m in METRICS},
        }
        for name, s in named
        if s is not None
    ]
