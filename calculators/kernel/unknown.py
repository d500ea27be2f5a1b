"""A number nobody knows: what stands for an invalid input while the formula runs, to see what it reaches.

Arithmetic on an `Unknown` gives an `Unknown`, so a result that comes out as one may depend on the input. Anything
that would decide on its value (a comparison, `max`, `round`, a `math` function, `float()`, a dictionary key) raises
`Undecided` instead: a threshold, a branch or a conversion may carry the input into any result, so then none of the
results can be shown as known. What comes out as a plain number was computed without the input, so it is exact.

>>> x = Unknown()
>>> isinstance(2 * x + 1, Unknown), isinstance(abs(-x) ** 0.5, Unknown)
(True, True)
>>> max(1.0, x)
Traceback (most recent call last):
  ...
calculators.kernel.unknown.Undecided
"""

from __future__ import annotations

from typing import NoReturn

__all__ = ["Undecided", "Unknown"]


class Undecided(BaseException):
    """The formula decided something on an unknown value.

    A BaseException, so that a formula's own `except Exception` (or `except ValueError`) cannot swallow it.
    """


class Unknown:
    """A value not known; it carries nothing, so no arithmetic on it can fail."""

    __slots__ = ()

    def _arithmetic(self, *_: object) -> Unknown:
        # A new one each time: containers take an object as equal to itself without asking it (tuples compared
        # as sort keys, say), which two results of different arithmetic must never be.
        return Unknown()

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _arithmetic
    __truediv__ = __rtruediv__ = __floordiv__ = __rfloordiv__ = __mod__ = __rmod__ = _arithmetic
    __pow__ = __rpow__ = __neg__ = __pos__ = __abs__ = _arithmetic

    def _decide(self, *_: object) -> NoReturn:
        raise Undecided

    __lt__ = __le__ = __gt__ = __ge__ = _decide
    __bool__ = __float__ = __int__ = __index__ = __complex__ = _decide
    __round__ = __trunc__ = __floor__ = __ceil__ = __divmod__ = __rdivmod__ = _decide

    def __eq__(self, other: object) -> NoReturn:  # `x == 0`, `x in (1, 2)`: a decision
        raise Undecided

    def __ne__(self, other: object) -> NoReturn:
        raise Undecided

    def __hash__(self) -> NoReturn:  # a table looked up by the value
        raise Undecided

    def __format__(self, spec: str) -> NoReturn:
        raise Undecided

    def __repr__(self) -> str:
        return "Unknown()"
