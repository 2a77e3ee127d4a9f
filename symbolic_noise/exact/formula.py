"""Reading numbers and formulas in p from text, as data, never as code.

Channel files, ``--at``, statements and certificates come from outside: a
researcher runs files downloaded next to a paper.  This module reads them with
a grammar of its own, with documented caps, and never hands text to ``eval``,
``sympify`` or ``parse_expr``.  The grammar::

    formula  := term (("+" | "-") term)*
    term     := factor (("*" | "/") factor)*
    factor   := ("+" | "-") factor | power
    power    := NUMBER symbol [("**" | "^") exponent] | atom [("**" | "^") exponent]
    exponent := ["+" | "-"] INTEGER | "(" formula ")"      (a whole number)
    atom     := NUMBER | symbol | "(" formula ")"

``NUMBER`` is an integer, a decimal (``0.25``, read exactly) or either with a
decimal exponent (``1e-3``, read exactly); a number written directly before the
symbol multiplies its power (``2p^2`` is ``2*p**2``, as the paper and
:meth:`RationalFunction.text` write).  ``-p**2`` is ``-(p**2)``, as in Python and in mathematics.  ``^`` is a
power (the paper's notation), never an exclusive or.  Anything else (names,
calls, attributes, strings, other symbols) is refused with the offending token
and its column.

Caps (every one is checked before the work it bounds is done):

* :data:`MAX_LENGTH` characters of text;
* :data:`MAX_DIGITS` digits in one number, and a decimal exponent of at most
  :data:`MAX_DIGITS` in absolute value;
* :data:`MAX_DEGREE`: the degree in p of every intermediate result, numerator
  and denominator, as written (``p**(10**9)`` is refused at once);
* :data:`MAX_BITS`: the bit size of every intermediate coefficient;
* :data:`MAX_NESTING` levels of parentheses and signs;
* :data:`MAX_WORK`: the total size (coefficients times bits) of every
  intermediate result of one formula, a measure of the work it asks for
  (a sum of thousands of ``(3+p)^999``, each term within the caps above, is
  refused instead of taking minutes); :func:`work_budget` shares one such
  budget between all the formulas of a file.

Numbers are written in ASCII digits only (``int`` would also read Arabic-Indic
or fullwidth digits and ``1_0``); :func:`parse_whole` reads a whole number
(a heap size, a count, an option's value) by the same rule.

Examples
--------
>>> parse_formula("(1 - p + p^2)/(1 + p)").text()
'(1 - p + p^2)/(1 + p)'
>>> parse_number("0.25"), parse_number("-1/3"), parse_number("1e-2")
(1/4, -1/3, 1/100)
>>> parse_formula("__import__('os')")
Traceback (most recent call last):
...
symbolic_noise.errors.ExpressionError: unexpected '__import__' at column 1 in "__import__('os')" (a formula is a rational function of p: numbers, p, + - * / ** ^ and parentheses)
"""

from __future__ import annotations

import contextlib
import contextvars
import re

from flint import fmpq, fmpq_poly, fmpz

from ..errors import ExpressionError
from .polys import as_fmpq
from .ratfunc import RationalFunction

#: longest text read as one formula or number (characters)
MAX_LENGTH = 200_000
#: most digits in one number literal (and largest decimal exponent)
MAX_DIGITS = 1_000
#: highest degree in p of any intermediate result, as written
MAX_DEGREE = 1_000
#: largest bit size of any coefficient of an intermediate result
MAX_BITS = 20_000
#: deepest nesting of parentheses and signs
MAX_NESTING = 100
#: most work one formula may ask for, the sum over every intermediate result
#: of (degree + 1) * (coefficient bits + 1) of its numerator and denominator (a
#: sum of (3+p)^999 terms spends about 3.2 million per term, about 1 ms)
MAX_WORK = 4 * 10**9

_TOKEN = re.compile(
    r"""\s*(?:
        (?P<number>(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)
      | (?P<op>\*\*|[-+*/^()])
      | (?P<name>[A-Za-z_][A-Za-z_0-9]*)
      | (?P<other>\S)
    )""",
    re.VERBOSE | re.ASCII,
)
_SIMPLE_NUMBER = re.compile(r"\s*(-?\d+)(?:/(\d+))?\s*", re.ASCII)
_WHOLE = re.compile(r"[+-]?[0-9]+", re.ASCII)
_HINT = "a formula is a rational function of {symbol}: numbers, {symbol}, + - * / ** ^ and parentheses"


