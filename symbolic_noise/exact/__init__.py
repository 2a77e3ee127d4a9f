"""Exact core: formulas read from text, integer polynomials, rational functions
of p, real algebraic breakpoints, piecewise functions, correct rounding and
bivariate polynomials.

Modules here import only each other and :mod:`symbolic_noise.errors`.
"""
