"""Proofs about 1-pile Nim through the binary channel far beyond the exact
solver: enclosures over boxes of p (:mod:`symbolic_noise.solvers.boxes`) plus
exact arguments where moves tie, each verdict a certificate (docs/hybrid.md).

:mod:`.take_all`
    taking the whole pile is optimal for p <= 1/2 and N_k >= 1/2 there, for
    every heap k <= K (the paper's Conjecture 9), by a fixed-strategy induction.
:mod:`.power_of_two`
    heaps that are powers of two: N_k >= 1/2 on [1/2, 1] with k - 1 optimal
    (the paper's Conjecture 10), and exact counterexamples.
:mod:`.fairness`
    the fairness threshold p0(k) enclosed for many heaps on shared boxes.
:mod:`.certificates`
    the certificate kinds, single-heap fairness and counterexamples, and
    :func:`~.certificates.verify_hybrid`, which re-derives every verdict from
    the game it rebuilds.
:mod:`.fileformat`
    the file format ``symbolic-noise.hybrid/2``: its fields, caps, cost
    estimate and capped reader.
"""