class _Value:
    """``num / den`` with rational polynomials, not reduced (cheap, and every cap
    is checked on the formula as written)."""

    __slots__ = ("num", "den")

    def __init__(self, num: fmpq_poly, den: fmpq_poly):
        self.num, self.den = num, den


def _const(q: fmpq) -> _Value:
    return _Value(fmpq_poly([q]), fmpq_poly([1]))


def _bits(f: fmpq_poly) -> int:
    """Bit size of the largest numerator or denominator among the coefficients
    (an upper bound: the common denominator's numerators, in C)."""
    if f.is_zero():
        return 0
    return max(f.numer().height_bits(), int(f.denom()).bit_length())


class _Budget:
    """Work left for the formulas of one input (see :data:`MAX_WORK`)."""

    __slots__ = ("left", "cap", "what")

    def __init__(self, cap: int, what: str):
        self.left, self.cap, self.what = cap, cap, what


#: the budget shared by every formula read inside :func:`work_budget`
_SHARED: contextvars.ContextVar = contextvars.ContextVar("formula_work_budget", default=None)
#: work charged for each token (the parser's own time, about 3 microseconds)
TOKEN_WORK = 10_000


@contextlib.contextmanager
def work_budget(units: int, what: str):
    """Let every formula read inside share one budget of ``units`` of work
    (:data:`MAX_WORK`), e.g. all the probabilities of one channel file.

    >>> with work_budget(10**5, "the file"):
    ...     parse_formula("1 - p")
    ...     parse_formula("+".join(["p"] * 20))
    Traceback (most recent call last):
    ...
    symbolic_noise.errors.ExpressionError: the formulas of the file ask for more work than 100000 (the cap for the whole input)
    """
    token = _SHARED.set(_Budget(units, what))
    try:
        yield
    finally:
        _SHARED.reset(token)


