"""Injective encoding of arbitrary symbol names into the plain identifiers every backend accepts.

Letters and digits of ASCII stay as they are; ``_`` becomes ``__``; any other character becomes
``_<hex code point>_``. So the result matches ``[A-Za-z0-9_]*`` and ``decode`` inverts it. A
prefix per kind of symbol (``p_``, ``c_``, ``V_`` ...) then keeps kinds apart, fixes the case a
format demands (TPTP variables upper case, functors lower case) and keeps clear of every keyword.
"""

from __future__ import annotations


def encode(name: str) -> str:
    """Encode ``name`` into letters, digits and underscores, injectively."""
    out: list[str] = []
    for ch in name:
        if ch.isascii() and ch.isalnum():
            out.append(ch)
        elif ch == "_":
            out.append("__")
        else:
            out.append(f"_{ord(ch):x}_")
    return "".join(out)


def decode(text: str) -> str:
    """Invert ``encode``; raises ValueError on text ``encode`` cannot produce."""
    out: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch != "_":
            out.append(ch)
            i += 1
            continue
        if i + 1 < len(text) and text[i + 1] == "_":
            out.append("_")
            i += 2
            continue
        end = text.find("_", i + 1)
        if end == -1:
            raise ValueError(f"unterminated escape in {text!r} at {i}")
        out.append(chr(int(text[i + 1 : end], 16)))
        i = end + 1
    return "".join(out)


def symbol(prefix: str, name: str) -> str:
    """``prefix`` followed by the encoded ``name``: the identifier a backend sees."""
    return prefix + encode(name)


def sort_id(sort: str) -> str:
    """The identifier of a sort (an SMT-LIB sort, a TPTP guard predicate, an Isabelle type)."""
    return symbol("s_", sort)


def pred_id(pred: str) -> str:
    """The identifier of a predicate (a 0-ary one is a proposition)."""
    return symbol("p_", pred)


def const_id(name: str) -> str:
    """The identifier of a constant."""
    return symbol("c_", name)


def var_id(name: str) -> str:
    """The identifier of a bound variable (TPTP, which wants upper case, uses its own)."""
    return symbol("v_", name)


def axiom_id(name: str) -> str:
    """The identifier of an axiom: the label unsat cores, proofs and tactics cite."""
    return symbol("a_", name)
