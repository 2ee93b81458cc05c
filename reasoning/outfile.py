"""Writing the files the project makes: whole or not at all, never through a planted link.

Every output file goes through this module. A file is written to a temporary file in its own
folder and renamed over the destination, so a reader sees the old file or the whole new one; the
rename replaces whatever name stands there and never writes through it. What stands at the
destination is looked at first: a symbolic link, a FIFO, a device or a folder is refused (a run
folder shared by someone else may hold one), and so is the very file the command read its input
from (``inputs``). Files are created with mode ``0666`` less the umask, as ``open`` creates them.

``inside`` names a folder the destination was found in (a run directory): no folder between it
and the destination may be a symbolic link. Refusals raise ``UserFileError`` naming the file;
failures of the system (a full disk, no permission) raise ``OSError`` with the file's name.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import secrets
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, Any, Literal, overload

from reasoning.textfile import UserFileError

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC
_FILE_MODE = 0o666


def named_os_error(err: OSError, path: str | os.PathLike[str]) -> OSError:
    """``err`` with ``path`` as its file name (so the one line printed says which file)."""
    return OSError(err.errno, err.strerror or str(err), str(path))


def _open_folder(path: Path, inside: Path | None) -> int:
    """A descriptor of ``path``'s folder, reached from ``inside`` (when given) without
    following a link below it."""
    if "\0" in str(path):
        raise UserFileError(path, "the file name holds a NUL byte")
    folder = path.parent
    if inside is None:
        try:
            return os.open(folder, _DIR_FLAGS)
        except OSError as err:
            raise named_os_error(err, folder) from None
    try:
        parts = folder.relative_to(inside).parts
    except ValueError:
        raise ValueError(f"{path} is not inside {inside}") from None
    try:
        fd = os.open(inside, _DIR_FLAGS)
    except OSError as err:
        raise named_os_error(err, inside) from None
    reached = inside
    for part in parts:
        reached = reached / part
        try:
            inner = os.open(part, _DIR_FLAGS | os.O_NOFOLLOW, dir_fd=fd)
        except OSError as err:
            os.close(fd)
            if os.path.islink(reached):
                raise UserFileError(reached, "is a symbolic link, not a folder") from None
            raise named_os_error(err, reached) from None
        os.close(fd)
        fd = inner
    return fd


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino


def _check_destination(folder: int, path: Path, inputs: Iterable[str | os.PathLike[str]]) -> None:
    """Refuse a destination that is not a regular file, or that is one of ``inputs``."""
    try:
        info = os.stat(path.name, dir_fd=folder, follow_symlinks=False)
    except FileNotFoundError:
        return
    except OSError as err:
        raise named_os_error(err, path) from None
    mode = info.st_mode
    if stat.S_ISLNK(mode):
        raise UserFileError(path, "is a symbolic link; it is not replaced (write elsewhere)")
    if stat.S_ISDIR(mode):
        raise UserFileError(path, "is a folder, not a file")
    if not stat.S_ISREG(mode):
        raise UserFileError(path, "not a regular file (a pipe, socket or device); not replaced")
    if (info.st_dev, info.st_ino) in {_identity(Path(p)) for p in inputs}:
        raise UserFileError(path, "the output would overwrite its own input; write it elsewhere")


def _create_temporary(folder: int, path: Path) -> tuple[int, str]:
    """A new empty file beside ``path`` (mode 0666 less the umask): its descriptor and name."""
    while True:
        name = f".{path.name}.{secrets.token_hex(6)}.tmp"
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
        try:
            return os.open(name, flags, _FILE_MODE, dir_fd=folder), name
        except FileExistsError:
            continue
        except OSError as err:
            raise named_os_error(err, path) from None


@overload
def atomic_file(
    path: str | os.PathLike[str],
    *,
    binary: Literal[False] = False,
    inside: Path | None = None,
    inputs: Iterable[str | os.PathLike[str]] = (),
) -> contextlib.AbstractContextManager[IO[str]]: ...


@overload
def atomic_file(
    path: str | os.PathLike[str],
    *,
    binary: Literal[True],
    inside: Path | None = None,
    inputs: Iterable[str | os.PathLike[str]] = (),
) -> contextlib.AbstractContextManager[IO[bytes]]: ...


def atomic_file(
    path: str | os.PathLike[str],
    *,
    binary: bool = False,
    inside: Path | None = None,
    inputs: Iterable[str | os.PathLike[str]] = (),
) -> contextlib.AbstractContextManager[IO[Any]]:
    """A file to write ``path`` through (UTF-8 text with ``\\n`` line ends, or bytes): the
    destination is replaced when the block ends without an error, and left as it was
    otherwise (see the module docstring for what is refused)."""
    return _atomic_file(Path(path), binary, inside, tuple(inputs))


@contextlib.contextmanager
def _atomic_file(
    path: Path, binary: bool, inside: Path | None, inputs: tuple[str | os.PathLike[str], ...]
) -> Iterator[IO[Any]]:
    folder = _open_folder(path, inside)
    try:
        _check_destination(folder, path, inputs)
        fd, name = _create_temporary(folder, path)
        try:
            handle: IO[Any]
            if binary:
                handle = os.fdopen(fd, "wb")
            else:
                handle = os.fdopen(fd, "w", encoding="utf-8", newline="\n")
            with handle:
                yield handle
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(name, path.name, src_dir_fd=folder, dst_dir_fd=folder)
        except BaseException as err:
            with contextlib.suppress(OSError):
                os.unlink(name, dir_fd=folder)
            if isinstance(err, OSError):
                raise named_os_error(err, path) from None
            raise
    finally:
        os.close(folder)


@contextlib.contextmanager
def writing_to(
    path: str | os.PathLike[str],
    *,
    inside: Path | None = None,
    inputs: Iterable[str | os.PathLike[str]] = (),
) -> Iterator[Path]:
    """A path for a library that writes its output by name: the block writes the file there
    (in a private folder beside ``path``), and it is then put at ``path`` as ``atomic_file``
    puts its file (what is refused is refused before the block runs)."""
    target = Path(path)
    folder = _open_folder(target, inside)
    try:
        _check_destination(folder, target, inputs)
        private = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    except OSError as err:
        os.close(folder)
        raise named_os_error(err, target) from None
    except BaseException:
        os.close(folder)
        raise
    made = private / target.name
    try:
        yield made
        if not stat.S_ISREG(os.lstat(made).st_mode):
            raise UserFileError(made, "the writer left no regular file")
        written = os.open(made, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        try:
            os.fsync(written)
        finally:
            os.close(written)
        os.replace(made, target.name, dst_dir_fd=folder)
    except OSError as err:
        raise named_os_error(err, target) from None
    finally:
        shutil.rmtree(private, ignore_errors=True)
        os.close(folder)


def write_atomic(
    path: str | os.PathLike[str],
    data: str | bytes,
    *,
    inside: Path | None = None,
    inputs: Iterable[str | os.PathLike[str]] = (),
) -> Path:
    """Write ``data`` (text as UTF-8) to ``path`` whole or not at all; return the path."""
    target = Path(path)
    if isinstance(data, bytes):
        with atomic_file(target, binary=True, inside=inside, inputs=inputs) as out:
            out.write(data)
    else:
        with atomic_file(target, inside=inside, inputs=inputs) as text:
            text.write(data)
    return target


def open_fresh(
    path: str | os.PathLike[str],
    *,
    inside: Path | None = None,
    inputs: Iterable[str | os.PathLike[str]] = (),
) -> IO[str]:
    """A new, empty UTF-8 file put at ``path`` at once (replacing the file there), for output
    written as it happens (an event log): readers see it grow. What is refused at ``path`` is
    refused as by ``atomic_file``."""
    target = Path(path)
    folder = _open_folder(target, inside)
    try:
        _check_destination(folder, target, inputs)
        fd, name = _create_temporary(folder, target)
        try:
            os.replace(name, target.name, src_dir_fd=folder, dst_dir_fd=folder)
        except OSError as err:
            os.close(fd)
            with contextlib.suppress(OSError):
                os.unlink(name, dir_fd=folder)
            raise named_os_error(err, target) from None
    finally:
        os.close(folder)
    return os.fdopen(fd, "w", encoding="utf-8", newline="\n")


def open_append(path: str | os.PathLike[str], *, inside: Path | None = None) -> IO[str]:
    """``path`` open for appending UTF-8 text (created when missing); refused when a link, a
    FIFO, a device or a folder stands there."""
    target = Path(path)
    folder = _open_folder(target, inside)
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        try:
            fd = os.open(target.name, flags, _FILE_MODE, dir_fd=folder)
        except OSError as err:
            _check_destination(folder, target, ())
            raise named_os_error(err, target) from None
    finally:
        os.close(folder)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise UserFileError(target, "not a regular file (a pipe, socket or device)")
    os.set_blocking(fd, True)
    return os.fdopen(fd, "a", encoding="utf-8", newline="\n")


def finite(value: Any) -> Any:
    """``value`` (JSON data) with every NaN or infinite float replaced by None, so its JSON
    holds ``null`` where a figure is undefined (JSON has no NaN)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {key: finite(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [finite(item) for item in value]
    return value


def json_text(
    value: Any,
    *,
    indent: int | None = 2,
    sort_keys: bool = False,
    default: Callable[[Any], Any] | None = None,
) -> str:
    """``value`` as JSON text ending in a newline; undefined figures (NaN) become ``null``;
    ``default`` turns values JSON has no type for into ones it has (as ``json.dumps``)."""
    buffer = io.StringIO()
    json.dump(
        finite(value),
        buffer,
        indent=indent,
        sort_keys=sort_keys,
        allow_nan=False,
        default=default,
    )
    buffer.write("\n")
    return buffer.getvalue()
