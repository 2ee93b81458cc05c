"""Published self-play means of Hanabi bots (fireworks scoring), to set ``bench hanabi`` beside.

SmartBot: Quuxplusone/Hanabi, as reported in seed 003's table of baselines; ``hanabi.rs info``:
Jeff Wu's information (hat) strategy; SPARTA: Lerer et al. 2020, single-agent search over a
learned blueprint (2 players only).
"""

from __future__ import annotations

from collections.abc import Sequence

from games.hanabi.stats import ScoreStats

PUBLISHED: dict[str, dict[int, float]] = {
    "SmartBot": {2: 23.09, 3: 23.30, 4: 22.44, 5: 20.69},
    "hanabi.rs info": {2: 22.52, 3: 24.79, 4: 24.94, 5: 24.92},
    "SPARTA": {2: 24.61},
}
"""Mean score by player count, per published bot."""


def published_rows(rows: Sequence[ScoreStats]) -> list[dict[str, str]]:
    """Per player count: the run's mean and 95% CI beside each published mean, with the gap
    (run minus published; positive: the run scores higher)."""
    table = []
    for row in rows:
        cells = {
            "players": str(row.players),
            "mean": f"{row.mean:.2f}",
            "mean_ci": f"{row.mean_ci[0]:.2f}-{row.mean_ci[1]:.2f}",
        }
        for bot, means in PUBLISHED.items():
            published = means.get(row.players)
            cells[bot] = (
                "-" if published is None else f"{published:.2f} ({row.mean - published:+.2f})"
            )
        table.append(cells)
    return table
