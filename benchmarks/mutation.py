"""Mutation testing of the exact core, channel validation and the one-p engine
(not run in CI): do the tests fail when the code is wrong?

    python benchmarks/mutation.py                          # the default modules
    python benchmarks/mutation.py symbolic_noise/analysis/certificates.py symbolic_noise/solvers/storage/cache.py
    python benchmarks/mutation.py --report-only            # rewrite the report from the last runs

Needs the ``mutation`` extra (``pip install .[mutation]``: mutmut).  For each
module the script copies ``symbolic_noise/``, ``tests/`` and ``pyproject.toml``
into ``<workdir>/<module>/``, writes a ``[tool.mutmut]`` section there that
mutates that one module and selects the tests of :data:`TESTS` (plus the
module's own doctests), drops ``-n 2`` from pytest's options, and runs
``mutmut run --max-children 1`` (one worker: the machine is shared).  It then
reads every mutant's status and, for each survivor, its diff, and writes
``benchmarks/mutation_report.md``: per module the counts (total, killed,
timeout, equivalent, survived, not covered) and every mutant that is not
killed, with the argument of :data:`EQUIVALENT` when it has one.  A mutant is
named by a stable description (the function and the mutated line before and
after), so the arguments survive a re-run even when mutmut renumbers.

The mutated copy is the one the tests import: mutmut puts ``mutants/`` first
on ``sys.path`` and removes the working directory, and before mutating it runs
the tests once with every mutated function forced to raise (its "forced fail
test"); a selection that imported the pip-installed package instead would pass
that run, and mutmut stops.  The script checks the same thing itself
(:func:`check_import`) before each module.

Which tool, measured on ``exact/algebraic.py`` (2026-11-28, 2 shared cores,
load 2-6 from other jobs):

* **mutmut 3.8** -- 1,117 mutants; copes with the package layout with four
  lines of config, collects the doctests of the mutated module, runs each
  mutant in a fork of one warmed-up process and only the tests that reach the
  mutated function (from a coverage pass): about 730 mutants in the first 45
  minutes, 0.27 mutants/s, most of the time in survivors running their whole
  selection and in time-outs (mutations that make a refinement loop spin).
* **cosmic-ray 8.7** -- 2,119 mutants (each comparison replaced by every other
  one); it mutates the file in place (an interrupted run leaves a mutant in
  the tree, which it did in the trial) and starts a fresh pytest process per
  mutant: 5 mutants in 150 s, 0.03 mutants/s, about 20 hours for this module.

So mutmut, by an order of magnitude, and nothing to undo after a kill.

Conventions of the counts:

* a time-out counts as detected (the mutant made a test hang: the suite would
  fail on it); it is listed on its own;
* statements that start with ``raise`` are not mutated (``do_not_mutate_patterns``):
  mutmut's mutants there only change the text of an error message; the
  conditions that decide whether to raise are mutated like any other line;
* "not covered" mutants are in functions that no selected test reaches; they
  count as survivors until a test reaches them.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: the tests that cover each module (the module's own doctests are added)
TESTS = {
    "symbolic_noise/solvers/maps/taylorbox.py": ["tests/test_maps.py"],
    "symbolic_noise/solvers/maps/enclose.py": ["tests/test_maps.py"],
    "symbolic_noise/solvers/maps/nimkernel.py": ["tests/test_maps_nimkernel.py"],
    "symbolic_noise/exact/algebraic.py": ["tests/test_algebraic.py", "tests/test_algebraic_edges.py"],
    "symbolic_noise/games/channels.py": ["tests/test_channels.py", "tests/test_extra_channels.py"],
    "symbolic_noise/games/extra_channels.py": ["tests/test_extra_channels.py"],
    "symbolic_noise/solvers/onepoint/fastpoint.py": ["tests/test_fastpoint.py"],
    "symbolic_noise/solvers/onepoint/pointwise.py": ["tests/test_pointwise.py", "tests/test_fastpoint.py"],
    "symbolic_noise/analysis/certificates.py": ["tests/test_certificates.py", "tests/test_certificate_forgery.py"],
    "symbolic_noise/analysis/bellman.py": ["tests/test_bellman.py"],
    "symbolic_noise/solvers/storage/cache.py": ["tests/test_cache.py"],
}

DEFAULT_MODULES = [
    "symbolic_noise/exact/algebraic.py",
    "symbolic_noise/games/channels.py",
    "symbolic_noise/solvers/onepoint/fastpoint.py",
    "symbolic_noise/solvers/onepoint/pointwise.py",
]

#: a larger scale 2^E in simplest_dyadic
_LARGER_E = ("a larger E (never a smaller one) scales the same open interval by a larger power of 2: the run of integers"
             " inside is longer, and its member with the most trailing zero bits is the same simplest dyadic, scaled")
#: arguments shared by several channels.py mutants
_SORTED = ("_canonical_json has already turned every mapping into a sorted list of pairs (and a mapping key, being"
           " hashable, is never a mapping), so json.dumps finds no dict whose keys sort_keys would order")
_WITNESS = ("the sum's witness: every candidate still lies in [a, b], and any point of [a, b] where the sum is not 1"
            " is a correct witness (what the error promises, and what test_a_sum_witness_is_a_point_where_the_sum_is_not_1"
            " checks); the mutant only changes which one is tried first, or, for a row whose sum minus 1 has more roots"
            " than there are candidates, whether one is found at all")
_NO_POLE = ("a ZeroDivisionError cannot happen there: the candidates lie in [a, b] and a pole in [a, b] was reported"
            " before the sums are checked, so breaking instead of continuing never runs")
_BASE_CHECK = ("Channel.check validates only untrusted channels, and every untrusted channel of the package"
               " (CustomChannel, FixedChannel) overrides check(): this line never runs")

#: arguments shared by several cache.py mutants
_SQL_CASE = ("SQLite reads keywords, table and column names, pragma names and their values without regard to case:"
             " the statement is the same statement")
_JSON_TUPLE = ("json.dumps writes a tuple as a JSON array, the list plain() would make of it: the key text is the same")
_NO_MAPPING = ("the key separator of json.dumps is written only inside a JSON object, and a position is an int or"
               " nested tuples of ints (hashable, so never a mapping): the key text is the same")
_ONE_PIECE = ("a PiecewiseFunction has at least one piece (a formula), so max() never reaches its default")
_NONE_IS_NONE = "None if key is None else key is key in both branches: the expression is key"
_UTF8 = "Python's codec lookup ignores case: 'UTF-8' and 'utf-8' are the same codec"
_AUTOCOMMIT = ("without isolation_level=None the sqlite3 module (Python 3.11) opens a transaction implicitly only"
               " before INSERT, UPDATE, DELETE or REPLACE when none is open; every such statement here runs inside"
               " the explicit BEGIN IMMEDIATE ... COMMIT/ROLLBACK of _transaction, so no implicit one is ever opened")
_TRUSTED = ("an untrusted decode of a plain load (verify=False) re-checks the isolating intervals and canonical"
            " formulas of an entry whose checksum matched: for every entry the cache wrote the checks pass and the"
            " value is the same; they differ only on an entry forged with a recomputed checksum, which a plain"
            " load does not promise to catch (the module docstring: that is verify=True's job)")
_FOLLOWER_LABELS = ("the labels of a terminal follower's constant are never read: check_position proves the labels of"
                    " the position itself and reads only its followers' breakpoints and formulas")
_ONE_STATEMENT = ("each transaction holds one statement (one INSERT or one DELETE); when it raises, SQLite has undone"
                  " that statement already, so COMMIT of the empty transaction leaves the same file as ROLLBACK")

#: arguments shared by several bellman.py mutants
_TRY_ORDER = ("the order in which _identity tries the moves (the previous cell's, the label's, then all of them):"
              " every move is tried until one satisfies the identity, and a move that does satisfies it on the whole"
              " cell, so the verdict is the same; a move tried twice only costs time")
_SHORTCUT = ("the identity of the increments is a shortcut: when it answers False the full identity of the cell is"
             " tried, so answering False more often (more terms counted, or a zero term kept: psi(w, x) = 0 or an"
             " unchanged follower adds 0 to the sum) changes the work and the report's statistics, not the verdict")
_FIRST_CELL = ("run_w is None only on a position's first cell, and changed is None exactly there: `run_w is None and"
               " changed is not None` is never true, as `run_w is not None and changed is not None` is never true"
               " on the first cell (an empty `changed` there instead of None meets run_w is None the same way)")
_EMPTY_NEAR = "near is the empty set just before: near |= X and near = X give the same set"
_NONEMPTY_ROW = ("sum() starting from the int 0 instead of fmpq(0): a row is never empty (a non-terminal position has"
                 " a follower), so the first product is an fmpq and the sum is the same fmpq")
_LABELS_SET = ("_end_tie is called only when the labels are checked (label is not None), and then _prepare_labels has"
               " set point_index: hasattr is always true there")
_NO_POINT_CELL = ("_fail is called on cells, and a cell joins two distinct ranks of the ranked breakpoints (a degenerate"
                  " interval has one rank and no cell): x is never y, and the `at p =` branch never runs")
_PREC = ("working precision of certified balls: a ball holds the exact value at any precision, and the enclosure"
         " settles a pair only when its certified margin is positive (the exact test settles the rest): same verdict")
_CACHE_BYPASS = ("the cache of a follower's ball at t is bypassed: the ball is computed again from the same formula"
                 " at the same t, equal to the cached one")
_HINTS = ("which moves are hinted to tie (identity tested first, left out of the enclosure): with labels checked the"
          " label passed is f.labels[own] and self._piece is own, so members and the hints from f.labels are the same"
          " set; without labels the hints are a shortcut, and a hinted move that does not tie is tested like any other"
          " (todo), so fewer hints change the work, not the verdict")
_DEN_SIGN = ("the denominator's sign at t, a point inside the cell where every row of psi and every formula is"
             " defined: it is -1 or 1, so < 1 and <= 0 are < 0 there")
_CELL_ENDS = ("a cell's ends are distinct (x < y: cells join two distinct ranks), so x.compare(y) is never 0; compare()"
              " returns -1, 0 or 1, so >= 1 is > 0, and replacing an end equal to the clamp by the clamp changes nothing")
_BELLMAN_WITNESS = ("the candidates of check_optimal's witness: each is kept only if it lies in [x, y] and the claim"
                    " fails there, so any witness returned is a correct one (what the docstring promises and"
                    " test_check_optimal_against_backward_induction checks); the mutant only changes which candidates"
                    " are tried and in what order, so which witness is found, or whether one is (the contract allows"
                    " None: a claim may fail only at an irrational point)")
_NO_POINT = ("_nonneg_on and _enclose are called on cells (x < y), and check_optimal clamps a cell to [lo, hi] with"
             " lo < hi (lo == hi is answered before) so that max(x, lo) < min(y, hi): x.compare(y) is -1, the"
             " single-point branch never runs and == 1 is as false as == 0")
_ANY_MULTIPLE = ("L only has to be a common multiple of the followers' denominators (the identities cross-multiply by"
                 " it): a larger multiple, or exact fmpz_poly division (/ of an exact quotient), gives the same verdicts")
_COMMON_CACHE = ("the cache of _Common by the followers' formulas: bypassed, or evicted at 256 or 257 entries, the"
                 " same _Common is computed again from the same formulas")
_CONSERVATIVE = ("the enclosure settles a move only when its certified margin is positive, and every move it leaves"
                 " goes to the exact test: a mutant that only makes it leave more moves (a wider variation bound,"
                 " fewer or other halvings, splitting moves it had settled) changes the work, not the verdict")
_LAST_RANK = ("ranks[-1] (of N_u, or of a follower's value) is the rank of b, above every cell's start r0, so the"
              " index stops at len(ranks) - 2 whatever the bound on index + 1 (< len - 1, <= len - 1, < len + 1, or"
              " index - 1 < len - 1)")
_MORE_BOXES = ("the sub-boxes whose bounds are taken over [lo, hi] (a cell's hull, lo < hi): a slice that starts"
               " earlier, ends later or covers all 64 takes the max (min) over more boxes, a looser bound, so fewer"
               " pairs settled and the rest go to the exact test; the w == 0 branch is for a = b, which has no cell")
#: arguments shared by several fastpoint.py mutants
_FP_PREC = ("the precision of ball mode (prec + 1 bits, or at least 54 bits instead of 53): every ball still holds"
            " the exact value, and an optimal set is still reported only when the balls separate the moves: what"
            " ball mode promises (the tests check containment, never a radius)")
_UNREAD_PAD = ("the padding of the king/rook grids: entries outside the board's squares are zeros that no"
               " neighbour sum of a square reads as a legal neighbour, and the extra last column of HX/HL is never read")
_SYMMETRIC_STEPS = ("the king's and the rook's steps are symmetric: negating di (or dj) in every step gives the same"
                    " set of steps, so the same neighbours")
_NOT_RETURNED = ("every position's move values are kept, but point_solve returns the root's only (move_values is"
                 " empty for the other positions): the answers are the same")
_AFTER_BREAK = "the loop leaves at k == K (break): a range that goes one further never reaches its last value"
_LONGER_TABLE = ("a longer table of popcounts or weights: the entries read (codes < 2^n, distances <= n) are the same")
_SELF_TIE = ("comparing As[0]/Gs[0] with itself adds index 0 again to the optimal list: point_solve turns the"
             " indices into a frozenset of move names, the same set")
_EXACT_DIV = ("fmpz / fmpz of an exact quotient is that quotient (python-flint raises otherwise): g divides den,"
              " and D (a multiple of lcm(D, den)) is a multiple of den")
_SCALE_ONE = "A * 1 + B is A + B"
_FMPQ_OF_FMPQ = "fmpq(q) of an fmpq q is q"
_EXACT_ENDS = ("the lower ends of the balls are exact numbers (radius 0), which arb compares exactly: max() with"
               " arb's own order, or BallKey's < or <=, picks a ball of the same (largest) value")
_LEX_ORDER = ("lexicographic order of Young diagrams is also followers first: a bite leaves the rows above it"
              " unchanged and shortens (or removes) its own row, a smaller tuple")
_SAME_RANGE = "range(0, n) and range(n) are the same range"
_UNUSED_ARGS = "_uniform reads only xs (the mean of the followers' 1 - N): its other arguments are never read"
_SUM_IS_DEN = ("a row of psi sums to 1, so its numerators sum to its denominator: a denominator of degree 1 comes"
               " with a numerator of degree >= 1, which the second test catches; an invalid row is refused by"
               " channel.check either way")

_FP_ROUTE = ("which engine answers: the generic engine (the channel's exact psi at p times the followers' vector)"
             " gives the same exact numbers as the sparse Chomp sums or the inlined followers; in ball mode its balls"
             " differ in width only, and still hold the exact values, with an optimal set only when the balls"
             " separate the moves: what ball mode promises")
_FROM_START = ("the positions reachable from the game's start instead of from root: root is a position of the game"
               " (check_position), reachable from the start, so every position below root is among them and gets"
               " the same value; the others only cost time (and solve_constant's None only sends the caller to the"
               " piecewise engine, which gives the same solution)")
_EARLY_WIDEN = ("the codes widened one heap early (or kept one digit wider than the heaps need: `>=` widens at the"
                " first heap of each width, once, and then n stays one ahead): for every processed heap r < 2^n the new codes s + 2^n are one"
                " digit farther (p = 1: far + 1 with the same sums and counts), or their running sums gain the factor"
                " c = 1 - p of the matching leading 0 in both A and G (0 < p < 1), whose ratio is what is read: the"
                " values are the same")
_WIDEN_G = "_widen never reads its G argument (G is widened beside it, in the same tuple)"
_TRUSTED_BASE = ("uniform and identity channels are inspected instead of trusted: their rows are constant and"
                 " validate, so the answer is True either way; binary and neighbour rows have a non-constant entry,"
                 " so it is False either way")
#: arguments shared by several certificates.py mutants
_SET_ORDER = ("the order in which an optimal set's moves are printed: Statement.parse of either text gives the same"
              " frozenset, so the statement (and what verify re-derives from it) is the same")
_AT_POINT = "_allowed never reads its third argument (at_point): the sign alone decides"
_UNIQ = ("a breakpoint equal to lo or hi joins the cuts [lo, hi] and is dropped again by the loop that keeps one of"
         " each equal neighbour (uniq): the pieces are the same")
_HOLDS_ONLY = ("verify_document reads only .holds of this check: _One.value ignores its argument, the position is only"
               " recorded in the certificate, and full= only decides whether the pieces keep their formulas")
_ONE_CHECK = ("the need == 'zero' branch is an equality statement's, whose list of checks has one element: leaving the"
              " loop (break) or going to its end (continue) is the same")

_ONE_MEMBER = ("for an 'optimal M' statement members is [M] and the loop skips w == M, so 'w not in members' is true"
               " for every other move: the need is 'nonneg' either way")
_HEAD = ("which member of an optimal set is compared with the others first: every member must tie with it and every"
         " other move must lie below it, which holds for one member exactly when it holds for any (ties are"
         " transitive); only the names in a counterexample can change")

_SIGN_ONLY = ("single_root_between reads these results only through their sign (w >= 0, w <= 0, w == 0, at <= 0,"
              " at == 0, above >= 0): -2 is read as -1, and 2 as 1")
_MULTIPLE = ("a rational end whose denominator is exactly 2^m is a multiple of 2^-m, which floor/ceil at scale 2^m"
             " return unchanged")

_SHARED = ("the table that shares one object per breakpoint text among the values of a document: without it (or"
           " with decode reading the points' text instead of their index in it) every value's breakpoints are decoded"
           " again from the same text, equal numbers; only the sharing (memory) is lost")
_DIGITS = "every call of _counter passes digits: its default is never used"

#: arguments shared by several algebraic.py mutants (2026-11-29, fifth session)
_FLOAT_WIDTH = ("__float__ returns only when both ends of an enclosure of the number round to the same double (with the"
                " same sign), and rounding is monotone, so that double is the number's nearest one, which is unique (an"
                " irrational number is never a tie; a rational one has lo == hi and returns at once): the first width"
                " and the factor by which it shrinks (any positive ones, each round narrowing towards 0, so the loop"
                " ends) change how many rounds it takes and how far the interval is left refined, not the double")
_NOT_EQUAL_HERE = "this branch is the one where lo != hi (lo == hi is the branch above): there lo <= hi is lo < hi"
_TRUSTED_ISOLATION = ("_from_isolation is the constructor for intervals isolate_real_roots produced (or a cache entry of"
                      " our own process: codec's trusted decoding), with slo, when given, the sign of poly at lo; every"
                      " such poly is square-free, primitive and of positive leading coefficient (sqf_part's, or a"
                      " quotient of two such by a rational root's linear factor), which sqf_part leaves unchanged, the"
                      " checks of the untrusted path pass, and sign_at(poly, lo) is slo: the same polynomial, interval"
                      " and lower sign")
_TRUSTED_RATIONAL = ("rational() passes lo == hi == q and linear_factor(q): the untrusted path checks degree 1 >= 1 and"
                     " f(q) == 0 (both true) and sets poly = linear_factor(q), the same polynomial")
_END_SIGN = ("q equal to the end lo (hi) of the interval: the exact sign of poly there is lower_sign (at hi its opposite,"
             " as poly has one simple root inside and none at the ends), so the mutant sets lo = q (hi = q), which it"
             " already is, and returns the same 1 (-1)")
_NONZERO_LEAD = ("the leading coefficient of a polynomial of degree >= 1 (the test before `or` has ruled out the others)"
                 " is a non-zero integer: < 1, <= 0 and < 0 are the same test")
_FALSY = "`not checked` is true for None as for False"
_GCD_AGAIN = ("the gcd test is then made at every round instead of once: g is the same polynomial, and it divides both"
              " defining polynomials, so it has at most one root in each isolating interval (each holds one simple"
              " root of its polynomial and none at its ends); whether g changes sign on both intervals stays the same"
              " as they shrink around the numbers, so common is the same")
_TOUCHING = ("intervals that touch at an end t (both numbers irrational here; t is a root of neither polynomial): the"
             " numbers lie on either side of t and the mutant, instead of answering, refines both once more (a"
             " number that turns out rational is compared again exactly); the refinements shrink each interval"
             " towards its own number, so the intervals come apart and the same answer is given; `common` answers 0"
             " only when the hull holds one root of the common factor, never for two distinct numbers")
_ONE_RATIONAL = ("when just one of the two has turned out rational (q), the mutant stays in the loop instead of comparing"
                 " exactly: refine() of q does nothing, the other interval shrinks towards its number, which is not q"
                 " (an irrational number, or a rational one that would have collapsed), until q is outside it or one of"
                 " its ends, where the first two tests answer; `common` answers 0 only for one root of the common"
                 " factor, the same number: the same answer")
_MORE_DIGITS = ("the first number of digits (51 instead of 50) or its growth (tripled instead of doubled): every"
                " approximation is within 10^-digits (relative) of the number, 10^5 times inside slack, so the number's"
                " candidate is always near, and the loop returns the only near candidate, the number")
_AT_SLACK = ("a candidate whose isolating interval ends exactly `slack` away from the target (target == lo - slack or"
             " hi + slack) holds a root farther than slack from the target, farther than the approximation's error"
             " (10^-digits relative, 10^5 times below slack): never the number; dropping it (the mutant) or keeping it"
             " (one more candidate near: more digits, until it is no longer near) returns the same root")
_WIDER_SLACK = ("a slack 2 or 10 times wider: still far above the approximation's error (10^-digits relative), so the"
                " number's candidate is still near; the loop returns the only near candidate (after more rounds at"
                " most), the number")
_POINT_NARROW = ("lo == hi then passes the first test but not the second: the signs of poly at lo and hi are the same"
                 " sign, so ValueError is raised as before (with the second message)")
_OVERFLOW_SIGN = ("float(q) overflows only for |q| above the largest double (about 1.8e308), where q > 0, q > 1 and"
                  " q >= 0 agree")
_HINTS_TIME = ("with hints=None the mutant passes None on and each minpoly factors without hints; the hints object made"
               " here is dropped when the function returns (nothing is returned), and hints change the time, not the"
               " minimal polynomials (FactorHints' docstring; test_factor_hints_give_the_minimal_polynomial_of_a_full_factorization)")
_AFTER_EQUAL = "c == 0 is taken by the `if` before: the elif sees c != 0, where c >= 0 is c > 0"
_AT_LO = ("t == lo: s_lo is -1 or 1 (where() reads the root's side from s == s_lo at every t inside, which needs"
          " f(lo) != 0), and sign_at(f, lo) is s_lo: where() returns 1 as the first branch does")
_AT_HI = ("t == hi: f(hi) != 0 and f has exactly one root, a simple one, in (lo, hi), so its sign at hi is -s_lo:"
          " where() returns -1 as the first branch does")
_RATIONAL_FOUND_UNREAD = ("a rational z's root is returned with w == 0 only, and then at == 0 (z is x) or above == 0 (z"
                          " is y) ends single_root_between before `found` is read")
_TIE_ORDER = ("fewer neighbouring pairs accepted as in order (or one more round): a round returns only when every"
              " neighbouring pair is proved in order, and the exact sort after the rounds sorts by exact comparison, so"
              " the items come out in increasing order of key either way; the two can differ only in the order of items"
              " whose keys are equal, which the function does not promise (equal numbers end up next to each other)")
_TOUCH_IN_ORDER = ("key(a).hi == key(b).lo means key(a) <= that end <= key(b), so key(a).compare(key(b)) <= 0 too: the"
                   " condition has the same value (compare only refines the intervals)")

#: the arguments of EQUIVALENT (one per group of mutants)
_WHY = [
    'the name of a sympy.Dummy (or a Dummy of None) is never read: minimal_polynomial and Poly only need one symbol',
    'Poly of a univariate expression infers its one generator; the minimal polynomial is in x only',
    'sympy.N with 15 (the default) or 51 digits instead of 50: the approximation only picks the candidate whose isolating interval holds it, and an interval that holds the root holds the 15-digit value unless an end lies within 1e-15 of it, which the loop then refines away',
    'an interval exactly `width` wide: the loop `while hi - lo > width` that follows does nothing either',
    'working precision of the ball evaluation only (higher, or reallocated once more): a ball decides a sign only when it excludes 0, which is certified at any precision, and the exact sign is computed otherwise, so every cut is the same',
    'one more halving when the width is met exactly: the documented contract hi - lo <= width still holds and the number stays isolated',
    'the ball branch disabled (or narrowed to balls above 1) for one sign: that sign then comes from the exact evaluation sign(poly(m)), which is the same sign',
    'a constant f then reaches the gcd (1, of degree 0) and the Bernstein sign of a non-zero constant, which is its sign',
    'eight or nine halvings between two tries of the correctly rounded decimal: the loop ends with the same correctly rounded string',
    'which of two equally wide intervals is halved first: either halving makes progress and the loop ends when the intervals are disjoint',
]

#: mutants argued equivalent: stable description -> why no test can tell
EQUIVALENT: dict[str, str] = {
    # solvers/maps/taylorbox.py (its mutants run against tests/test_maps.py)
    'follower_series: first = -der * sgn => first = -der / sgn':
        'sgn is 1 or -1, so multiplying and dividing by it (or by its powers) are the same',
    'follower_series: if own[1].is_finite() and first.is_finite(): => if own[1].is_finite() or first.is_finite():':
        "the meet of the derivative hull with the remaining move's own first coefficient is an intersection of two balls holding the same number; trying it when one is not finite, or guarding it on another coefficient, still intersects only balls that hold the number (a non-finite one leaves the other): sound",
    'follower_series: if own[1].is_finite() and first.is_finite(): => if own[2].is_finite() and first.is_finite():':
        "the meet of the derivative hull with the remaining move's own first coefficient is an intersection of two balls holding the same number; trying it when one is not finite, or guarding it on another coefficient, still intersects only balls that hold the number (a non-finite one leaves the other): sound",
    'follower_series: return [1 - value, first] + [UNKNOWN] * (len(fser[inside[0]]) - 2) => return [1 - value, first] + [UNKNOWN] * (len(fser[inside[0]]) + 2)':
        "the coefficients past the kept order are never read (move_series reads a follower's series to its own kept order only), so how many unknown ones trail is immaterial",
    'move_series: R = None if all(one) else [(mats[k] * arb_mat(m, 1, [1] * m)).entries() for k in range(top + 1)] => R = None if (all(one)) and False else [(mats[k] * arb_mat(m, 1, [1] * m)).entries() for k in range(top + 1)]':
        'R is read only for rows that do not sum to 1; making it always changes nothing read',
    'move_series: rows = range(len(num)) if rows is None else rows => rows = range(len(num)) if (rows is None) or True else rows':
        "making every move's series where only the candidates' are needed costs time and changes no ball read",
    'poly_series: return [[ds[k](P) * (sgn**k) / factorial(k) for k in range(top + 1)] for ds in layout.polys] => return [[ds[k](P) / (sgn**k) / factorial(k) for k in range(top + 1)] for ds in layout.polys]':
        'sgn is 1 or -1, so multiplying and dividing by it (or by its powers) are the same',
    'tighten: c = fm[o] + (o + 1) * f[o + 1] * dph => c = fm[o] + (o + 1) * f[o + 1] / dph':
        "tighten only meets a coefficient's ball with another ball that holds the same number (the mean-value form); skipping it for some orders, a looser factor, the sign flipped on dph (a ball symmetric about 0), a quotient by dph (a ball holding 0, so not finite and skipped) or meeting where one ball is not finite all leave balls that still hold the coefficients: sound, only wider; `f[o] = None` sits in a branch no series reaches (an order whose ball is not finite divides by a D[0] holding 0, and so does the next, so c is not finite either)",
    'tighten: c = fm[o] + (o + 1) * f[o + 1] * dph => c = fm[o] + (o + 2) * f[o + 1] * dph':
        "tighten only meets a coefficient's ball with another ball that holds the same number (the mean-value form); skipping it for some orders, a looser factor, the sign flipped on dph (a ball symmetric about 0), a quotient by dph (a ball holding 0, so not finite and skipped) or meeting where one ball is not finite all leave balls that still hold the coefficients: sound, only wider; `f[o] = None` sits in a branch no series reaches (an order whose ball is not finite divides by a D[0] holding 0, and so does the next, so c is not finite either)",
    'tighten: c = fm[o] + (o + 1) * f[o + 1] * dph => c = fm[o] - (o + 1) * f[o + 1] * dph':
        "tighten only meets a coefficient's ball with another ball that holds the same number (the mean-value form); skipping it for some orders, a looser factor, the sign flipped on dph (a ball symmetric about 0), a quotient by dph (a ball holding 0, so not finite and skipped) or meeting where one ball is not finite all leave balls that still hold the coefficients: sound, only wider; `f[o] = None` sits in a branch no series reaches (an order whose ball is not finite divides by a D[0] holding 0, and so does the next, so c is not finite either)",
    'tighten: continue => break':
        "tighten only meets a coefficient's ball with another ball that holds the same number (the mean-value form); skipping it for some orders, a looser factor, the sign flipped on dph (a ball symmetric about 0), a quotient by dph (a ball holding 0, so not finite and skipped) or meeting where one ball is not finite all leave balls that still hold the coefficients: sound, only wider; `f[o] = None` sits in a branch no series reaches (an order whose ball is not finite divides by a D[0] holding 0, and so does the next, so c is not finite either)",
    'tighten: f[o] = c => f[o] = None':
        "tighten only meets a coefficient's ball with another ball that holds the same number (the mean-value form); skipping it for some orders, a looser factor, the sign flipped on dph (a ball symmetric about 0), a quotient by dph (a ball holding 0, so not finite and skipped) or meeting where one ball is not finite all leave balls that still hold the coefficients: sound, only wider; `f[o] = None` sits in a branch no series reaches (an order whose ball is not finite divides by a D[0] holding 0, and so does the next, so c is not finite either)",
    'tighten: for o in range(len(f) - 2, 0, -1): => for o in range(0, -1):':
        "tighten only meets a coefficient's ball with another ball that holds the same number (the mean-value form); skipping it for some orders, a looser factor, the sign flipped on dph (a ball symmetric about 0), a quotient by dph (a ball holding 0, so not finite and skipped) or meeting where one ball is not finite all leave balls that still hold the coefficients: sound, only wider; `f[o] = None` sits in a branch no series reaches (an order whose ball is not finite divides by a D[0] holding 0, and so does the next, so c is not finite either)",
    'tighten: for o in range(len(f) - 2, 0, -1): => for o in range(len(f) - 2, -1):':
        "tighten only meets a coefficient's ball with another ball that holds the same number (the mean-value form); skipping it for some orders, a looser factor, the sign flipped on dph (a ball symmetric about 0), a quotient by dph (a ball holding 0, so not finite and skipped) or meeting where one ball is not finite all leave balls that still hold the coefficients: sound, only wider; `f[o] = None` sits in a branch no series reaches (an order whose ball is not finite divides by a D[0] holding 0, and so does the next, so c is not finite either)",
    'tighten: for o in range(len(f) - 2, 0, -1): => for o in range(len(f) - 2, 0, ):':
        "tighten only meets a coefficient's ball with another ball that holds the same number (the mean-value form); skipping it for some orders, a looser factor, the sign flipped on dph (a ball symmetric about 0), a quotient by dph (a ball holding 0, so not finite and skipped) or meeting where one ball is not finite all leave balls that still hold the coefficients: sound, only wider; `f[o] = None` sits in a branch no series reaches (an order whose ball is not finite divides by a D[0] holding 0, and so does the next, so c is not finite either)",
    'tighten: for o in range(len(f) - 2, 0, -1): => for o in range(len(f) - 2, 0, +1):':
        "tighten only meets a coefficient's ball with another ball that holds the same number (the mean-value form); skipping it for some orders, a looser factor, the sign flipped on dph (a ball symmetric about 0), a quotient by dph (a ball holding 0, so not finite and skipped) or meeting where one ball is not finite all leave balls that still hold the coefficients: sound, only wider; `f[o] = None` sits in a branch no series reaches (an order whose ball is not finite divides by a D[0] holding 0, and so does the next, so c is not finite either)",
    'tighten: for o in range(len(f) - 2, 0, -1): => for o in range(len(f) - 2, 0, -2):':
        "tighten only meets a coefficient's ball with another ball that holds the same number (the mean-value form); skipping it for some orders, a looser factor, the sign flipped on dph (a ball symmetric about 0), a quotient by dph (a ball holding 0, so not finite and skipped) or meeting where one ball is not finite all leave balls that still hold the coefficients: sound, only wider; `f[o] = None` sits in a branch no series reaches (an order whose ball is not finite divides by a D[0] holding 0, and so does the next, so c is not finite either)",
    'tighten: for o in range(len(f) - 2, 0, -1): => for o in range(len(f) - 2, 1, -1):':
        "tighten only meets a coefficient's ball with another ball that holds the same number (the mean-value form); skipping it for some orders, a looser factor, the sign flipped on dph (a ball symmetric about 0), a quotient by dph (a ball holding 0, so not finite and skipped) or meeting where one ball is not finite all leave balls that still hold the coefficients: sound, only wider; `f[o] = None` sits in a branch no series reaches (an order whose ball is not finite divides by a D[0] holding 0, and so does the next, so c is not finite either)",
    'tighten: for o in range(len(f) - 2, 0, -1): => for o in range(len(f) - 3, 0, -1):':
        "tighten only meets a coefficient's ball with another ball that holds the same number (the mean-value form); skipping it for some orders, a looser factor, the sign flipped on dph (a ball symmetric about 0), a quotient by dph (a ball holding 0, so not finite and skipped) or meeting where one ball is not finite all leave balls that still hold the coefficients: sound, only wider; `f[o] = None` sits in a branch no series reaches (an order whose ball is not finite divides by a D[0] holding 0, and so does the next, so c is not finite either)",
    'tighten: if c.is_finite() and f[o].is_finite(): => if c.is_finite() or f[o].is_finite():':
        "tighten only meets a coefficient's ball with another ball that holds the same number (the mean-value form); skipping it for some orders, a looser factor, the sign flipped on dph (a ball symmetric about 0), a quotient by dph (a ball holding 0, so not finite and skipped) or meeting where one ball is not finite all leave balls that still hold the coefficients: sound, only wider; `f[o] = None` sits in a branch no series reaches (an order whose ball is not finite divides by a D[0] holding 0, and so does the next, so c is not finite either)",
    # algebraic.py, from the second run
    'RealAlgebraic.to_mpmath: def def(self, prec: int = 53): => def def(self, prec: int = 54):':
        'to_mpmath promises a value within 2^-prec (relative to max(1, |x|)); these enclose the number at least as tightly (2^-(prec+3) at the coarsest) and round at 10 or more guard bits, so the promise holds',
    'RealAlgebraic.to_mpmath: lo, hi = self.enclosure(fmpq(1, 2 ** (prec + 4))) => lo, hi = self.enclosure(fmpq(2, 2 ** (prec + 4)))':
        'to_mpmath promises a value within 2^-prec (relative to max(1, |x|)); these enclose the number at least as tightly (2^-(prec+3) at the coarsest) and round at 10 or more guard bits, so the promise holds',
    'RealAlgebraic.to_mpmath: lo, hi = self.enclosure(fmpq(1, 2 ** (prec + 4))) => lo, hi = self.enclosure(fmpq(1, 3 ** (prec + 4)))':
        'to_mpmath promises a value within 2^-prec (relative to max(1, |x|)); these enclose the number at least as tightly (2^-(prec+3) at the coarsest) and round at 10 or more guard bits, so the promise holds',
    'RealAlgebraic.to_mpmath: lo, hi = self.enclosure(fmpq(1, 2 ** (prec + 4))) => lo, hi = self.enclosure(fmpq(1, 2 ** (prec + 5)))':
        'to_mpmath promises a value within 2^-prec (relative to max(1, |x|)); these enclose the number at least as tightly (2^-(prec+3) at the coarsest) and round at 10 or more guard bits, so the promise holds',
    'RealAlgebraic.to_mpmath: with mpmath.workprec(prec + 10): => with mpmath.workprec(prec + 11):':
        'to_mpmath promises a value within 2^-prec (relative to max(1, |x|)); these enclose the number at least as tightly (2^-(prec+3) at the coarsest) and round at 10 or more guard bits, so the promise holds',
    'simplest_dyadic: E = max(0, int(gap.q).bit_length() - int(gap.p).bit_length() + 3) => E = max(1, int(gap.q).bit_length() - int(gap.p).bit_length() + 3)':
        _LARGER_E,
    'simplest_dyadic: E = max(0, int(gap.q).bit_length() - int(gap.p).bit_length() + 3) => E = max(0, int(gap.q).bit_length() + int(gap.p).bit_length() + 3)':
        _LARGER_E,
    'simplest_dyadic: E = max(0, int(gap.q).bit_length() - int(gap.p).bit_length() + 3) => E = max(0, int(gap.q).bit_length() - int(gap.p).bit_length() + 4)':
        _LARGER_E,
    'simplest_dyadic: t = a => t = None':
        "the branch a == b is dead: with 2^-E < (v - u)/4 the integers strictly inside (u 2^E, v 2^E) are at least two (the comment's run of length >= 2), so a < b always",
    'rational_between: return simplest_dyadic(u, u + (w - u) / 8 if near_left else w) => return simplest_dyadic(u, u + (w - u) / 9 if near_left else w)':
        'near_left promises a rational in the first eighth of the gap; the first ninth is inside the first eighth, and the rational is still strictly between x and y',
    # certificates.py (2026-11-28)
    'Statement.text: return "optimal-set {" + ", ".join(_move_text(m) for m in sorted(self.value, key=repr)) + "} " + where => return "optimal-set {" + ", ".join(_move_text(m) for m in sorted(self.value, )) + "} " + where':
        _SET_ORDER,
    'Statement.text: return "optimal-set {" + ", ".join(_move_text(m) for m in sorted(self.value, key=repr)) + "} " + where => return "optimal-set {" + ", ".join(_move_text(m) for m in sorted(self.value, key=None)) + "} " + where':
        _SET_ORDER,
    '_analyse: s = polys.bernstein_sign(g, outer_lo, outer_hi) => s = None':
        "the Bernstein branch is a shortcut: without it the general path finds no root of g strictly inside (g has the"
        " sign s on the open hull), one stretch sampled at the same rational_between(lo, hi) with the same sign, and"
        " the exact signs at the ends, which end_sign gives too; the verdict and the reason are the same",
    '_claim: if not _allowed(need, an["ends"][0], True): => if not _allowed(need, an["ends"][0], False):': _AT_POINT,
    '_claim: if not _allowed(need, an["ends"][0], True): => if not _allowed(need, an["ends"][0], None):': _AT_POINT,
    '_claim: if not _allowed(need, an["ends"][1], True): => if not _allowed(need, an["ends"][1], False):': _AT_POINT,
    '_claim: if not _allowed(need, an["ends"][1], True): => if not _allowed(need, an["ends"][1], None):': _AT_POINT,
    '_claim: if not _allowed(need, s, False): => if not _allowed(need, s, None):': _AT_POINT,
    '_claim: if not _allowed(need, s, False): => if not _allowed(need, s, True):': _AT_POINT,
    '_refine: if x.compare(lo) > 0 and x.compare(hi) < 0: => if x.compare(lo) > 0 and x.compare(hi) < 1:': _UNIQ,
    '_refine: if x.compare(lo) > 0 and x.compare(hi) < 0: => if x.compare(lo) > 0 and x.compare(hi) <= 0:': _UNIQ,
    '_refine: if x.compare(lo) > 0 and x.compare(hi) < 0: => if x.compare(lo) >= 0 and x.compare(hi) < 0:': _UNIQ,
    '_value_statement: return check(_One(f), st, v, full=False).holds => return check(_One(f), st, None, full=False).holds': _HOLDS_ONLY,
    '_value_statement: return check(_One(f), st, v, full=False).holds => return check(_One(f), st, full=False).holds': _HOLDS_ONLY,
    '_value_statement: return check(_One(f), st, v, full=False).holds => return check(_One(f), st, v, ).holds': _HOLDS_ONLY,
    '_value_statement: return check(_One(f), st, v, full=False).holds => return check(_One(f), st, v, full=None).holds': _HOLDS_ONLY,
    '_value_statement: return check(_One(f), st, v, full=False).holds => return check(_One(f), st, v, full=True).holds': _HOLDS_ONLY,
    '_value_statement: self.start = v => self.start = None': _HOLDS_ONLY,
    'check: continue => break': _ONE_CHECK,
    'check: continue => break #2': _ONE_CHECK,
    'check: if st.kind == "optimal" or w not in members: => if st.kind == "OPTIMAL" or w not in members:': _ONE_MEMBER,
    'check: if st.kind == "optimal" or w not in members: => if st.kind == "XXoptimalXX" or w not in members:': _ONE_MEMBER,
    'check: members = sorted(st.value, key=repr) => members = sorted(st.value, )': _HEAD,
    'check: members = sorted(st.value, key=repr) => members = sorted(st.value, key=None)': _HEAD,
    'check: for _ in range(64): => for _ in range(65):':
        "the search stops at the first of its distinct rationals where g != 0; g is a non-zero polynomial, so at most"
        " deg g of them are roots, and the formulas of a value never have 64 rational roots in one piece: the 65th try"
        " is never reached",
    # algebraic.py, argued after the fresh run of 2026-11-29 (fifth session)
    'RealAlgebraic.__float__: width = fmpq(1, 2**60) => width = fmpq(1, )':
        _FLOAT_WIDTH,
    'RealAlgebraic.__float__: width = fmpq(1, 2**60) => width = fmpq(1, 2 * 60)':
        _FLOAT_WIDTH,
    'RealAlgebraic.__float__: width = fmpq(1, 2**60) => width = fmpq(1, 2**61)':
        _FLOAT_WIDTH,
    'RealAlgebraic.__float__: width = fmpq(1, 2**60) => width = fmpq(1, 3**60)':
        _FLOAT_WIDTH,
    'RealAlgebraic.__float__: width = fmpq(1, 2**60) => width = fmpq(2**60)':
        _FLOAT_WIDTH,
    'RealAlgebraic.__float__: width = fmpq(1, 2**60) => width = fmpq(2, 2**60)':
        _FLOAT_WIDTH,
    'RealAlgebraic.__float__: width = fmpq(gap.numerator, gap.denominator * 2**32) => width = fmpq(gap.numerator, gap.denominator * 2 * 32)':
        _FLOAT_WIDTH,
    'RealAlgebraic.__float__: width = fmpq(gap.numerator, gap.denominator * 2**32) => width = fmpq(gap.numerator, gap.denominator * 2**33)':
        _FLOAT_WIDTH,
    'RealAlgebraic.__float__: width = fmpq(gap.numerator, gap.denominator * 2**32) => width = fmpq(gap.numerator, gap.denominator * 3**32)':
        _FLOAT_WIDTH,
    'RealAlgebraic.__init__: if not lo < hi: => if not lo <= hi:':
        _NOT_EQUAL_HERE,
    'RealAlgebraic._from_isolation: return cls(poly, lo, hi, _trusted=True, _slo=slo) => return cls(poly, lo, hi, _slo=slo)':
        _TRUSTED_ISOLATION,
    'RealAlgebraic._from_isolation: return cls(poly, lo, hi, _trusted=True, _slo=slo) => return cls(poly, lo, hi, _trusted=False, _slo=slo)':
        _TRUSTED_ISOLATION,
    'RealAlgebraic._from_isolation: return cls(poly, lo, hi, _trusted=True, _slo=slo) => return cls(poly, lo, hi, _trusted=None, _slo=slo)':
        _TRUSTED_ISOLATION,
    'RealAlgebraic._from_isolation: return cls(poly, lo, hi, _trusted=True, _slo=slo) => return cls(poly, lo, hi, _trusted=True, )':
        _TRUSTED_ISOLATION,
    'RealAlgebraic._from_isolation: return cls(poly, lo, hi, _trusted=True, _slo=slo) => return cls(poly, lo, hi, _trusted=True, _slo=None)':
        _TRUSTED_ISOLATION,
    'RealAlgebraic._separate: if q <= self._lo: => if q < self._lo:':
        _END_SIGN,
    'RealAlgebraic._separate: if q >= self._hi: => if q > self._hi:':
        _END_SIGN,
    'RealAlgebraic.adopt_minpoly: if m.degree() < 1 or polys.primitive(m) != m or m.coeffs()[-1] < 0: => if m.degree() < 1 or polys.primitive(m) != m or m.coeffs()[-1] < 1:':
        _NONZERO_LEAD,
    'RealAlgebraic.adopt_minpoly: if m.degree() < 1 or polys.primitive(m) != m or m.coeffs()[-1] < 0: => if m.degree() < 1 or polys.primitive(m) != m or m.coeffs()[-1] <= 0:':
        _NONZERO_LEAD,
    'RealAlgebraic.compare: checked = False => checked = None':
        _FALSY,
    'RealAlgebraic.compare: checked = True => checked = False':
        _GCD_AGAIN,
    'RealAlgebraic.compare: checked = True => checked = None':
        _GCD_AGAIN,
    'RealAlgebraic.compare: if other._hi <= self._lo: => if other._hi < self._lo:':
        _TOUCHING,
    'RealAlgebraic.compare: if self._hi <= other._lo: => if self._hi < other._lo:':
        _TOUCHING,
    'RealAlgebraic.compare: if self._lo == self._hi or other._lo == other._hi: => if self._lo == self._hi and other._lo == other._hi:':
        _ONE_RATIONAL,
    'RealAlgebraic.from_sympy: digits *= 2 => digits *= 3':
        _MORE_DIGITS,
    'RealAlgebraic.from_sympy: digits = 50 => digits = 51':
        _MORE_DIGITS,
    'RealAlgebraic.from_sympy: near = [c for c in candidates if c._lo - slack <= target <= c._hi + slack] => near = [c for c in candidates if c._lo - slack < target <= c._hi + slack]':
        _AT_SLACK,
    'RealAlgebraic.from_sympy: near = [c for c in candidates if c._lo - slack <= target <= c._hi + slack] => near = [c for c in candidates if c._lo - slack <= target < c._hi + slack]':
        _AT_SLACK,
    'RealAlgebraic.from_sympy: near = [c for c in near if c._lo - slack <= target <= c._hi + slack] => near = [c for c in near if c._lo - slack < target <= c._hi + slack]':
        _AT_SLACK,
    'RealAlgebraic.from_sympy: near = [c for c in near if c._lo - slack <= target <= c._hi + slack] => near = [c for c in near if c._lo - slack <= target < c._hi + slack]':
        _AT_SLACK,
    'RealAlgebraic.from_sympy: slack = fmpq(1, 10 ** (digits - 5)) * max(1, abs(target)) => slack = fmpq(1, 10 ** (digits - 5)) * max(2, abs(target))':
        _WIDER_SLACK,
    'RealAlgebraic.from_sympy: slack = fmpq(1, 10 ** (digits - 5)) * max(1, abs(target)) => slack = fmpq(1, 10 ** (digits - 6)) * max(1, abs(target))':
        _WIDER_SLACK,
    'RealAlgebraic.from_sympy: slack = fmpq(1, 10 ** (digits - 5)) * max(1, abs(target)) => slack = fmpq(2, 10 ** (digits - 5)) * max(1, abs(target))':
        _WIDER_SLACK,
    'RealAlgebraic.narrow_to: if not self._lo <= lo < hi <= self._hi: => if not self._lo <= lo <= hi <= self._hi:':
        _POINT_NARROW,
    'RealAlgebraic.rational: return cls(polys.linear_factor(q), q, q, _trusted=True) => return cls(polys.linear_factor(q), q, q, )':
        _TRUSTED_RATIONAL,
    'RealAlgebraic.rational: return cls(polys.linear_factor(q), q, q, _trusted=True) => return cls(polys.linear_factor(q), q, q, _trusted=False)':
        _TRUSTED_RATIONAL,
    'RealAlgebraic.rational: return cls(polys.linear_factor(q), q, q, _trusted=True) => return cls(polys.linear_factor(q), q, q, _trusted=None)':
        _TRUSTED_RATIONAL,
    'RealAlgebraic.refine_to: ball_poly = arb_poly(coeffs) => ball_poly = arb_poly(None)':
        _WHY[6],
    'RealAlgebraic.refine_to: coeffs = self._poly.coeffs() => coeffs = None':
        _WHY[6],
    'RealAlgebraic.refine_to: need = base + 2 * max(int(m.q).bit_length(), int(abs(m.p)).bit_length()) => need = base + 2 / max(int(m.q).bit_length(), int(abs(m.p)).bit_length())':
        _WHY[4],
    '_round_to_double: return math.inf if q > 0 else -math.inf => return math.inf if q > 1 else -math.inf':
        _OVERFLOW_SIGN,
    '_round_to_double: return math.inf if q > 0 else -math.inf => return math.inf if q >= 0 else -math.inf':
        _OVERFLOW_SIGN,
    'minimal_polynomials: hints = FactorHints() if hints is None else hints => hints = FactorHints() if (hints is None) and False else hints':
        _HINTS_TIME,
    'roots_between: elif c > 0 and r.compare(y) < 0: => elif c >= 0 and r.compare(y) < 0:':
        _AFTER_EQUAL,
    'single_root_between: if t <= lo: => if t < lo:':
        _AT_LO,
    'single_root_between: if t >= hi: => if t > hi:':
        _AT_HI,
    'single_root_between: return 0 if s == 0 else (1 if s == s_lo else -1) => return 0 if s == 0 else (2 if s == s_lo else -1)':
        _SIGN_ONLY,
    'single_root_between: return 1 => return 2':
        _SIGN_ONLY,
    'single_root_between: return 1, (b if w == 0 else None) => return 2, (b if w == 0 else None)':
        _SIGN_ONLY,
    'single_root_between: return w, (z.lo if w == 0 else None) => return w, (z.lo if (w == 0) and False else None)':
        _RATIONAL_FOUND_UNREAD,
    "sorted_exact_by: for _ in range(8): # an exact comparison that fails leaves the pair's intervals disjoint => for _ in range(9): # an exact comparison that fails leaves the pair's intervals disjoint":
        _TIE_ORDER,
    'sorted_exact_by: if all([key(a).hi <= key(b).lo or key(a).compare(key(b)) <= 0 for a, b in zip(out, out[1:])]): => if all([key(a).hi < key(b).lo or key(a).compare(key(b)) <= 0 for a, b in zip(out, out[1:])]):':
        _TOUCH_IN_ORDER,
    'sorted_exact_by: if all([key(a).hi <= key(b).lo or key(a).compare(key(b)) <= 0 for a, b in zip(out, out[1:])]): => if all([key(a).hi <= key(b).lo and key(a).compare(key(b)) <= 0 for a, b in zip(out, out[1:])]):':
        _TIE_ORDER,
    'sorted_exact_by: if all([key(a).hi <= key(b).lo or key(a).compare(key(b)) <= 0 for a, b in zip(out, out[1:])]): => if all([key(a).hi <= key(b).lo or key(a).compare(key(b)) < 0 for a, b in zip(out, out[1:])]):':
        _TIE_ORDER,

    # algebraic.py, argued after the second run (2026-11-28, third session)
    'RealAlgebraic.short_interval: b = a + Fraction(1, scale) => b = a - Fraction(1, scale)':
        "the loop `while b < hi: b += 1/scale` that follows steps b up to the first multiple of 1/scale at or above hi;"
        " starting one step lower only adds the step to a, and a < hi for an irrational number (a <= lo < hi)",
    'RealAlgebraic.short_interval: if m(fa) != 0 and m(fb) != 0 and polys.count_real_roots(m, fa, fb) == 1: => if m(fa) != 0 and m(fb) != 0 or polys.count_real_roots(m, fa, fb) == 1:':
        "(A and B) or C differs from A and B and C only when C holds and an end is a root of m; but then [a, b] holds"
        " that root and the number itself (irrational, so not a decimal end): two roots, and C is false",
    'single_root_between: return -1 => return -2': _SIGN_ONLY,
    'single_root_between: return 0 if s == 0 else (1 if s == s_lo else -1) => return 0 if s == 0 else (1 if s == s_lo else -2)': _SIGN_ONLY,
    'single_root_between: return -1, (a if w == 0 else None) => return -2, (a if w == 0 else None)': _SIGN_ONLY,
    'dyadic_hull: ceil = (16 * int(width.q) + int(width.p) - 1) // int(width.p) => ceil = (16 * int(width.q) + int(width.p) - 2) // int(width.p)':
        "(16q + p - 2) // p equals (16q + p - 1) // p unless p divides 16q + p - 1, i.e. p = 1 (p and q coprime); then"
        " ceil is 16q - 1 instead of 16q and m = bit_length(ceil - 1) changes only if 16q - 1 is a power of 2, which"
        " an odd number > 1 is not",
    'dyadic_hull: lo = x.lo if x.lo == x.hi and x.lo.q <= scale else fmpq((x.lo * scale).floor(), scale) => lo = x.lo if x.lo == x.hi and x.lo.q < scale else fmpq((x.lo * scale).floor(), scale)':
        _MULTIPLE,
    'dyadic_hull: hi = y.hi if y.lo == y.hi and y.hi.q <= scale else fmpq((y.hi * scale).ceil(), scale) => hi = y.hi if y.lo == y.hi and y.hi.q < scale else fmpq((y.hi * scale).ceil(), scale)':
        _MULTIPLE,
    '_counter: def def(point: RealAlgebraic | fmpq, values: dict, digits: int = 20) -> dict: => def def(point: RealAlgebraic | fmpq, values: dict, digits: int = 21) -> dict:':
        _DIGITS,
    '_decode_value: f = codec.decode({**data, "points": list(range(len(objects)))}, table=dict(enumerate(objects))) => f = codec.decode({**data, "POINTS": list(range(len(objects)))}, table=dict(enumerate(objects)))':
        _SHARED,
    '_decode_value: f = codec.decode({**data, "points": list(range(len(objects)))}, table=dict(enumerate(objects))) => f = codec.decode({**data, "XXpointsXX": list(range(len(objects)))}, table=dict(enumerate(objects)))':
        _SHARED,
    '_decode_value: got = points.get(key) if isinstance(key, str) else None => got = None':
        _SHARED,
    '_decode_value: got = points.get(key) if isinstance(key, str) else None => got = points.get(None) if isinstance(key, str) else None':
        _SHARED,
    '_decode_value: got = points.get(key) if isinstance(key, str) else None => got = points.get(key) if (isinstance(key, str)) and False else None':
        _SHARED,
    '_decode_value: key = repr(sorted(x.items())) if isinstance(x, dict) else x => key = None':
        _SHARED,
    '_decode_value: key = repr(sorted(x.items())) if isinstance(x, dict) else x => key = repr(None) if isinstance(x, dict) else x':
        _SHARED,
    '_decode_value: key = repr(sorted(x.items())) if isinstance(x, dict) else x => key = repr(sorted(x.items())) if (isinstance(x, dict)) and False else x':
        _SHARED,
    '_decode_value: points[key] = got => points[key] = None':
        _SHARED,
    '_sign_numerator: return f.num if f.den(t) > 0 else -f.num => return f.num if f.den(t) >= 0 else -f.num':
        "f.den(t) == 0 never happens: t is a point of a piece (inside it, or the single point of [p, p]) where the"
        " piece's formula is defined, so its denominator is not 0 there",
    # pointwise.py
    "evaluate: moves[game.move_label(v, w)] = sum((x * y for x, y in zip(row, lose)), fmpq(0)) => "
    "moves[game.move_label(v, w)] = sum((x * y for x, y in zip(row, lose)), )":
        "sum() starting from the int 0 instead of fmpq(0): a row is never empty (a non-terminal position has a"
        " follower), so the first product is an fmpq and the sum is the same fmpq",
    # channels.py
    'CustomChannel.key: canon = json.dumps(_canonical_json(self._psi), sort_keys=True) => canon = json.dumps(_canonical_json(self._psi), sort_keys=None)':
        _SORTED,
    'CustomChannel.key: canon = json.dumps(_canonical_json(self._psi), sort_keys=True) => canon = json.dumps(_canonical_json(self._psi), )':
        _SORTED,
    'CustomChannel.key: canon = json.dumps(_canonical_json(self._psi), sort_keys=True) => canon = json.dumps(_canonical_json(self._psi), sort_keys=False)':
        _SORTED,
    '_canonical_json: return sorted((json.dumps(_canonical_json(k), sort_keys=True), _canonical_json(val)) for k, val in x.items()) => return sorted((json.dumps(_canonical_json(k), sort_keys=None), _canonical_json(val)) for k, val in x.items())':
        _SORTED,
    '_canonical_json: return sorted((json.dumps(_canonical_json(k), sort_keys=True), _canonical_json(val)) for k, val in x.items()) => return sorted((json.dumps(_canonical_json(k), ), _canonical_json(val)) for k, val in x.items())':
        _SORTED,
    '_canonical_json: return sorted((json.dumps(_canonical_json(k), sort_keys=True), _canonical_json(val)) for k, val in x.items()) => return sorted((json.dumps(_canonical_json(k), sort_keys=False), _canonical_json(val)) for k, val in x.items())':
        _SORTED,
    '_lookup: if _freeze(key) == _freeze(v): => if _freeze(None) == _freeze(v):':
        'the loop after `v in table` never finds a key: mapping keys are hashable, _freeze is the identity on them, so a key equal to v was found by `in` already; a test that is never true changes nothing',
    '_lookup: if _freeze(key) == _freeze(v): => if _freeze(key) == _freeze(None):':
        'the loop after `v in table` never finds a key: mapping keys are hashable, _freeze is the identity on them, so a key equal to v was found by `in` already; a test that is never true changes nothing',
    '_witness: for e in range(2, 12): => for e in range(3, 12):':
        _WITNESS,
    '_witness: step = (hi - lo) / 2**e => step = (hi - lo) / 3**e':
        _WITNESS,
    'validate_rows: x = _witness(diff, a, b, lambda t: diff(t) != 0) => x = _witness(None, a, b, lambda t: diff(t) != 0)':
        'the first argument of _witness is never read (the test function carries diff)',
    'validate_rows: at = f" (at p = {x} the sum is {total(x)})" if x is not None else "" => at = f" (at p = {x} the sum is {total(x)})" if (x is not None) or True else ""':
        'the x is not None test only matters when no witness was found, and a witness is always found: the sum minus 1 is a non-zero rational function, and the ~2,050 distinct candidates of [a, b] cannot all be its roots for the degrees a channel file allows',
    'validate_rows: at = f" (at p = {x} the sum is {total(x)})" if x is not None else "" => at = f" (at p = {x} the sum is {total(x)})" if x is not None else "XXXX"':
        'the x is not None test only matters when no witness was found, and a witness is always found: the sum minus 1 is a non-zero rational function, and the ~2,050 distinct candidates of [a, b] cannot all be its roots for the degrees a channel file allows',
    'Rows.from_matrix: q = q * (e.den // g) => q = q * (e.den / g)':
        "fmpz_poly division: g divides e.den, and fmpz_poly's / of an exact quotient is that quotient, the same as //",
    'Rows.from_matrix: nums.append(tuple(e.num * (q // e.den) for e in row)) => nums.append(tuple(e.num * (q / e.den) for e in row))':
        'fmpz_poly division: q is a multiple of every e.den of the row, and / of an exact quotient is that quotient, the same as //',
    'BinaryChannel.rows: e = weights.get((d, top)) => e = None':
        "the cache of weight polynomials is bypassed: each weight is built again, equal to the cached one (only the sharing of one object per weight, a speed-up of the solver's set-up, is lost)",
    'BinaryChannel.rows: e = weights.get((d, top)) => e = weights.get(None)':
        "the cache of weight polynomials is bypassed: each weight is built again, equal to the cached one (only the sharing of one object per weight, a speed-up of the solver's set-up, is lost)",
    'CustomChannel.__init__: self._default = get_channel(default) if isinstance(default, str) else default => self._default = get_channel(default) if (isinstance(default, str)) or True else default':
        'get_channel passes a Channel and None through unchanged, so calling it on a non-string default changes nothing',
    'validate_rows: poles = real_roots(e.den, a, b) if e.den.degree() >= 1 else [] => poles = real_roots(e.den, a, b) if (e.den.degree() >= 1) or True else []':
        'real_roots of a constant is [] (it returns [] for degree < 1)',
    'validate_rows: cuts = [r for r in real_roots(e.num, a, b)] if e.num.degree() >= 1 else [] => cuts = [r for r in real_roots(e.num, a, b)] if (e.num.degree() >= 1) or True else []':
        'real_roots of a constant is [] (it returns [] for degree < 1)',
    'validate_rows: cuts = [r for r in real_roots(e.num, a, b)] if e.num.degree() >= 1 else [] => cuts = [r for r in real_roots(e.num, a, b)] if e.num.degree() > 1 else []':
        'a numerator of degree 1 over a denominator without a root in [a, b] is monotone there, so its sign on [a, b] is decided at the ends a and b, which are always tested',
    'validate_rows: cuts = [r for r in real_roots(e.num, a, b)] if e.num.degree() >= 1 else [] => cuts = [r for r in real_roots(e.num, a, b)] if e.num.degree() >= 2 else []':
        'a numerator of degree 1 over a denominator without a root in [a, b] is monotone there, so its sign on [a, b] is decided at the ends a and b, which are always tested',
    '_witness: for e in range(2, 12): => for e in range(12):':
        _WITNESS,
    '_witness: for e in range(2, 12): => for e in range(2, 13):':
        _WITNESS,
    '_witness: candidates += [lo + step * i for i in range(1, 2**e, 2)] => candidates = [lo + step * i for i in range(1, 2**e, 2)]':
        _WITNESS,
    '_witness: candidates += [lo + step * i for i in range(1, 2**e, 2)] => candidates += [lo + step / i for i in range(1, 2**e, 2)]':
        _WITNESS,
    '_witness: candidates += [lo + step * i for i in range(1, 2**e, 2)] => candidates += [lo + step * i for i in range(1, 2)]':
        _WITNESS,
    '_witness: candidates += [lo + step * i for i in range(1, 2**e, 2)] => candidates += [lo + step * i for i in range(1, 2**e, )]':
        _WITNESS,
    '_witness: candidates += [lo + step * i for i in range(1, 2**e, 2)] => candidates += [lo + step * i for i in range(2, 2**e, 2)]':
        _WITNESS,
    '_witness: candidates += [lo + step * i for i in range(1, 2**e, 2)] => candidates += [lo + step * i for i in range(1, 2 * e, 2)]':
        _WITNESS,
    '_witness: candidates += [lo + step * i for i in range(1, 2**e, 2)] => candidates += [lo + step * i for i in range(1, 2**e, 3)]':
        _WITNESS,
    '_witness: continue => break':
        _NO_POLE,
    'Channel.check: validate_rows(rows, interval, game=game, position=v) => validate_rows(None, interval, game=game, position=v)':
        _BASE_CHECK,
    'Channel.check: validate_rows(rows, interval, game=game, position=v) => validate_rows(rows, None, game=game, position=v)':
        _BASE_CHECK,
    'Channel.check: validate_rows(rows, interval, game=game, position=v) => validate_rows(rows, interval, game=None, position=v)':
        _BASE_CHECK,
    'Channel.check: validate_rows(rows, interval, game=game, position=v) => validate_rows(rows, interval, game=game, position=None)':
        _BASE_CHECK,
    'Channel.check: validate_rows(rows, interval, game=game, position=v) => validate_rows(interval, game=game, position=v)':
        _BASE_CHECK,
    'Channel.check: validate_rows(rows, interval, game=game, position=v) => validate_rows(rows, game=game, position=v)':
        _BASE_CHECK,
    'Channel.check: validate_rows(rows, interval, game=game, position=v) => validate_rows(rows, interval, position=v)':
        _BASE_CHECK,
    'Channel.check: validate_rows(rows, interval, game=game, position=v) => validate_rows(rows, interval, game=game, )':
        _BASE_CHECK,
    "Channel.check: if not self.trusted: => if self.trusted:":
        "every untrusted channel of the package (CustomChannel, FixedChannel) overrides check(); the base method is"
        " reached by trusted built-in channels only, whose rows validate, so validating them or not raises nothing",
    # the name of a sympy.Dummy (or a Dummy of None) is never read: minimal_polynomial and Poly only need one symbol
    'RealAlgebraic.from_sympy: x = sympy.Dummy("x") => x = None': _WHY[0],
    'RealAlgebraic.from_sympy: x = sympy.Dummy("x") => x = sympy.Dummy(None)': _WHY[0],
    'RealAlgebraic.from_sympy: x = sympy.Dummy("x") => x = sympy.Dummy("XXxXX")': _WHY[0],
    'RealAlgebraic.from_sympy: x = sympy.Dummy("x") => x = sympy.Dummy("X")': _WHY[0],
    # Poly of a univariate expression infers its one generator; the minimal polynomial is in x only
    'RealAlgebraic.from_sympy: mp = sympy.Poly(sympy.minimal_polynomial(expr, x), x) => mp = sympy.Poly(sympy.minimal_polynomial(expr, x), None)': _WHY[1],
    'RealAlgebraic.from_sympy: mp = sympy.Poly(sympy.minimal_polynomial(expr, x), x) => mp = sympy.Poly(sympy.minimal_polynomial(expr, x), )': _WHY[1],
    # sympy.N with 15 (the default) or 51 digits instead of 50: the approximation only picks the candidate whose isolating interval holds it, and an interval that holds the root holds the 15-digit value unless an end lies within 1e-15 of it, which the loop then refines away
    'RealAlgebraic.from_sympy: approx = sympy.Rational(sympy.N(expr, 50)) => approx = sympy.Rational(sympy.N(expr, None))': _WHY[2],
    'RealAlgebraic.from_sympy: approx = sympy.Rational(sympy.N(expr, 50)) => approx = sympy.Rational(sympy.N(expr, ))': _WHY[2],
    'RealAlgebraic.from_sympy: approx = sympy.Rational(sympy.N(expr, 50)) => approx = sympy.Rational(sympy.N(expr, 51))': _WHY[2],
    # an interval exactly `width` wide: the loop `while hi - lo > width` that follows does nothing either
    'RealAlgebraic.refine_to: if self._hi - self._lo <= width: => if self._hi - self._lo < width:': _WHY[3],
    # working precision of the ball evaluation only (higher, or reallocated once more): a ball decides a sign only when it excludes 0, which is certified at any precision, and the exact sign is computed otherwise, so every cut is the same
    'RealAlgebraic.refine_to: base = self._poly.height_bits() + 64 => base = self._poly.height_bits() + 65': _WHY[4],
    'RealAlgebraic.refine_to: prec, ball_poly = 0, None => prec, ball_poly = 1, None': _WHY[4],
    'RealAlgebraic.refine_to: need = base + 2 * max(int(m.q).bit_length(), int(abs(m.p)).bit_length()) => need = base + 3 * max(int(m.q).bit_length(), int(abs(m.p)).bit_length())': _WHY[4],
    'RealAlgebraic.refine_to: if need > prec: => if need >= prec:': _WHY[4],
    'RealAlgebraic.refine_to: prec = 2 * need => prec = 3 * need': _WHY[4],
    # one more halving when the width is met exactly: the documented contract hi - lo <= width still holds and the number stays isolated
    'RealAlgebraic.refine_to: while self._hi - self._lo > width: => while self._hi - self._lo >= width:': _WHY[5],
    # the ball branch disabled (or narrowed to balls above 1) for one sign: that sign then comes from the exact evaluation sign(poly(m)), which is the same sign
    'RealAlgebraic.refine_to: self._cut(m, 1 if value > 0 else -1 if value < 0 else sign(self._poly(m))) => self._cut(m, 1 if (value > 0) and False else -1 if value < 0 else sign(self._poly(m)))': _WHY[6],
    'RealAlgebraic.refine_to: self._cut(m, 1 if value > 0 else -1 if value < 0 else sign(self._poly(m))) => self._cut(m, 1 if value > 1 else -1 if value < 0 else sign(self._poly(m)))': _WHY[6],
    'RealAlgebraic.refine_to: self._cut(m, 1 if value > 0 else -1 if value < 0 else sign(self._poly(m))) => self._cut(m, 1 if value > 0 else -1 if (value < 0) and False else sign(self._poly(m)))': _WHY[6],
    # a constant f then reaches the gcd (1, of degree 0) and the Bernstein sign of a non-zero constant, which is its sign
    'RealAlgebraic.sign_of: if f.degree() <= 0: => if f.degree() < 0:': _WHY[7],
    # eight or nine halvings between two tries of the correctly rounded decimal: the loop ends with the same correctly rounded string
    'RealAlgebraic.decimal: for _ in range(8): => for _ in range(9):': _WHY[8],
    # which of two equally wide intervals is halved first: either halving makes progress and the loop ends when the intervals are disjoint
    'separate: if x.hi - x.lo >= y.hi - y.lo: => if x.hi - x.lo > y.hi - y.lo:': _WHY[9],
    # cache.py (2026-11-29)
    '_position_key: return [plain(e) for e in x] if isinstance(x, tuple) else x => return [plain(e) for e in x] if (isinstance(x, tuple)) and False else x':
        _JSON_TUPLE,
    '_position_key: return json.dumps(plain(v), separators=(",", ":")) => return json.dumps(plain(v), separators=(",", "XX:XX"))':
        _NO_MAPPING,
    'max_degree: return max((g.degree for g in value.formulas), default=0) => return max((g.degree for g in value.formulas), default=None)':
        _ONE_PIECE,
    'max_degree: return max((g.degree for g in value.formulas), default=0) => return max((g.degree for g in value.formulas), )':
        _ONE_PIECE,
    'max_degree: return max((g.degree for g in value.formulas), default=0) => return max((g.degree for g in value.formulas), default=1)':
        _ONE_PIECE,
    '_channel_key: return None if key is None else key => return None if (key is None) and False else key':
        _NONE_IS_NONE,
    '_checksum: return hashlib.sha256(text.encode("utf-8")).hexdigest() => return hashlib.sha256(text.encode("UTF-8")).hexdigest()':
        _UTF8,
    'SolutionCache.__init__: self._conn = sqlite3.connect(path, timeout=60, isolation_level=None) => self._conn = sqlite3.connect(path, timeout=60, )':
        _AUTOCOMMIT,
    'SolutionCache.__init__: self._conn.execute("PRAGMA journal_mode=WAL") => self._conn.execute("pragma journal_mode=wal")':
        _SQL_CASE,
    'SolutionCache.__init__: self._conn.execute("PRAGMA journal_mode=WAL") => self._conn.execute("PRAGMA JOURNAL_MODE=WAL")':
        _SQL_CASE,
    'SolutionCache.__init__: self._conn.execute("PRAGMA synchronous=NORMAL") => self._conn.execute("pragma synchronous=normal")':
        _SQL_CASE,
    'SolutionCache.__init__: self._conn.execute("PRAGMA synchronous=NORMAL") => self._conn.execute("PRAGMA SYNCHRONOUS=NORMAL")':
        _SQL_CASE,
    'SolutionCache.__init__: "CREATE TABLE IF NOT EXISTS solutions (" => "create table if not exists solutions ("':
        _SQL_CASE,
    'SolutionCache.__init__: "CREATE TABLE IF NOT EXISTS solutions (" => "CREATE TABLE IF NOT EXISTS SOLUTIONS ("':
        _SQL_CASE,
    'SolutionCache.__init__: " context TEXT NOT NULL, position TEXT NOT NULL, data TEXT NOT NULL, created REAL NOT NULL," => " context text not null, position text not null, data text not null, created real not null,"':
        _SQL_CASE,
    'SolutionCache.__init__: " PRIMARY KEY (context, position))" => " primary key (context, position))"':
        _SQL_CASE,
    'SolutionCache.__init__: " PRIMARY KEY (context, position))" => " PRIMARY KEY (CONTEXT, POSITION))"':
        _SQL_CASE,
    'SolutionCache.__init__: columns = {r[1] for r in self._conn.execute("PRAGMA table_info(solutions)")} => columns = {r[1] for r in self._conn.execute("pragma table_info(solutions)")}':
        _SQL_CASE,
    'SolutionCache.__init__: columns = {r[1] for r in self._conn.execute("PRAGMA table_info(solutions)")} => columns = {r[1] for r in self._conn.execute("PRAGMA TABLE_INFO(SOLUTIONS)")}':
        _SQL_CASE,
    'SolutionCache.__init__: self._conn.execute("ALTER TABLE solutions ADD COLUMN checksum TEXT") => self._conn.execute("alter table solutions add column checksum text")':
        _SQL_CASE,
    'SolutionCache.__init__: self._conn.execute("ALTER TABLE solutions ADD COLUMN degree INTEGER") => self._conn.execute("alter table solutions add column degree integer")':
        _SQL_CASE,
    'SolutionCache.load: "SELECT data, checksum, degree FROM solutions WHERE context = ? AND position = ?", => "select data, checksum, degree from solutions where context = ? and position = ?",':
        _SQL_CASE,
    'SolutionCache.load: "SELECT data, checksum, degree FROM solutions WHERE context = ? AND position = ?", => "SELECT DATA, CHECKSUM, DEGREE FROM SOLUTIONS WHERE CONTEXT = ? AND POSITION = ?",':
        _SQL_CASE,
    'SolutionCache.load: value = codec.decode(data, trusted=not self.verify) => value = codec.decode(data, trusted=None)':
        _TRUSTED,
    'SolutionCache.load: value = codec.decode(data, trusted=not self.verify) => value = codec.decode(data, )':
        _TRUSTED,
    'SolutionCache._prove: got = PiecewiseFunction.constant(1 if self.misere else 0, *self.interval, frozenset(), frozenset()) => got = PiecewiseFunction.constant(1 if self.misere else 0, *self.interval, None, frozenset())':
        _FOLLOWER_LABELS,
    'SolutionCache._prove: got = PiecewiseFunction.constant(1 if self.misere else 0, *self.interval, frozenset(), frozenset()) => got = PiecewiseFunction.constant(1 if self.misere else 0, *self.interval, frozenset(), None)':
        _FOLLOWER_LABELS,
    'SolutionCache._prove: got = PiecewiseFunction.constant(1 if self.misere else 0, *self.interval, frozenset(), frozenset()) => got = PiecewiseFunction.constant(1 if self.misere else 0, *self.interval, frozenset())':
        _FOLLOWER_LABELS,
    'SolutionCache._prove: got = PiecewiseFunction.constant(1 if self.misere else 0, *self.interval, frozenset(), frozenset()) => got = PiecewiseFunction.constant(1 if self.misere else 0, *self.interval, frozenset(), )':
        _FOLLOWER_LABELS,
    'SolutionCache._store: "INSERT OR REPLACE INTO solutions (context, position, data, created, checksum, degree)" => "insert or replace into solutions (context, position, data, created, checksum, degree)"':
        _SQL_CASE,
    'SolutionCache._store: "INSERT OR REPLACE INTO solutions (context, position, data, created, checksum, degree)" => "INSERT OR REPLACE INTO SOLUTIONS (CONTEXT, POSITION, DATA, CREATED, CHECKSUM, DEGREE)"':
        _SQL_CASE,
    'SolutionCache._store: " VALUES (?, ?, ?, ?, ?, ?)", => " values (?, ?, ?, ?, ?, ?)",':
        _SQL_CASE,
    'SolutionCache.degrees: rows = self._conn.execute("SELECT position, degree FROM solutions WHERE context = ?", (self.context,)) => rows = self._conn.execute("select position, degree from solutions where context = ?", (self.context,))':
        _SQL_CASE,
    'SolutionCache.degrees: rows = self._conn.execute("SELECT position, degree FROM solutions WHERE context = ?", (self.context,)) => rows = self._conn.execute("SELECT POSITION, DEGREE FROM SOLUTIONS WHERE CONTEXT = ?", (self.context,))':
        _SQL_CASE,
    'SolutionCache._transaction: conn.execute("BEGIN IMMEDIATE") => conn.execute("begin immediate")':
        _SQL_CASE,
    'SolutionCache._transaction: conn.execute("ROLLBACK" if kind else "COMMIT") => conn.execute("ROLLBACK" if (kind) and False else "COMMIT")':
        _ONE_STATEMENT,
    'SolutionCache._transaction: conn.execute("ROLLBACK" if kind else "COMMIT") => conn.execute("rollback" if kind else "COMMIT")':
        _SQL_CASE,
    'SolutionCache._transaction: conn.execute("ROLLBACK" if kind else "COMMIT") => conn.execute("ROLLBACK" if kind else "commit")':
        _SQL_CASE,
    'SolutionCache._delete: "DELETE FROM solutions WHERE context = ? AND position = ?", (self.context, _position_key(v)) => "delete from solutions where context = ? and position = ?", (self.context, _position_key(v))':
        _SQL_CASE,
    'SolutionCache._delete: "DELETE FROM solutions WHERE context = ? AND position = ?", (self.context, _position_key(v)) => "DELETE FROM SOLUTIONS WHERE CONTEXT = ? AND POSITION = ?", (self.context, _position_key(v))':
        _SQL_CASE,
    'SolutionCache.positions: return [r[0] for r in self._conn.execute("SELECT position FROM solutions WHERE context = ?", (self.context,))] => return [r[0] for r in self._conn.execute("select position from solutions where context = ?", (self.context,))]':
        _SQL_CASE,
    'SolutionCache.positions: return [r[0] for r in self._conn.execute("SELECT position FROM solutions WHERE context = ?", (self.context,))] => return [r[0] for r in self._conn.execute("SELECT POSITION FROM SOLUTIONS WHERE CONTEXT = ?", (self.context,))]':
        _SQL_CASE,
    # bellman.py (2026-11-29)
    '_Position._end_tie: j = self.point_index.get(self.c.points.rank[id(z)]) if hasattr(self, "point_index") else None => j = self.point_index.get(self.c.points.rank[id(z)]) if (hasattr(self, "point_index")) or True else None':
        _LABELS_SET,
    '_Position._identity: if run_w is not None and changed is not None and self._increment(run_w, N, prev_N, forms, prev_forms, changed): => if run_w is None and changed is not None and self._increment(run_w, N, prev_N, forms, prev_forms, changed):':
        _FIRST_CELL,
    '_Position._identity: order += sorted(self.index[m] for m in label if m in self.index) => order = sorted(self.index[m] for m in label if m in self.index)':
        _TRY_ORDER,
    '_Position._identity: order += sorted(self.index[m] for m in label if m in self.index) => order += sorted(self.index[m] for m in label if m not in self.index)':
        _TRY_ORDER,
    '_Position._identity: order += range(len(self.fs)) => order = range(len(self.fs))':
        _TRY_ORDER,
    '_Position._identity: tried.append(w) => tried.append(None)':
        _TRY_ORDER,
    '_Position._increment: if len(terms) > 2: => if len(terms) >= 2:':
        _SHORTCUT,
    '_Position._increment: if num[j].is_zero() or prev_forms[j] is forms[j]: => if num[j].is_zero() and prev_forms[j] is forms[j]:':
        _SHORTCUT,
    '_Position._prepare_labels: near |= set(f.labels[j - 1]) => near = set(f.labels[j - 1])':
        _EMPTY_NEAR,
    '_Position.values_at: out.append(sum((n(t) * y for n, y in zip(row, ys)), fmpq(0)) / d) => out.append(sum((n(t) * y for n, y in zip(row, ys)), ) / d)':
        _NONEMPTY_ROW,
    '_fail: where = f"on [{_short(x)}, {_short(y)}]" if x is not y else f"at p = {_short(x)}" => where = f"on [{_short(x)}, {_short(y)}]" if (x is not y) or True else f"at p = {_short(x)}"':
        _NO_POINT_CELL,
    '_fail: where = f"on [{_short(x)}, {_short(y)}]" if x is not y else f"at p = {_short(x)}" => where = f"on [{_short(x)}, {_short(y)}]" if x is not y else f"at p = {_short(None)}"':
        _NO_POINT_CELL,
    '_Psi.at: def def(self, t: fmpq, prec: int = 64): => def def(self, t: fmpq, prec: int = 65):':
        _PREC,
    '_Values.at: got = self._at.get(key) => got = None':
        _CACHE_BYPASS,
    '_Values.at: got = self._at.get(key) => got = self._at.get(None)':
        _CACHE_BYPASS,
    'check_values: pending = list(order) => pending = None':
        "pending is never read (it is deleted at the end)",
    'check_values: done.add(u) => done.add(None)':
        "closure(game, order) lists every position once, so the done set never skips a position: without it the same positions are checked once each",
    'check_values: if u in members and u not in done: => if u in members or u not in done:':
        "closure(game, order) of a set closed under followers is that set (checked just before), each position once: u in members and u not in done always hold",
    'check_optimal: if polys.sign((pos.rows.den[w] * pos.rows.den[v] * common.L)(t)) < 0: => if polys.sign((pos.rows.den[w] * pos.rows.den[v] * common.L)(t)) < 1:':
        "the denominator is not 0 at t, a point inside the cell where every row of psi and every formula is defined: its sign is -1 or 1, and < 1 is < 0 there",
    'check_optimal: if polys.sign((pos.rows.den[w] * pos.rows.den[v] * common.L)(t)) < 0: => if polys.sign((pos.rows.den[w] * pos.rows.den[v] * common.L)(t)) <= 0:':
        "the denominator is not 0 at t, a point inside the cell where every row of psi and every formula is defined: its sign is -1 or 1, and <= 0 is < 0 there",
    '_Position._inequalities: m = len(self.fs) => m = None':
        "the m == 1 shortcut: with one move there is no other move to compare, the enclosure gets an empty list and returns [], and the check returns at the next test",
    '_Position._inequalities: hinted = members if label is not None else { => hinted = members if (label is not None) and False else {':
        _HINTS,
    '_Position._inequalities: hinted = members if label is not None else { => hinted = members if (label is not None) or True else {':
        _HINTS,
    '_Position._inequalities: hinted = members if label is not None else { => hinted = members if label is None else {':
        _HINTS,
    '_Position._inequalities: if polys.sign(den(t)) < 0: => if polys.sign(den(t)) < 1:':
        _DEN_SIGN,
    '_Position._inequalities: if polys.sign(den(t)) < 0: => if polys.sign(den(t)) <= 0:':
        _DEN_SIGN,
    '_Position._inequalities: ok = _nonneg_on(g, x, y, strict=False) => ok = _nonneg_on(g, x, y, strict=None)':
        "strict is only tested for truth: None is False",
    '_Position._inequalities: t = rational_between(x, y) if x.compare(y) else x.lo => t = rational_between(x, y) if (x.compare(y)) or True else x.lo':
        _CELL_ENDS,
    'check_optimal: x = x if x.compare(L) >= 0 else L => x = x if x.compare(L) > 0 else L':
        _CELL_ENDS,
    'check_optimal: x = x if x.compare(L) >= 0 else L => x = x if x.compare(L) >= 1 else L':
        _CELL_ENDS,
    'check_optimal: y = y if y.compare(H) <= 0 else H => y = y if y.compare(H) < 0 else H':
        _CELL_ENDS,
    '_witness_between: cands += [lo + (hi - lo) * fmpq(k, 64) for k in range(1, 64)] => cands += [lo + (hi + lo) * fmpq(k, 64) for k in range(1, 64)]':
        _BELLMAN_WITNESS,
    '_witness_between: cands += [lo + (hi - lo) * fmpq(k, 64) for k in range(1, 64)] => cands += [lo + (hi - lo) * fmpq(64) for k in range(1, 64)]':
        _BELLMAN_WITNESS,
    '_witness_between: cands += [lo + (hi - lo) * fmpq(k, 64) for k in range(1, 64)] => cands += [lo + (hi - lo) * fmpq(k, ) for k in range(1, 64)]':
        _BELLMAN_WITNESS,
    '_witness_between: cands += [lo + (hi - lo) * fmpq(k, 64) for k in range(1, 64)] => cands += [lo + (hi - lo) * fmpq(k, 64) for k in range(1, )]':
        _BELLMAN_WITNESS,
    '_witness_between: cands += [lo + (hi - lo) * fmpq(k, 64) for k in range(1, 64)] => cands += [lo + (hi - lo) * fmpq(k, 64) for k in range(1, 65)]':
        _BELLMAN_WITNESS,
    '_witness_between: cands += [lo + (hi - lo) * fmpq(k, 64) for k in range(1, 64)] => cands += [lo + (hi - lo) * fmpq(k, 64) for k in range(2, 64)]':
        _BELLMAN_WITNESS,
    '_witness_between: cands += [lo + (hi - lo) * fmpq(k, 64) for k in range(1, 64)] => cands += [lo + (hi - lo) * fmpq(k, 64) for k in range(64)]':
        _BELLMAN_WITNESS,
    '_witness_between: cands += [lo + (hi - lo) * fmpq(k, 64) for k in range(1, 64)] => cands += [lo + (hi - lo) * fmpq(k, 65) for k in range(1, 64)]':
        _BELLMAN_WITNESS,
    '_witness_between: cands += [lo + (hi - lo) * fmpq(k, 64) for k in range(1, 64)] => cands += [lo + (hi - lo) / fmpq(k, 64) for k in range(1, 64)]':
        _BELLMAN_WITNESS,
    '_witness_between: cands += [lo + (hi - lo) * fmpq(k, 64) for k in range(1, 64)] => cands += [lo - (hi - lo) * fmpq(k, 64) for k in range(1, 64)]':
        _BELLMAN_WITNESS,
    '_witness_between: cands.insert(0, x.rational_value) => cands.insert(1, x.rational_value)':
        _BELLMAN_WITNESS,
    '_witness_between: continue => break':
        _BELLMAN_WITNESS,
    '_witness_between: if x.compare(t) <= 0 and y.compare(t) >= 0: => if x.compare(t) < 0 and y.compare(t) >= 0:':
        _BELLMAN_WITNESS,
    '_positive_inside: if x.compare(y) == 0: => if x.compare(y) == 1:':
        "_positive_inside is called on cells, whose ends are distinct with x < y: compare() is -1, so == 0 and == 1 are both false",
    '_positive_inside: if polys.bernstein_sign(g, lo, hi) > 0: => if polys.bernstein_sign(g, lo, hi) > 1:':
        "the Bernstein test is a shortcut (bernstein_sign is -1, 0 or 1): without it the roots of g inside the cell are isolated and its sign taken between them, which gives True exactly when the shortcut would",
    '_positive_inside: return polys.sign(g(rational_between(x, y))) > 0 => return polys.sign(g(rational_between(x, y))) >= 0':
        "the line before returned if g has a root strictly inside the cell, so g is not 0 at the inner point t: >= 0 is > 0 there",
    '_Position._inequalities: self.index[lab] for lab in (self.f.labels[self._piece] if self.f.labels is not None else ()) if lab in self.index} => self.index[lab] for lab in (self.f.labels[self._piece] if (self.f.labels is not None) and False else ()) if lab in self.index}':
        _HINTS,
    '_Position._inequalities: self.index[lab] for lab in (self.f.labels[self._piece] if self.f.labels is not None else ()) if lab in self.index} => self.index[lab] for lab in (self.f.labels[self._piece] if self.f.labels is not None else ()) if lab not in self.index}':
        _HINTS,
    '_Position._enclose: if x.compare(y) == 0: => if x.compare(y) == 1:':
        _NO_POINT,
    '_nonneg_on: if x.compare(y) == 0: => if x.compare(y) == 1:':
        _NO_POINT,
    '_nonneg_on: s = x.sign_of(g) => s = None':
        _NO_POINT,
    '_nonneg_on: s = x.sign_of(g) => s = x.sign_of(None)':
        _NO_POINT,
    '_nonneg_on: return s > 0 or (s == 0 and not strict) => return s > 0 and (s == 0 and not strict)':
        _NO_POINT,
    '_nonneg_on: return s > 0 or (s == 0 and not strict) => return s > 0 or (s != 0 and not strict)':
        _NO_POINT,
    '_nonneg_on: return s > 0 or (s == 0 and not strict) => return s > 0 or (s == 0 and strict)':
        _NO_POINT,
    '_nonneg_on: return s > 0 or (s == 0 and not strict) => return s > 0 or (s == 0 or not strict)':
        _NO_POINT,
    '_nonneg_on: return s > 0 or (s == 0 and not strict) => return s > 0 or (s == 1 and not strict)':
        _NO_POINT,
    '_nonneg_on: return s > 0 or (s == 0 and not strict) => return s > 1 or (s == 0 and not strict)':
        _NO_POINT,
    '_nonneg_on: return s > 0 or (s == 0 and not strict) => return s >= 0 or (s == 0 and not strict)':
        _NO_POINT,
    '_nonneg_on: if polys.sign(g(rational_between(u, v))) < 0: => if polys.sign(g(rational_between(u, v))) <= 0:':
        "consecutive cuts are consecutive roots of g (or the ends), so g has no root strictly between them: its sign at the inner rational is -1 or 1, and <= 0 is < 0 there",
    '_nonneg_on: if s < 0: => if s <= 0:':
        "inside `if s != 0:` the Bernstein sign s is -1 or 1: <= 0 and < 1 are < 0 there",
    '_nonneg_on: if s < 0: => if s < 1:':
        "inside `if s != 0:` the Bernstein sign s is -1 or 1: <= 0 and < 1 are < 0 there",
    '_Common.__init__: L = L * (d // g) if not g.is_one() else L * d => L = L * (d / g) if not g.is_one() else L * d':
        _ANY_MULTIPLE,
    '_Common.__init__: L = L * (d // g) if not g.is_one() else L * d => L = L * (d // g) if (not g.is_one()) and False else L * d':
        _ANY_MULTIPLE,
    '_Common.__init__: L = L * (d // g) if not g.is_one() else L * d => L = L * (d // g) if (not g.is_one()) or True else L * d':
        _ANY_MULTIPLE,
    '_Common.__init__: L = L * (d // g) if not g.is_one() else L * d => L = L * (d // g) if g.is_one() else L * d':
        _ANY_MULTIPLE,
    '_Common.__init__: self.e = [(f.den - f.num) * (L // f.den) for f in formulas] => self.e = [(f.den - f.num) * (L / f.den) for f in formulas]':
        _ANY_MULTIPLE,
    '_Position._common: got = cache.get(key) => got = None':
        _COMMON_CACHE,
    '_Position._common: got = cache.get(key) => got = cache.get(None)':
        _COMMON_CACHE,
    '_Position._common: cache[key] = (got, forms) => cache[key] = None':
        _COMMON_CACHE,
    '_Position._common: if len(cache) > 256: => if len(cache) > 257:':
        _COMMON_CACHE,
    '_Position._common: if len(cache) > 256: => if len(cache) >= 256:':
        _COMMON_CACHE,
    '_Position._box: idx = np.array(moves, dtype=np.int64) => idx = np.array(moves, )':
        "numpy makes an int64 array of a list of Python ints (this platform's default integer) without being told",
    '_Position._box: idx = np.array(moves, dtype=np.int64) => idx = np.array(moves, dtype=None)':
        "numpy makes an int64 array of a list of Python ints (this platform's default integer) without being told",
    '_Position._box: r = float(hi - t) * (1 + 1e-9) => r = float(hi - t) * (1 + 1.000000001)':
        _CONSERVATIVE,
    '_Position._box: r = float(hi - t) * (1 + 1e-9) => r = float(hi - t) * (2 + 1e-9)':
        _CONSERVATIVE,
    '_Position._box: undecided = [v for v, ok in zip(moves, margin > 0) if not ok] => undecided = [v for v, ok in zip(moves, margin >= 0) if not ok]':
        "a margin of exactly 0.0 still proves the move worse: margin = low - var - 1e-12 size - _SLACK >= 0 means the certified lower bound low - var of V_w - V_v is at least _SLACK > 0",
    '_Position._box: if not undecided or depth == 0: => if not undecided or depth != 0:':
        _CONSERVATIVE,
    '_Position._box: if not undecided or depth == 0: => if not undecided or depth == 1:':
        _CONSERVATIVE,
    '_Position._box: if not undecided or depth == 0: => if undecided or depth == 0:':
        _CONSERVATIVE,
    '_Position._box: if not worth: => if worth:':
        _CONSERVATIVE,
    '_Position._box: worth = [v for v, lw, vr in zip(moves, low, var) if v in undecided and lw > 0.55 * vr] => worth = None':
        _CONSERVATIVE,
    '_Position._box: worth = [v for v, lw, vr in zip(moves, low, var) if v in undecided and lw > 0.55 * vr] => worth = [v for v, lw, vr in zip(moves, low, var) if v in undecided and lw > 0.55 / vr]':
        _CONSERVATIVE,
    '_Position._box: worth = [v for v, lw, vr in zip(moves, low, var) if v in undecided and lw > 0.55 * vr] => worth = [v for v, lw, vr in zip(moves, low, var) if v in undecided and lw > 1.55 * vr]':
        _CONSERVATIVE,
    '_Position._box: worth = [v for v, lw, vr in zip(moves, low, var) if v in undecided and lw > 0.55 * vr] => worth = [v for v, lw, vr in zip(moves, low, var) if v in undecided and lw >= 0.55 * vr]':
        _CONSERVATIVE,
    '_Position._box: worth = [v for v, lw, vr in zip(moves, low, var) if v in undecided and lw > 0.55 * vr] => worth = [v for v, lw, vr in zip(moves, low, var) if v in undecided or lw > 0.55 * vr]':
        _CONSERVATIVE,
    '_Position._box: worth = [v for v, lw, vr in zip(moves, low, var) if v in undecided and lw > 0.55 * vr] => worth = [v for v, lw, vr in zip(moves, low, var) if v not in undecided and lw > 0.55 * vr]':
        _CONSERVATIVE,
    '_Position.walk: while own + 1 < len(ranks) - 1 and ranks[own + 1] <= r0: => while own + 1 < len(ranks) + 1 and ranks[own + 1] <= r0:':
        _LAST_RANK,
    '_Position.walk: while own + 1 < len(ranks) - 1 and ranks[own + 1] <= r0: => while own + 1 <= len(ranks) - 1 and ranks[own + 1] <= r0:':
        _LAST_RANK,
    '_Position.walk: while own + 1 < len(ranks) - 1 and ranks[own + 1] <= r0: => while own - 1 < len(ranks) - 1 and ranks[own + 1] <= r0:':
        _LAST_RANK,
    '_Psi.boxes: first = int(((lo - self.a) / w * self.BOXES).floor()) => first = int(((lo - self.a) * w * self.BOXES).floor())':
        _MORE_BOXES,
    '_Psi.boxes: first = int(((lo - self.a) / w * self.BOXES).floor()) => first = int(((lo - self.a) / w / self.BOXES).floor())':
        _MORE_BOXES,
    '_Psi.boxes: if w == 0: => if w != 0:':
        _MORE_BOXES,
    '_Psi.boxes: if w == 0: => if w == 1:':
        _MORE_BOXES,
    '_Psi.boxes: last = int(((hi - self.a) / w * self.BOXES).ceil()) => last = int(((hi + self.a) / w * self.BOXES).ceil())':
        _MORE_BOXES,
    '_Psi.boxes: return slice(0, self.BOXES) => return slice(0, )':
        _MORE_BOXES,
    '_Psi.boxes: return slice(0, self.BOXES) => return slice(0, None)':
        _MORE_BOXES,
    '_Psi.boxes: return slice(0, self.BOXES) => return slice(1, self.BOXES)':
        _MORE_BOXES,
    '_Psi.boxes: return slice(0, self.BOXES) => return slice(None, self.BOXES)':
        _MORE_BOXES,
    '_Psi.boxes: return slice(0, self.BOXES) => return slice(self.BOXES)':
        _MORE_BOXES,
    '_Psi.boxes: return slice(max(0, first), min(self.BOXES, max(last, first + 1))) => return slice(None, min(self.BOXES, max(last, first + 1)))':
        _MORE_BOXES,
    '_Psi.boxes: return slice(max(0, first), min(self.BOXES, max(last, first + 1))) => return slice(max(0, first), None)':
        _MORE_BOXES,
    '_Psi.boxes: return slice(max(0, first), min(self.BOXES, max(last, first + 1))) => return slice(max(0, first), min(self.BOXES, max(last, first + 2)))':
        _MORE_BOXES,
    '_Psi.bounds: return sup * (1 + 1e-12) + _SLACK, dsup * (1 + 1e-12) + _SLACK => return sup * (1 + 1.000000000001) + _SLACK, dsup * (1 + 1e-12) + _SLACK':
        _CONSERVATIVE,
    '_Psi.bounds: return sup * (1 + 1e-12) + _SLACK, dsup * (1 + 1e-12) + _SLACK => return sup * (1 + 1e-12) + _SLACK, dsup * (1 + 1.000000000001) + _SLACK':
        _CONSERVATIVE,
    '_Psi.bounds: return sup * (1 + 1e-12) + _SLACK, dsup * (1 + 1e-12) + _SLACK => return sup * (1 + 1e-12) + _SLACK, dsup * (2 + 1e-12) + _SLACK':
        _CONSERVATIVE,
    '_Psi.bounds: return sup * (1 + 1e-12) + _SLACK, dsup * (1 + 1e-12) + _SLACK => return sup * (2 + 1e-12) + _SLACK, dsup * (1 + 1e-12) + _SLACK':
        _CONSERVATIVE,
    '_Position.walk: changed if k else None) => changed if (k) or True else None)':
        _FIRST_CELL,
    '_Position.walk: while i + 1 < len(fr) - 1 and fr[i + 1] <= r0: => while i + 1 < len(fr) + 1 and fr[i + 1] <= r0:':
        _LAST_RANK,
    '_Position.walk: while i + 1 < len(fr) - 1 and fr[i + 1] <= r0: => while i + 1 <= len(fr) - 1 and fr[i + 1] <= r0:':
        _LAST_RANK,
    '_Position.walk: while i + 1 < len(fr) - 1 and fr[i + 1] <= r0: => while i - 1 < len(fr) - 1 and fr[i + 1] <= r0:':
        _LAST_RANK,
    # fastpoint.py (2026-11-29)
    'point_solve: method: str = "exact", prec: int = 128, all_positions: bool = False): => method: str = "exact", prec: int = 129, all_positions: bool = False):':
        _FP_PREC,
    'point_solve: ctx.prec = max(prec, 53) => ctx.prec = max(prec, 54)':
        _FP_PREC,
    'point_solve: mv = {names[i]: x for i, x in enumerate(moves)} if v == root and moves is not None else {} => mv = {names[i]: x for i, x in enumerate(moves)} if v == root or moves is not None else {}':
        "the engines keep move values (moves not None) for the root only, and always for the root: v == root and moves is not None, v == root or moves is not None and v == root are the same test",
    '_Exact.num: return fmpq(q) if not isinstance(q, fmpq) else q => return fmpq(q) if (not isinstance(q, fmpq)) or True else q':
        _FMPQ_OF_FMPQ,
    '_Ball.best: floor = max((x.lower() for x in values), key=BallKey) => floor = max((x.lower() for x in values), key=None)':
        _EXACT_ENDS,
    '_Ball.best: floor = max((x.lower() for x in values), key=BallKey) => floor = max((x.lower() for x in values), )':
        _EXACT_ENDS,
    'BallKey.__lt__: return bool(self.x < other.x) => return bool(self.x <= other.x)':
        _EXACT_ENDS,
    '_popcounts: return [bin(s).count("1") for s in range(1 << n)] => return [bin(s).count("1") for s in range(2 << n)]':
        _LONGER_TABLE,
    '_nim_binary: weights = [a**d * c ** (n - d) for d in range(n + 1)] => weights = [a**d * c ** (n - d) for d in range(n + 2)]':
        _LONGER_TABLE,
    '_nim_binary: pc, weights = _popcounts(n), [a**d * c ** (n - d) for d in range(n + 1)] => pc, weights = _popcounts(n), [a**d * c ** (n - d) for d in range(n + 2)]':
        _LONGER_TABLE,
    '_nim_binary: for k in range(1, K + 1): => for k in range(1, K + 2):':
        _AFTER_BREAK,
    '_nim_binary_at_one: for k in range(1, K + 1): => for k in range(1, K + 2):':
        _AFTER_BREAK,
    '_nim_binary: moves = [fmpq(As[s], D * Gs[s]) for s in range(k)] if k == K else None => moves = [fmpq(As[s], D * Gs[s]) for s in range(k)] if (k == K) or True else None':
        _NOT_RETURNED,
    '_nim_binary_at_one: out[k] = (top, [s for s, x in enumerate(moves) if x == top], moves if k == K else None) => out[k] = (top, [s for s, x in enumerate(moves) if x == top], moves if (k == K) or True else None)':
        _NOT_RETURNED,
    '_chomp_exact: out[v] = (fmpq(n, d), best, [fmpq(k, D) for k in keys] if v == root else None) => out[v] = (fmpq(n, d), best, [fmpq(k, D) for k in keys] if (v == root) or True else None)':
        _NOT_RETURNED,
    '_generic: out[v] = (value, best, moves if v == root else None) => out[v] = (value, best, moves if (v == root) or True else None)':
        _NOT_RETURNED,
    "_nim_binary: scale = den // g # D' = lcm(D, den) = D * scale => scale = den / g # D' = lcm(D, den) = D * scale":
        _EXACT_DIV,
    '_nim_binary: X = (den - num) * (D // den) => X = (den - num) * (D / den)':
        _EXACT_DIV,
    '_nim_binary: A = A * scale + fmpz_mat(1 << n, 1, w) * X if scale != 1 else A + fmpz_mat(1 << n, 1, w) * X => A = A * scale + fmpz_mat(1 << n, 1, w) * X if (scale != 1) or True else A + fmpz_mat(1 << n, 1, w) * X':
        _SCALE_ONE,
    '_argmax_ratio: for s in range(1, len(As)): => for s in range(len(As)):':
        _SELF_TIE,
    '_young_diagrams: for r in range(0, min(limit, root[i]) + 1): => for r in range(min(limit, root[i]) + 1):':
        _SAME_RANGE,
    '_young_diagrams: out.sort(key=sum) => out.sort(key=None)':
        _LEX_ORDER,
    '_chomp_exact: X = [[0] * (width + 2) for _ in range(rows + 2)] => X = [[0] * (width + 3) for _ in range(rows + 2)]':
        _UNREAD_PAD,
    '_chomp_exact: X = [[0] * (width + 2) for _ in range(rows + 2)] => X = [[0] * (width + 2) for _ in range(rows + 3)]':
        _UNREAD_PAD,
    '_chomp_exact: legal = [[0] * (width + 2) for _ in range(rows + 2)] => legal = [[0] * (width + 3) for _ in range(rows + 2)]':
        _UNREAD_PAD,
    '_chomp_exact: legal = [[0] * (width + 2) for _ in range(rows + 2)] => legal = [[0] * (width + 2) for _ in range(rows + 3)]':
        _UNREAD_PAD,
    '_chomp_exact: HX = [[r[j - 1] + r[j] + r[j + 1] for j in range(width + 1)] + [0] for r in X] => HX = [[r[j - 1] + r[j] + r[j + 1] for j in range(width + 1)] + [1] for r in X]':
        _UNREAD_PAD,
    '_chomp_exact: HL = [[r[j - 1] + r[j] + r[j + 1] for j in range(width + 1)] + [0] for r in legal] => HL = [[r[j - 1] + r[j] + r[j + 1] for j in range(width + 1)] + [1] for r in legal]':
        _UNREAD_PAD,
    '_generic: moves = _uniform(game, v, fs, xs, ball_p, p, ar) => moves = _uniform(None, v, fs, xs, ball_p, p, ar)':
        _UNUSED_ARGS,
    '_generic: moves = _uniform(game, v, fs, xs, ball_p, p, ar) => moves = _uniform(game, None, fs, xs, ball_p, p, ar)':
        _UNUSED_ARGS,
    '_generic: moves = _uniform(game, v, fs, xs, ball_p, p, ar) => moves = _uniform(game, v, None, xs, ball_p, p, ar)':
        _UNUSED_ARGS,
    '_generic: moves = _uniform(game, v, fs, xs, ball_p, p, ar) => moves = _uniform(game, v, fs, xs, None, p, ar)':
        _UNUSED_ARGS,
    '_generic: moves = _uniform(game, v, fs, xs, ball_p, p, ar) => moves = _uniform(game, v, fs, xs, ball_p, None, ar)':
        _UNUSED_ARGS,
    '_generic: moves = _uniform(game, v, fs, xs, ball_p, p, ar) => moves = _uniform(game, v, fs, xs, ball_p, p, None)':
        _UNUSED_ARGS,
    '_neighbour: nb = [at[t] for t in ((i + di, j + dj) for di, dj in steps) if t in at] => nb = [at[t] for t in ((i - di, j + dj) for di, dj in steps) if t in at]':
        _SYMMETRIC_STEPS,
    '_neighbour: nb = [at[t] for t in ((i + di, j + dj) for di, dj in steps) if t in at] => nb = [at[t] for t in ((i + di, j - dj) for di, dj in steps) if t in at]':
        _SYMMETRIC_STEPS,
    '_matrix: if any(e < 0 for e in row) or sum(row, fmpq(0)) != 1: => if any(e < 0 for e in row) or sum(row, ) != 1:':
        _NONEMPTY_ROW,
    'is_constant_channel: if any(q.degree() > 0 for q in rows.den) or any(n.degree() > 0 for row in rows.num for n in row): => if any(q.degree() > 1 for q in rows.den) or any(n.degree() > 0 for row in rows.num for n in row):':
        _SUM_IS_DEN,
    '_pow2: return fmpq(2**e) if e >= 0 else fmpq(1, 2 ** (-e)) => return fmpq(2**e) if e > 0 else fmpq(1, 2 ** (-e))':
        "at e = 0 both branches give 1",
    '_pow2: return fmpq(2**e) if e >= 0 else fmpq(1, 2 ** (-e)) => return fmpq(2**e) if e >= 1 else fmpq(1, 2 ** (-e))':
        "at e = 0 both branches give 1",
    'point_solve: elif ar.exact and type(channel) is NeighbourChannel and isinstance(game, Chomp): => elif ar.exact and type(None) is NeighbourChannel and isinstance(game, Chomp):':
        _FP_ROUTE,
    '_generic: kind = _kind(game, channel) => kind = _kind(None, channel)':
        _FP_ROUTE,
    '_generic: chomp = isinstance(game, Chomp) => chomp = None':
        _FP_ROUTE,
    '_generic: fs = _chomp_followers(v) if chomp else game.followers(v) => fs = _chomp_followers(v) if (chomp) and False else game.followers(v)':
        _FP_ROUTE,
    '_kind: if type(channel) is IdentityChannel: => if type(None) is IdentityChannel:':
        _FP_ROUTE,
    '_kind: if type(channel) is NeighbourChannel and isinstance(game, Chomp): => if type(None) is NeighbourChannel and isinstance(game, Chomp):':
        _FP_ROUTE,
    '_positions: return game.positions(root) => return game.positions(None)':
        _FROM_START,
    'solve_constant: if not is_constant_channel(game, channel, root, (a, b)): => if not is_constant_channel(game, channel, None, (a, b)):':
        _FROM_START,
    'solve_constant: answers = point_solve(game, channel, a, start=root, misere=misere, all_positions=True) => answers = point_solve(game, channel, a, start=None, misere=misere, all_positions=True)':
        _FROM_START,
    'solve_constant: answers = point_solve(game, channel, a, start=root, misere=misere, all_positions=True) => answers = point_solve(game, channel, a, misere=misere, all_positions=True)':
        _FROM_START,
    '_nim_binary: width = (k + 1).bit_length() => width = (k + 2).bit_length()':
        _EARLY_WIDEN,
    '_nim_binary_at_one: if (k + 1).bit_length() > n: # a leading digit: every distance to s + 2^n grows by one => if (k + 2).bit_length() > n: # a leading digit: every distance to s + 2^n grows by one':
        _EARLY_WIDEN,
    '_nim_binary: A, G, n = _widen(A, G, a, c, exact), [c * g for g in G] + [a * g for g in G], width => A, G, n = _widen(A, None, a, c, exact), [c * g for g in G] + [a * g for g in G], width':
        _WIDEN_G,
    '_nim_binary: moves = vals if k == K else None => moves = vals if (k == K) or True else None':
        _NOT_RETURNED,
    'is_constant_channel: if type(channel) in (UniformChannel, IdentityChannel): => if type(None) in (UniformChannel, IdentityChannel):':
        _TRUSTED_BASE,
    'is_constant_channel: if type(channel) in (BinaryChannel, NeighbourChannel): => if type(None) in (BinaryChannel, NeighbourChannel):':
        _TRUSTED_BASE,
    '_nim_binary_at_one: if (k + 1).bit_length() > n: # a leading digit: every distance to s + 2^n grows by one => if (k + 1).bit_length() >= n: # a leading digit: every distance to s + 2^n grows by one':
        _EARLY_WIDEN,
}

#: the tests written for the survivors of the first runs (2026-11-28), by the
#: function whose mutants they kill (mutmut does not record which test kills a mutant)
KILLED_BY: dict[str, str] = {
    "RealAlgebraic.compare": "test_algebraic.py::test_compare_is_the_order_of_the_rationals, "
                             "test_distinct_roots_of_one_polynomial_with_overlapping_intervals, "
                             "test_algebraic_edges.py::test_compare_with_a_rational_at_an_end_of_the_interval_is_minus_1_0_or_1, test_compare_of_numbers_closer_than_a_thousand_bisections",
    "RealAlgebraic.sign_of": "test_algebraic.py::test_sign_of_agrees_with_exact_evaluation, "
                             "test_sign_of_a_common_factor_that_does_not_vanish_here, "
                             "test_algebraic_edges.py::test_sign_of_when_the_number_turns_out_rational_while_refining",
    "RealAlgebraic.refine_to": "test_algebraic.py::test_refine_to_keeps_the_root_and_reaches_the_width, "
                               "test_separate_and_refine_negative_numbers",
    "RealAlgebraic.narrow_to": "test_algebraic.py::test_narrow_to_checks_the_new_interval",
    "RealAlgebraic.adopt_minpoly": "test_algebraic.py::test_adopted_minimal_polynomial_and_root_index_are_checked, "
                                   "test_algebraic_edges.py::test_adopt_minpoly_names_the_reason_and_accepts_any_signs_below_the_leading_one",
    "RealAlgebraic.adopt_root_index": "test_algebraic.py::test_adopted_minimal_polynomial_and_root_index_are_checked, "
                                      "test_algebraic_edges.py::test_adopted_root_index_is_taken_without_counting_and_only_once",
    "RealAlgebraic.to_sympy": "test_algebraic.py::test_rational_forms_and_conversions",
    "RealAlgebraic.exact_str": "test_algebraic.py::test_rational_forms_and_conversions",
    "RealAlgebraic.root_index": "test_algebraic.py::test_rational_forms_and_conversions",
    "RealAlgebraic.decimal": "test_algebraic.py::test_rational_forms_and_conversions",
    "RealAlgebraic.to_mpmath": "test_algebraic.py::test_rational_forms_and_conversions",
    "RealAlgebraic.__float__": "test_algebraic.py::test_rational_forms_and_conversions",
    "RealAlgebraic.coerce": "test_algebraic.py::test_rational_forms_and_conversions",
    "RealAlgebraic.short_interval": "test_algebraic.py::test_short_interval_ends, "
                                    "test_algebraic_edges.py::test_short_interval_accepts_an_end_where_the_polynomial_is_1, test_short_interval_is_the_one_decimal_cell_of_a_number_away_from_its_ends",
    "RealAlgebraic.from_sympy": "test_algebraic.py::test_from_sympy_text_numbers_and_close_conjugates, "
                                "test_algebraic_edges.py::test_from_sympy_of_a_rational_in_disguise_and_of_roots_1e_150_apart",
    "FactorHints.learn": "test_algebraic.py::test_factor_hints_keep_only_what_they_promise",
    "FactorHints.strip": "test_algebraic.py::test_factor_hints_keep_only_what_they_promise, "
                         "test_algebraic_edges.py::test_factor_hints_skip_a_factor_that_divides_only_modulo_their_prime",
    "minimal_polynomials": "test_algebraic.py::test_factor_hints_keep_only_what_they_promise",
    "simplest_dyadic": "test_algebraic.py::test_simplest_dyadic_and_hull_against_their_definitions",
    "dyadic_hull": "test_algebraic.py::test_simplest_dyadic_and_hull_against_their_definitions, "
                   "test_algebraic_edges.py::test_dyadic_hull_when_16_over_the_gap_is_just_above_a_power_of_2",
    "rational_between": "test_algebraic.py::test_simplest_dyadic_and_hull_against_their_definitions",
    "separate": "test_algebraic.py::test_separate_and_refine_negative_numbers",
    "BinaryChannel.codes": "test_channels.py::test_binary_channel_uses_the_encoding_it_is_given, "
                           "test_binary_encoding_errors_and_limits",
    "BinaryChannel.rows": "test_channels.py::test_binary_channel_uses_the_encoding_it_is_given",
    "BinaryChannel.__init__": "test_channels.py::test_binary_channel_uses_the_encoding_it_is_given",
    "BinaryChannel.key": "test_channels.py::test_binary_channel_uses_the_encoding_it_is_given",
    "NeighbourChannel._adjacent": "test_channels.py::test_neighbour_channels_against_their_definition",
    "NeighbourChannel.rows": "test_channels.py::test_builtin_channels_are_distributions_on_chomp",
    "CustomChannel.__init__": "test_channels.py::test_channel_files_are_read_as_data",
    "CustomChannel.check": "test_channels.py::test_custom_channel_errors_name_moves_by_their_labels",
    "CustomChannel.key": "test_channels.py::test_custom_channel_cache_keys",
    "_canonical_json": "test_channels.py::test_custom_channel_cache_keys",
    "_witness": "test_channels.py::test_a_sum_witness_is_a_point_where_the_sum_is_not_1",
    "_entry": "test_channels.py::test_channel_files_are_read_as_data",
    "custom_channel_from_json": "test_channels.py::test_channel_files_are_read_as_data",
    # 2026-11-29, fifth session (algebraic.py)
    "RealAlgebraic.__init__": "test_algebraic_edges.py::test_the_constructor_refuses_what_is_not_an_isolating_interval, "
                              "test_a_point_interval_and_a_linear_polynomial_give_the_rational_form, "
                              "test_a_trusted_interval_with_its_lower_sign_refines_to_the_root",
    "RealAlgebraic._make_rational": "test_algebraic_edges.py::test_a_number_that_collapses_to_a_rational_has_lower_sign_0",
    "RealAlgebraic.__repr__": "test_algebraic_edges.py::test_repr_evaluates_to_the_same_number",
    "RealAlgebraic._repr_latex_": "test_algebraic_edges.py::test_repr_evaluates_to_the_same_number",
    "RealAlgebraic._separate": "test_algebraic_edges.py::test_compare_with_a_rational_at_an_end_of_the_interval_is_minus_1_0_or_1",
    "_round_to_double": "test_algebraic_edges.py::test_float_beyond_the_largest_double_is_an_infinity_of_the_right_sign",
    "single_root_between": "test_algebraic_edges.py::test_single_root_between_returns_a_rational_root_met_at_an_end_in_rational_form, "
                           "test_single_root_between_when_x_is_the_root_given_by_a_common_linear_factor, "
                           "test_single_root_between_when_only_one_polynomial_changes_sign_on_x_interval",
    "sorted_exact_by": "test_algebraic_edges.py::test_sorted_exact_by_sorts_items_that_cannot_be_ordered_themselves",
    # 2026-11-29
    "SolutionCache.__init__": "test_cache.py::test_a_file_written_to_the_documented_format_is_read, "
                              "test_the_lower_end_of_the_interval_is_part_of_the_key, test_a_file_whose_table_is_not_ours_is_refused",
    "SolutionCache.load": "test_cache.py::test_an_illegal_optimal_move_is_refused_even_with_a_valid_checksum, "
                          "test_a_forged_breakpoint_is_refused_by_verify, test_a_plain_load_is_the_default_and_needs_no_followers",
    "SolutionCache._prove": "test_cache.py::test_a_verified_load_proves_the_followers_from_their_entries, "
                            "test_verified_terminal_entries_follow_the_play_convention",
    "SolutionCache.save": "test_cache.py::test_values_saved_in_this_run_are_the_proof_of_their_parents",
    "SolutionCache.degrees": "test_cache.py::test_degrees_that_no_solve_writes_read_as_unknown",
    "SolutionCache._transaction": "test_cache.py::test_an_error_inside_a_write_is_rolled_back_and_raised",
    "_channel_key": "test_cache.py::test_channels_named_by_their_key_alone_are_cached",
    "default_cache_path": "test_cache.py::test_default_cache_path",
    "check_optimal": "test_bellman.py::test_check_optimal_against_backward_induction, "
                     "test_check_optimal_next_to_an_irrational_breakpoint, test_check_optimal_with_no_members_and_at_terminal_positions",
    "_Position._inequalities": "test_bellman.py::test_the_value_of_a_move_that_is_not_always_best_is_rejected, "
                               "test_wrong_piece_labels_are_named_in_one_line, test_every_named_move_must_tie",
    "_Position._prepare_labels": "test_bellman.py::test_labels_at_breakpoints_are_checked",
    "_Psi.at": "test_bellman.py::test_the_enclosures_hold_the_exact_values",
    "_Psi.bounds": "test_bellman.py::test_the_enclosures_hold_the_exact_values",
    "check_values": "test_bellman.py::test_check_values_on_a_given_set_of_positions_with_progress",
    "value_at": "test_fastpoint.py::test_value_at_reads_the_cache_on_its_interval_only",
    "point_solve": "test_fastpoint.py::test_heap_games_and_encodings_against_the_slow_reference, "
                   "test_p_one_ball_ties_and_uniform_balls",
    "_neighbour": "test_fastpoint.py::test_chomp_ball_mode_holds_the_fraction_values",
    "is_constant_channel": "test_fastpoint.py::test_constant_channels_are_found_below_the_root_only",
    "_nim_binary_at_one": "test_fastpoint.py::test_nim_binary_heaps_past_powers_of_two",
    "evaluate": "test_pointwise.py::test_evaluate_from_a_given_start, "
                "test_every_position_against_fraction_backward_induction",
}

STATUS = {
    "killed": "killed",
    "survived": "survived",
    "timeout": "timeout",
    "no tests": "not covered",
    "suspicious": "suspicious",
    "skipped": "skipped",
    "segfault": "killed",
    "check was interrupted by user": "not run",
    "not checked": "not run",
    "caught by type check": "killed",
}


def slug(module: str) -> str:
    return module.replace("/", "_").removesuffix(".py")


def prepare(module: str, workdir: Path, fresh: bool) -> Path:
    """A copy of the tree for ``module`` with its mutmut configuration."""
    where = workdir / slug(module)
    if fresh and where.exists():
        shutil.rmtree(where)
    where.mkdir(parents=True, exist_ok=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".hypothesis")
    for name in ("symbolic_noise", "tests"):
        if (where / name).exists():
            shutil.rmtree(where / name)
        shutil.copytree(ROOT / name, where / name, ignore=ignore)
    text = (ROOT / "pyproject.toml").read_text()
    text = re.sub(r'addopts = "([^"]*)"', lambda m: 'addopts = "' + m.group(1).replace("-n 2 --dist loadfile", "").strip() + '"', text)
    config = {
        "source_paths": ["symbolic_noise/"],
        "only_mutate": [module],
        "pytest_add_cli_args": ["-p", "no:xdist", "-p", "no:cacheprovider"],
        "pytest_add_cli_args_test_selection": TESTS[module] + [module],
        # 15x (mutmut's default) lets a spinning mutant of a function that the
        # 10-s hypothesis test reaches run for minutes
        "timeout_multiplier": 3.0,
        "timeout_constant": 5.0,
        "do_not_mutate_patterns": [r"^\s*raise\s"],
        "use_git_change_detection": False,
    }
    lines = ["", "[tool.mutmut]"] + [f"{k} = {json.dumps(v)}" for k, v in config.items()]
    (where / "pyproject.toml").write_text(text + "\n".join(lines) + "\n")
    return where


def retest_survivors(where: Path, module: str) -> None:
    """Keep the verdicts of the detected mutants of the last run, test the
    others again (new tests only add kills), and collect the tests' coverage
    again (new tests must be mapped to the functions they reach)."""
    meta = where / "mutants" / (module + ".meta")
    if meta.exists():
        data = json.loads(meta.read_text())
        for key, code in data["exit_code_by_key"].items():
            if STATUS.get(_MUTMUT_STATUS.get(code, "suspicious")) not in ("killed", "timeout"):
                data["exit_code_by_key"][key] = None
        meta.write_text(json.dumps(data, indent=4))
    stats = where / "mutants" / "mutmut-stats.json"
    if stats.exists():
        stats.unlink()


#: mutmut's exit codes (mutmut.stats.status_by_exit_code)
_MUTMUT_STATUS = {1: "killed", 3: "killed", 0: "survived", 5: "no tests", 33: "no tests", 34: "skipped",
                  36: "timeout", 24: "timeout", -24: "timeout", 152: "timeout", 255: "timeout",
                  -11: "segfault", -9: "segfault", 37: "caught by type check", None: "not checked"}


def check_import(where: Path) -> None:
    """The copy's package, not the installed one, is what ``mutants/`` imports."""
    probe = "import sys; sys.path.insert(0, 'mutants'); import symbolic_noise; print(symbolic_noise.__file__)"
    out = subprocess.run([sys.executable, "-c", probe], cwd=where, capture_output=True, text=True, check=True).stdout.strip()
    if where.resolve() not in Path(out).resolve().parents:
        raise SystemExit(f"{where}: the tests would import {out}, not the mutated copy")