class _Parser:
    def __init__(self, text: str, symbol: str, what: str):
        self.text, self.symbol, self.what = text, symbol, what
        self.work = 0
        self.shared = _SHARED.get()
        self.tokens = self._tokenize()
        self.spend(TOKEN_WORK * len(self.tokens))
        self.i = 0
        self.depth = 0

    def spend(self, units: int) -> None:
        """Charge ``units`` of work to this formula and to the shared budget."""
        self.work += units
        if self.work > MAX_WORK:
            self.fail(f"the {self.what} asks for more work than {MAX_WORK} (the cap: its intermediate results are too large together)")
        if self.shared is not None:
            self.shared.left -= units
            if self.shared.left < 0:
                raise ExpressionError(
                    f"the formulas of {self.shared.what} ask for more work than {self.shared.cap} (the cap for the whole input)"
                )

    # ------------------------------------------------------------------ errors

    def fail(self, message: str, column: int | None = None):
        where = f" at column {column}" if column is not None else ""
        raise ExpressionError(f"{message}{where} in {_quote(self.text)}")

    def unexpected(self, tok):
        kind, value, col = tok
        if kind == "end":
            self.fail(f"the {self.what} ends too early", None)
        raise ExpressionError(
            f"unexpected {value!r} at column {col} in {_quote(self.text)} ({self.hint()})"
        )

    def hint(self) -> str:
        if self.what == "number":
            return "a number is an integer, a decimal or a fraction such as 3/7"
        return _HINT.format(symbol=self.symbol)

    # ------------------------------------------------------------------ tokens

    def _tokenize(self) -> list:
        out, pos, text = [], 0, self.text
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if m is None or m.end() == pos:  # trailing white space
                break
            kind = m.lastgroup
            value = m.group(kind)
            col = m.start(kind) + 1
            if kind == "other":
                out.append(("other", value, col))
            elif kind == "name" and value != self.symbol:
                out.append(("other", value, col))
            else:
                out.append((kind, value, col))
            pos = m.end()
        out.append(("end", "", len(text) + 1))
        return out

    def peek(self):
        return self.tokens[self.i]

    def take(self):
        tok = self.tokens[self.i]
        self.i += 1
        return tok

    def accept(self, *ops) -> tuple | None:
        tok = self.peek()
        if tok[0] == "op" and tok[1] in ops:
            self.i += 1
            return tok
        return None

    # ------------------------------------------------------------------ grammar

    def formula(self) -> _Value:
        value = self.term()
        while (tok := self.accept("+", "-")) is not None:
            other = self.term()
            if tok[1] == "-":
                other = _Value(-other.num, other.den)
            value = self.check(_Value(value.num * other.den + other.num * value.den, value.den * other.den), tok)
        return value

    def term(self) -> _Value:
        value = self.factor()
        while (tok := self.accept("*", "/")) is not None:
            other = self.factor()
            if tok[1] == "*":
                value = _Value(value.num * other.num, value.den * other.den)
            else:
                if other.num.is_zero():
                    self.fail(f"division by zero ('/' at column {tok[2]})")
                value = _Value(value.num * other.den, value.den * other.num)
            value = self.check(value, tok)
        return value

    def nest(self, tok) -> None:
        self.depth += 1
        if self.depth > MAX_NESTING:
            self.fail(f"parentheses and signs nest deeper than {MAX_NESTING} (the cap)", tok[2])

    def factor(self) -> _Value:
        tok = self.accept("+", "-")
        if tok is not None:
            self.nest(tok)
            value = self.factor()
            self.depth -= 1
            return value if tok[1] == "+" else _Value(-value.num, value.den)
        return self.power()

    def power(self) -> _Value:
        coefficient = None
        if self.peek()[0] == "number" and self.tokens[self.i + 1][0] == "name":
            # 2p^2 is 2 (p^2), as the paper writes it
            num = self.take()
            coefficient = _read_number(num[1], num[2], self.text)
        base = self.atom()
        if coefficient is not None:
            base = self.raise_to(base)
            return _Value(base.num * coefficient, base.den)
        return self.raise_to(base)

    def raise_to(self, base: _Value) -> _Value:
        tok = self.accept("**", "^")
        if tok is None:
            return base
        e = self.exponent()
        if e < 0:
            if base.num.is_zero():
                self.fail(f"zero to a negative power ('{tok[1]}' at column {tok[2]})")
            base, e = _Value(base.den, base.num), -e
        degree = max(base.num.degree(), base.den.degree(), 0)
        bits = max(_bits(base.num), _bits(base.den))
        if degree * e > MAX_DEGREE:
            self.fail(f"the power at column {tok[2]} has degree {degree} * {e} > {MAX_DEGREE} (the cap on degrees)")
        if bits * e > MAX_BITS:
            self.fail(f"the power at column {tok[2]} has coefficients of about {bits * e} bits > {MAX_BITS} (the cap)")
        self.spend((degree * e + 1) * (bits * e + 1))  # (before the work, which this bounds)
        return self.check(_Value(base.num**e, base.den**e), tok)

    def exponent(self) -> int:
        start = self.peek()
        if self.accept("(") is not None:  # a parenthesised whole number, e.g. (-2) or (10**3)
            self.nest(start)
            inner = self.formula()
            self.depth -= 1
            if self.accept(")") is None:
                self.unexpected(self.peek())
            if inner.num.degree() > 0 or inner.den.degree() > 0:
                self.fail(f"the exponent at column {start[2]} depends on {self.symbol}")
            q = inner.num[0] / inner.den[0]
            if q.q != 1:
                self.fail(f"the exponent {q} at column {start[2]} is not a whole number")
            e = int(q.p)
        else:
            sign = self.accept("+", "-")
            tok = self.take()
            if tok[0] != "number" or not tok[1].isdigit():
                if tok[0] == "end":
                    self.unexpected(tok)
                self.fail(f"an exponent must be a whole number, not {tok[1]!r}", tok[2])
            if len(tok[1]) > 6:
                self.fail(f"the exponent {tok[1][:20]}... is larger than {MAX_DEGREE} (the cap on degrees)", tok[2])
            e = int(tok[1]) * (-1 if sign is not None and sign[1] == "-" else 1)
        if abs(e) > MAX_DEGREE:
            self.fail(f"the exponent {e} is larger than {MAX_DEGREE} (the cap on degrees)", start[2])
        return e

    def atom(self) -> _Value:
        tok = self.take()
        kind, value, col = tok
        if kind == "number":
            return _const(_read_number(value, col, self.text))
        if kind == "name":
            return _Value(fmpq_poly([0, 1]), fmpq_poly([1]))
        if kind == "op" and value == "(":
            self.nest(tok)
            inner = self.formula()
            self.depth -= 1
            if self.accept(")") is None:
                self.unexpected(self.peek())
            return inner
        self.unexpected(tok)

    def check(self, value: _Value, tok) -> _Value:
        degree = max(value.num.degree(), value.den.degree())
        if degree > MAX_DEGREE:
            self.fail(f"the result of '{tok[1]}' at column {tok[2]} has degree {degree} > {MAX_DEGREE} (the cap on degrees)")
        bits = max(_bits(value.num), _bits(value.den))
        if bits > MAX_BITS:
            self.fail(f"the result of '{tok[1]}' at column {tok[2]} has coefficients of {bits} bits > {MAX_BITS} (the cap)")
        self.spend((degree + 1) * (bits + 1))
        return value

    def parse(self) -> _Value:
        value = self.formula()
        tok = self.peek()
        if tok[0] != "end":
            self.unexpected(tok)
        return value


