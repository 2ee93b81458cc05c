"""A mixin for objects that hold a resource released by ``close()``, usable in ``with`` blocks."""

from __future__ import annotations

from typing import Self


class Closing:
    """``with obj:`` returns ``obj`` and calls ``obj.close()`` on the way out."""

    def close(self) -> None:
        """Release what the object holds; subclasses extend this."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