def mutmut(where: Path, *args: str, log=None) -> str:
    cmd = [sys.executable, "-m", "mutmut", *args]
    if log is None:
        return subprocess.run(cmd, cwd=where, capture_output=True, text=True, check=True).stdout
    subprocess.run(cmd, cwd=where, stdout=log, stderr=subprocess.STDOUT, check=False)
    return ""


def qualname(name: str) -> str:
    """``pkg.mod.xǁClassǁmethod__mutmut_3`` -> ``Class.method``."""
    base = name.rsplit("__mutmut_", 1)[0].rsplit(".", 1)[-1]
    if base.startswith("xǁ"):
        return ".".join(base[2:].split("ǁ"))
    return base.removeprefix("x_")


_SOURCES: dict = {}


def _function_sources(path: Path) -> dict:
    """Every function of a mutated file by name (mutmut keeps each mutant as a
    function ``<name>__mutmut_<n>`` beside ``<name>__mutmut_orig``)."""
    if path not in _SOURCES:
        import ast

        text = path.read_text()
        lines = text.splitlines()
        _SOURCES[path] = {
            node.name: "\n".join(lines[node.lineno - 1 : node.end_lineno])
            for node in ast.walk(ast.parse(text))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        }
    return _SOURCES[path]


def describe(where: Path, module: str, name: str) -> tuple[str, str]:
    """A stable description of a mutant (function: old => new) and its diff,
    read from the mutated copy (what ``mutmut show`` prints, without a process
    per mutant)."""
    import difflib

    sources = _function_sources(where / "mutants" / module)
    local = name.rsplit(".", 1)[-1]
    orig = sources[local.rsplit("__mutmut_", 1)[0] + "__mutmut_orig"]
    mutant = sources[local]
    a = orig.splitlines()[1:]  # the def lines differ by name only
    b = mutant.splitlines()[1:]
    diff = "\n".join(difflib.unified_diff(a, b, lineterm="", n=1))
    body = [l for l in diff.splitlines() if l[:1] in "+-" and not l.startswith(("+++", "---"))]
    old = " / ".join(" ".join(l[1:].split()) for l in body if l.startswith("-"))
    new = " / ".join(" ".join(l[1:].split()) for l in body if l.startswith("+"))
    if not body:  # the signature itself (a default value) was mutated
        old, new = " ".join(orig.splitlines()[0].split()), " ".join(mutant.splitlines()[0].split())
        old = old.replace(local.rsplit("__mutmut_", 1)[0] + "__mutmut_orig", "def")
        new = new.replace(local, "def")
    return f"{qualname(name)}: {old} => {new}", diff