def _quote(text: str) -> str:
    shown = text if len(text) <= 60 else text[:57] + "..."
    if not shown.isprintable():  # (a line break would split the message)
        shown = "".join(c if c.isprintable() else repr(c)[1:-1] for c in shown)
    return '"' + shown.replace('"', '\\"') + '"'


def _read_number(literal: str, col: int, text: str) -> fmpq:
    """An exact rational from a decimal literal such as ``12``, ``0.25`` or ``1e-3``."""
    mantissa, _, exp = literal.lower().partition("e")
    whole, _, frac = mantissa.partition(".")
    digits = (whole + frac).lstrip("0")
    if len(digits) > MAX_DIGITS:
        raise ExpressionError(
            f"the number at column {col} in {_quote(text)} has {len(digits)} digits > {MAX_DIGITS} (the cap)"
        )
    e = 0
    if exp:
        if len(exp.lstrip("+-").lstrip("0")) > 4 or abs(int(exp)) > MAX_DIGITS:
            raise ExpressionError(
                f"the decimal exponent at column {col} in {_quote(text)} is larger than {MAX_DIGITS} (the cap)"
            )
        e = int(exp)
    e -= len(frac)
    n = fmpz(int(whole + frac or "0"))
    return fmpq(n * fmpz(10) ** e) if e >= 0 else fmpq(n, fmpz(10) ** -e)


def _check_text(text, what: str) -> str:
    if not isinstance(text, str):
        raise ExpressionError(f"a {what} must be text, not {type(text).__name__}")
    if len(text) > MAX_LENGTH:
        raise ExpressionError(f"a {what} of {len(text)} characters is longer than {MAX_LENGTH} (the cap)")
    if not text.strip():
        raise ExpressionError(f"an empty {what}")
    return text


def parse_whole(text, what: str = "a whole number", lo: int | None = None, hi: int | None = None, error=ExpressionError) -> int:
    """The whole number ``text`` writes in ASCII digits (an optional sign, no
    underscores, no other digits), checked to lie in [lo, hi]; ``error``
    (default :class:`ExpressionError`) otherwise, naming ``what``.  Long texts
    are refused by their length, before any conversion.

    >>> parse_whole(" 12 "), parse_whole("-3")
    (12, -3)
    >>> parse_whole("1_0", "a heap")
    Traceback (most recent call last):
    ...
    symbolic_noise.errors.ExpressionError: a heap is written in ASCII digits 0-9, not '1_0'
    >>> parse_whole("\u0663", "a heap")
    Traceback (most recent call last):
    ...
    symbolic_noise.errors.ExpressionError: a heap is written in ASCII digits 0-9, not '\u0663'
    """
    if not isinstance(text, str):
        raise error(f"{what} is written in ASCII digits 0-9, not {type(text).__name__} {str(text)[:20]!r}")
    body = text.strip(" \t")
    if not _WHOLE.fullmatch(body):
        shown = body if len(body) <= 40 else body[:37] + "..."
        raise error(f"{what} is written in ASCII digits 0-9, not {shown!r}")
    digits = body.lstrip("+-").lstrip("0")
    limit = max(len(str(abs(b))) for b in (lo, hi, 10**18) if b is not None)
    if len(digits) > limit:
        n = (10 ** (limit + 1)) * (-1 if body.startswith("-") else 1)  # beyond every bound given
    else:
        n = int(body)
    if (lo is not None and n < lo) or (hi is not None and n > hi):
        lo_s = "" if lo is None else f"{lo}"
        hi_s = "" if hi is None else f"{hi}"
        shown = body if len(body) <= 20 else body[:17] + "..."
        if lo is not None and hi is not None:
            raise error(f"{what} must be between {lo_s} and {hi_s}, not {shown}")
        raise error(f"{what} must be {'>= ' + lo_s if lo is not None else '<= ' + hi_s}, not {shown}")
    return n


