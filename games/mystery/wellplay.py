"""A loader for a user's own copy of the WellPlay scripts (seed 004's data set).

Layout, per script folder: ``json/script_info.json`` (``agent_num``, ``script_name``,
``character_name``), per character ``json/<name>.json`` (``script``, ``acts_goal``, ``victims``,
``kill_by_me``, ``is_murderer``) and ``final_result/<name>.csv`` (``value`` a / b / c = 10 / 5 /
2 points, ``type`` a single / b multiple choice, ``question``, options ``a``-``e``, ``truth``).
Files may start with a byte-order mark; a quoted cell may hold line breaks (kept as ``\n``,
whatever the file's line endings); rows may be ragged; with ``truth`` empty, a key that
slipped into the last filled option column (usually ``e``) or past the last column is taken.
Options are shuffled with a seeded RNG, since the key is usually ``a``. Anything else wrong is
a ``WellPlayError`` naming the file and line or field.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from reasoning.textfile import UserFileError, read_user_csv, read_user_json_object

LETTERS = ("a", "b", "c", "d", "e")
VALUES = {"a": 10, "b": 5, "c": 2}
"""Question values by the ``value`` column's letter."""
CATEGORIES: dict[int, Literal["objective", "reasoning", "relation"]] = {
    10: "objective",
    5: "reasoning",
    2: "relation",
}
_KEY = re.compile(r"^\s*[a-eA-E](?:\s*[,;/ ]?\s*[a-eA-E])*\s*$")


class WellPlayError(ValueError):
    """A WellPlay file that cannot be read; the message names the file and line or field."""


class WellPlayQuestion(BaseModel):
    """One multiple-choice question, its options shuffled and its key remapped."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    points: int
    multiple: bool
    question: str
    options: dict[str, str]
    key: frozenset[str] = Field(min_length=1)

    @property
    def category(self) -> Literal["objective", "reasoning", "relation"]:
        """objective (10 points), reasoning (5) or relation (2)."""
        return CATEGORIES[self.points]


class WellPlayCharacter(BaseModel):
    """A character's script, goal, victims, whether it killed, and its questions."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    script: str
    goal: str
    victims: str
    kill_by_me: str
    is_murderer: bool
    questions: tuple[WellPlayQuestion, ...]


class WellPlayScript(BaseModel):
    """One script: its name, number of players and characters."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    agent_num: int
    characters: tuple[WellPlayCharacter, ...]


def _json(path: Path) -> dict[str, Any]:
    try:
        return read_user_json_object(path)
    except UserFileError as err:
        raise WellPlayError(str(err)) from None


def _field(data: dict[str, Any], name: str, path: Path) -> Any:
    if name not in data:
        raise WellPlayError(f"{path}: field {name!r} is missing")
    return data[name]


def _text(data: dict[str, Any], name: str, path: Path, required: bool = False) -> str:
    """A text field, given as a string or a list of lines (``None`` for empty)."""
    value = _field(data, name, path)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        text = "\n".join(value)
    elif isinstance(value, str) or value is None:
        text = value or ""
    else:
        raise WellPlayError(f"{path}: field {name!r} must be text or a list of lines")
    if required and not text.strip():
        raise WellPlayError(f"{path}: field {name!r} is empty")
    return text


def _flag(value: Any, name: str, path: Path) -> bool:
    if isinstance(value, bool):
        return value
    if not isinstance(value, str | int):
        raise WellPlayError(f"{path}: field {name!r} is not a yes/no value: {value!r}")
    text = str(value).strip().lower()
    if text in ("true", "yes", "1", "是"):
        return True
    if text in ("false", "no", "0", "否", ""):
        return False
    raise WellPlayError(f"{path}: field {name!r} is not a yes/no value: {value!r}")


def _letters(text: str) -> frozenset[str]:
    return frozenset(ch.lower() for ch in text if ch.lower() in LETTERS)


def _lines(cell: str) -> str:
    """A cell's line breaks as ``\n`` (a file saved with CRLF keeps them inside quoted cells)."""
    return cell.replace("\r\n", "\n").replace("\r", "\n")