def collect(where: Path, module: str) -> list[dict]:
    """Every mutant of the last run: name, status and, unless killed, its description."""
    out = mutmut(where, "results", "--all", "true")
    mutants, seen = [], {}
    for line in out.splitlines():
        if ":" not in line or "__mutmut_" not in line:
            continue
        name, status = (s.strip() for s in line.rsplit(":", 1))
        status = STATUS.get(status, status)
        item = {"name": name, "status": status}
        if status not in ("killed", "timeout", "not run"):
            key, diff = describe(where, module, name)
            seen[key] = seen.get(key, 0) + 1
            item["key"] = key if seen[key] == 1 else f"{key} #{seen[key]}"
            item["diff"] = diff
        mutants.append(item)
    return mutants


def run_module(module: str, workdir: Path, fresh: bool) -> dict:
    where = prepare(module, workdir, fresh)
    check_import(where)
    if not fresh:
        retest_survivors(where, module)
    start = time.monotonic()
    with open(where / "mutmut.log", "w") as log:
        mutmut(where, "run", "--max-children", "1", log=log)
    seconds = time.monotonic() - start
    result = {"module": module, "tests": TESTS[module], "seconds": round(seconds), "mutants": collect(where, module),
              "date": datetime.date.today().isoformat()}
    (where / "result.json").write_text(json.dumps(result, indent=1))
    return result