def parse_formula(text: str, symbol: str = "p"):
    """The :class:`~symbolic_noise.exact.ratfunc.RationalFunction` that ``text`` writes.

    >>> parse_formula("p/2 + (1-p)**2")
    parse_formula('(2*p**2 - 3*p + 2)/2')
    >>> parse_formula("p**(10**9)")
    Traceback (most recent call last):
    ...
    symbolic_noise.errors.ExpressionError: the exponent 1000000000 is larger than 1000 (the cap on degrees) at column 4 in "p**(10**9)"
    """
    v = _Parser(_check_text(text, "formula"), symbol, "formula").parse()
    if v.den.is_zero():  # pragma: no cover - excluded when dividing
        raise ExpressionError(f"{_quote(text)} has a zero denominator")
    num, den = v.num * v.den.denom(), v.den * v.num.denom()
    return RationalFunction(num.numer(), den.numer()) if not num.is_zero() else RationalFunction.constant(0)


def parse_number(text: str) -> fmpq:
    """The exact rational that ``text`` writes (``3/7``, ``-0.25``, ``1e-3``, ``(1/2)^3``).

    >>> parse_number("3/7")
    3/7
    >>> parse_number("p")
    Traceback (most recent call last):
    ...
    symbolic_noise.errors.ExpressionError: "p" is not an exact rational number: unexpected 'p' at column 1 in "p" (a number is an integer, a decimal or a fraction such as 3/7)
    """
    simple = _SIMPLE_NUMBER.fullmatch(text) if isinstance(text, str) else None
    if simple is not None and len(simple.group(1)) + len(simple.group(2) or "") <= MAX_DIGITS:
        # the common case (``-3/7``, ``12``): no need for the grammar's machinery
        num, den = int(simple.group(1)), int(simple.group(2) or 1)
        if den != 0:
            return fmpq(num, den)
    try:
        v = _Parser(_check_text(text, "number"), "\0", "number").parse()
    except ExpressionError as exc:
        raise ExpressionError(f"{_quote(str(text))} is not an exact rational number: {exc}") from None
    if v.num.degree() > 0 or v.den.degree() > 0:  # pragma: no cover - no symbol is known
        raise ExpressionError(f"{_quote(text)} is not a number")
    return v.num[0] / v.den[0]


def exact_number(x) -> fmpq:
    """An exact rational from text (read by :func:`parse_number`) or from an
    exact number (anything :func:`symbolic_noise.exact.polys.as_fmpq` takes);
    floats are refused.

    >>> exact_number("0.01"), exact_number("1/3"), exact_number(2)
    (1/100, 1/3, 2)
    """
    if type(x) is fmpq:  # (the common case, on hot paths)
        return x
    return parse_number(x) if isinstance(x, str) else as_fmpq(x)


def rational_function(x, symbol: str = "p") -> RationalFunction:
    """A rational function from text (read by :func:`parse_formula`), an exact
    number, a RationalFunction or a SymPy expression.

    >>> rational_function("1 - p/2"), rational_function(3)
    (parse_formula('(-p + 2)/2'), parse_formula('3'))
    """
    return parse_formula(x, symbol) if isinstance(x, str) else RationalFunction.coerce(x)