def _question(
    row: list[str], header: list[str], where: str, rng: random.Random
) -> WellPlayQuestion:
    """One row's question; ``where`` is ``file:line``, to which each error adds the column."""
    width = len(header)

    def at(name: str) -> str:
        return f"{where}:{header.index(name) + 1 if name in header else 1}"

    past = [(width + i + 1, c) for i, c in enumerate(row[width:]) if c.strip()]
    row = [_lines(c) for c in row]
    cells = dict(zip(header, [*row[:width], *[""] * (width - len(row))], strict=True))
    truth = cells.get("truth", "").strip()
    filled = [k for k in LETTERS if cells.get(k, "").strip()]
    if not truth and len(past) == 1 and _KEY.match(past[0][1]):
        truth = past[0][1]
    elif past:
        raise WellPlayError(
            f"{where}:{past[0][0]}: {len(past)} cells past the last column "
            f"({header[-1]!r}, column {width})"
        )
    elif not truth and filled and _KEY.match(cells[filled[-1]]):
        truth, cells[filled[-1]] = cells[filled[-1]], ""
    value = VALUES.get(cells.get("value", "").strip().lower())
    if value is None:
        raise WellPlayError(
            f"{at('value')}: column 'value': must be a, b or c, got {cells.get('value')!r}"
        )
    kind = cells.get("type", "").strip().lower()
    if kind not in ("a", "b"):
        raise WellPlayError(f"{at('type')}: column 'type': must be a or b, got {kind!r}")
    if not cells.get("question", "").strip():
        raise WellPlayError(f"{at('question')}: column 'question': the question is empty")
    options = {k: cells.get(k, "").strip() for k in LETTERS if cells.get(k, "").strip()}
    if len(options) < 2:
        raise WellPlayError(f"{at('a')}: columns 'a'-'e': a question needs two options or more")
    seen: dict[str, str] = {}
    for letter, text in options.items():
        same = seen.get(" ".join(text.split()).casefold())
        if same is not None:
            raise WellPlayError(
                f"{at(letter)}: column {letter!r}: the same option as column {same!r} "
                f"({text!r}); options must differ"
            )
        seen[" ".join(text.split()).casefold()] = letter
    key = _letters(truth)
    if not _KEY.match(truth) or not key:
        raise WellPlayError(f"{at('truth')}: column 'truth': must name options a-e, got {truth!r}")
    if not key <= set(options):
        raise WellPlayError(f"{at('truth')}: column 'truth': {truth!r} names an empty option")
    if kind == "a" and len(key) > 1:
        raise WellPlayError(
            f"{at('truth')}: column 'truth': a single-choice question (type a) has one key, "
            f"got {truth!r}"
        )
    order = list(options)
    rng.shuffle(order)
    moved = {old: LETTERS[i] for i, old in enumerate(order)}
    return WellPlayQuestion(
        points=value,
        multiple=kind == "b",
        question=cells["question"].strip(),
        options={moved[k]: options[k] for k in order},
        key=frozenset(moved[k] for k in key),
    )


def read_questions(path: Path, seed: int) -> tuple[WellPlayQuestion, ...]:
    """The questions of one ``final_result/<name>.csv``, options shuffled by ``seed``."""
    try:
        rows = read_user_csv(path)
    except UserFileError as err:
        raise WellPlayError(str(err)) from None
    if not rows:
        raise WellPlayError(f"{path}: empty")
    header = [h.strip().lower() for h in rows[0][1]]
    for needed in ("value", "type", "question", "truth", "a"):
        if needed not in header:
            raise WellPlayError(f"{path}:1: column {needed!r} is missing")
    twice = sorted({h for h in header if h and header.count(h) > 1})
    if twice:
        second = header.index(twice[0], header.index(twice[0]) + 1) + 1
        raise WellPlayError(f"{path}:1:{second}: column {twice[0]!r} appears twice")
    rng = random.Random(f"wellplay:{seed}:{path.name}")
    questions = tuple(
        _question(row, header, f"{path}:{line}", rng)
        for line, row in rows[1:]
        if any(c.strip() for c in row)
    )
    if not questions:
        raise WellPlayError(f"{path}: no questions")
    return questions