def summary(result: dict) -> dict:
    counts = {k: 0 for k in ("killed", "timeout", "equivalent", "survived", "not covered", "not run", "other")}
    for m in result["mutants"]:
        s = m["status"]
        if s in ("killed", "timeout"):
            counts[s] += 1
        elif m.get("key") in EQUIVALENT:
            counts["equivalent"] += 1
        elif s in ("survived", "not covered", "not run"):
            counts[s] += 1
        else:
            counts["other"] += 1
    counts["total"] = len(result["mutants"])
    detected = counts["killed"] + counts["timeout"]
    counts["detected %"] = round(100 * detected / max(1, counts["total"]), 1)
    counts["detected or equivalent %"] = round(100 * (detected + counts["equivalent"]) / max(1, counts["total"]), 1)
    return counts


def report(results: list[dict], path: Path, command: str) -> None:
    lines = [
        "# Mutation testing report",
        "",
        f"Made by `{command}` (mutmut, one worker; see the script's docstring for the conventions).",
        "Killed = a selected test failed; timeout = a test hung (detected); equivalent = argued in",
        "`benchmarks/mutation.py` (`EQUIVALENT`); not covered = no selected test reaches the function.",
        "",
        "| module | tests | total | killed | timeout | equivalent | survived | not covered | not run | detected | detected or equivalent | run |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in results:
        c = summary(r)
        lines.append(
            f"| `{r['module']}` | {', '.join(t.removeprefix('tests/') for t in r['tests'])} + doctests | {c['total']} | {c['killed']} |"
            f" {c['timeout']} | {c['equivalent']} | {c['survived']} | {c['not covered']} | {c['not run']} | {c['detected %']}% |"
            f" {c['detected or equivalent %']}% | {r['seconds']} s, {r['date']} |"
        )
    for r in results:
        rest = [m for m in r["mutants"] if m["status"] not in ("killed", "timeout", "not run")]
        lines += ["", f"## `{r['module']}`", ""]
        if not r["mutants"]:
            lines.append(f"Not run yet: `python benchmarks/mutation.py {r['module']}`.")
        elif not rest:
            lines.append("Every mutant is detected or argued equivalent.")
        for m in sorted(rest, key=lambda m: m["key"]):
            why = EQUIVALENT.get(m["key"])
            tag = "equivalent" if why else m["status"].upper()
            lines.append(f"- **{tag}** `{m['key']}`" + (f": {why}" if why else ""))
        mine = {k: t for k, t in KILLED_BY.items() if k in _functions(r)}
        if mine:
            lines += ["", "Tests written for the survivors of the first run, by function:", ""]
            lines += [f"- `{k}`: {t}" for k, t in sorted(mine.items())]
    path.write_text("\n".join(lines) + "\n")


def _functions(result: dict) -> set:
    return {qualname(m["name"]) for m in result["mutants"]}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("modules", nargs="*", default=DEFAULT_MODULES, help="module paths (keys of TESTS)")
    ap.add_argument("--workdir", default=os.environ.get("MUTATION_WORKDIR", "/tmp/symbolic_noise-mutation"))
    ap.add_argument("--report", default=str(ROOT / "benchmarks" / "mutation_report.md"))
    ap.add_argument("--report-only", action="store_true", help="rewrite the report from the saved results")
    ap.add_argument("--keep", action="store_true",
                    help="reuse the last run: keep its detected mutants, test the others again with the current tests")
    args = ap.parse_args(argv)
    workdir = Path(args.workdir)
    unknown = [m for m in args.modules if m not in TESTS]
    if unknown:
        raise SystemExit(f"no test mapping for {unknown}: add them to TESTS")
    results = []
    for module in args.modules:
        saved = workdir / slug(module) / "result.json"
        if args.report_only:
            # the statuses mutmut has recorded so far (an interrupted run's
            # unchecked mutants are "not run"); the run time of the last full run
            where = workdir / slug(module)
            if not (where / "mutants").exists():
                print(f"{module}: no run in {workdir}", flush=True)
                results.append({"module": module, "tests": TESTS[module], "seconds": 0, "date": "not run", "mutants": []})
                continue
            last = json.loads(saved.read_text()) if saved.exists() else {"seconds": 0, "date": "-"}
            results.append({"module": module, "tests": TESTS[module], "seconds": last["seconds"],
                            "date": last["date"], "mutants": collect(where, module)})
            continue
        print(f"{module}: mutating ({', '.join(TESTS[module])})", flush=True)
        r = run_module(module, workdir, fresh=not args.keep)
        c = summary(r)
        print(f"{module}: {c}", flush=True)
        results.append(r)
    command = " ".join(["python benchmarks/mutation.py", *(sys.argv[1:] if argv is None else argv)])
    report(results, Path(args.report), command)
    print(f"report: {args.report}")


if __name__ == "__main__":
    main()
