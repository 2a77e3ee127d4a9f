"""Solvers: the exact piecewise solver and its Solution, the fast exact engine
at one p, the slow reference evaluation, per-player channels and strategies,
parallel and distributed runs, and the solution cache with its codec.
"""