def _names(info: dict[str, Any], path: Path) -> list[str]:
    """The characters ``script_info.json`` lists: distinct names that can name files."""
    names = _field(info, "character_name", path)
    if isinstance(names, str):
        names = [names]
    if not isinstance(names, list) or not all(isinstance(n, str) and n.strip() for n in names):
        raise WellPlayError(f"{path}: field 'character_name' must list names")
    if not names:
        raise WellPlayError(f"{path}: field 'character_name' lists no characters")
    for name in names:
        if "/" in name or "\\" in name or "\0" in name or name in (".", ".."):
            raise WellPlayError(f"{path}: field 'character_name': {name!r} cannot name a file")
        if names.count(name) > 1:
            raise WellPlayError(f"{path}: field 'character_name' lists {name!r} twice")
    return names


def _count(info: dict[str, Any], path: Path) -> int:
    value = _field(info, "agent_num", path)
    try:
        number = float(value) if isinstance(value, str) else value
        if isinstance(number, bool) or not isinstance(number, int | float):
            raise TypeError
        if number != int(number) or number < 1:
            raise ValueError
    except (TypeError, ValueError, OverflowError):
        raise WellPlayError(
            f"{path}: field 'agent_num' must be a whole number of players"
        ) from None
    return int(number)


def load_script(folder: Path, seed: int = 0) -> WellPlayScript:
    """One script folder, read and checked in full before anything is played, its options
    shuffled with ``seed``."""
    info_path = folder / "json" / "script_info.json"
    info = _json(info_path)
    names = _names(info, info_path)
    agent_num = _count(info, info_path)
    if agent_num != len(names):
        raise WellPlayError(
            f"{info_path}: field 'agent_num': {agent_num} players, but 'character_name' lists "
            f"{len(names)} characters"
        )
    characters = []
    for name in names:
        path = folder / "json" / f"{name}.json"
        data = _json(path)
        characters.append(
            WellPlayCharacter(
                name=name,
                script=_text(data, "script", path, required=True),
                goal=_text(data, "acts_goal", path),
                victims=_text(data, "victims", path),
                kill_by_me=_text(data, "kill_by_me", path),
                is_murderer=_flag(_field(data, "is_murderer", path), "is_murderer", path),
                questions=read_questions(folder / "final_result" / f"{name}.csv", seed),
            )
        )
    return WellPlayScript(
        name=_text(info, "script_name", info_path, required=True),
        agent_num=agent_num,
        characters=tuple(characters),
    )


def script_folders(root: Path) -> list[Path]:
    """The script folders under ``root`` (those with ``json/script_info.json``), by name; a
    folder holding ``json`` or ``final_result`` without the info file is refused, naming it."""
    folders = sorted(p.parent.parent for p in root.glob("*/json/script_info.json"))
    if not folders:
        raise WellPlayError(f"{root}: no */json/script_info.json found")
    for part in ("json", "final_result"):
        for found in sorted(root.glob(f"*/{part}")):
            if found.parent not in folders:
                info = found.parent / "json" / "script_info.json"
                raise WellPlayError(f"{info}: no such file; a script folder needs its info file")
    return folders


def load_wellplay(root: Path, seed: int = 0) -> list[WellPlayScript]:
    """Every script folder under ``root`` (``script_folders``), by name."""
    return [load_script(folder, seed) for folder in script_folders(root)]
