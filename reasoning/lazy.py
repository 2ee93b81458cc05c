"""Packages whose public names are imported on first use, so importing one module stays cheap."""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from importlib import import_module
from types import ModuleType


class _LazyPackage(ModuleType):
    """A package whose public names keep their meaning when a submodule of the same name is
    imported (``games.core.replay`` the function, not the module ``games.core.replay``): the
    import system's binding of such a submodule on the package is ignored."""

    _public: frozenset[str] = frozenset()

    def __setattr__(self, name: str, value: object) -> None:
        if (
            name in self._public
            and isinstance(value, ModuleType)
            and value.__name__ == f"{self.__name__}.{name}"
        ):
            return
        super().__setattr__(name, value)


def lazy_exports(package: str, homes: Mapping[str, str]) -> Callable[[str], object]:
    """A module ``__getattr__`` for ``package``: ``homes`` maps each public name to the module
    defining it, which is imported when the name is first read; the value is then kept on the
    package."""
    module = sys.modules[package]
    module.__class__ = _LazyPackage
    object.__setattr__(module, "_public", frozenset(homes))

    def load(name: str) -> object:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(home), name)
        setattr(sys.modules[package], name, value)
        return value

    return load
