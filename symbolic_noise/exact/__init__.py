"""Exact numbers and functions of p: the layer everything else computes with.

Rooms, from the bottom up (each imports only the ones above it in this list,
and :mod:`symbolic_noise.errors`):

:mod:`.rounding`
    correctly rounded decimals of exact rationals.
:mod:`.polys`
    integer and rational polynomials: signs, root counting, Bernstein tests.
:mod:`.ratfunc`
    :class:`~.ratfunc.RationalFunction`, rational functions of p in lowest terms.
:mod:`.formula`
    the one grammar that reads numbers and formulas from text, as data, with
    caps (:func:`~.formula.parse_formula`, :func:`~.formula.exact_number`).
    The modules below it read no text.
:mod:`.algebraic`
    :class:`~.algebraic.RealAlgebraic`, exact real algebraic numbers (breakpoints).
:mod:`.piecewise`
    :class:`~.piecewise.PiecewiseFunction`, continuous piecewise-rational
    functions with optimal-move labels; :mod:`.interning` shares equal breakpoints.
:mod:`.bivariate`, :mod:`.crossings`, :mod:`.cad`
    polynomials in (p, q) and the cylindrical decompositions of phase diagrams.

Rendering (``_repr_html_``, ``plot``) is imported lazily from :mod:`symbolic_noise.io`.
"""
