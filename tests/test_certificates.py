"""Certificates: they hold where the mathematics says, fail with exact
counterexamples where it does not, and survive independent re-verification
(while tampered ones do not)."""

import copy
import json
from fractions import Fraction

import pytest
from flint import fmpq, fmpz_poly
from hypothesis import example, given, settings
from hypothesis import strategies as st

from symbolic_noise import Chomp, Nim, solve
from symbolic_noise.analysis.certificates import (
    Statement,
    StatementError,
    VerificationError,
    certificate_document,
    check,
    check_family,
    document_text,
    verify,
)
from symbolic_noise.games.heapgames import MultiNim
from symbolic_noise.solvers.storage import codec

import fraction_reference  # noqa: E402  (pytest puts tests/ on sys.path)

N5 = solve(Nim(5), "binary")
CHOMP = solve(Chomp(2, 2), "king")


@pytest.mark.parametrize(
    "text",
    [
        "N >= 1/2 on [0, 1/2]",
        "N >= 45/100 on [0, 1]",
        "N <= 1 on [0, 1]",
        "optimal 0 on [0, 1/2]",
        "optimal 3 on [1/2, 3/4]",
        "optimal 4 on [4/5, 1]",
        "optimal-set {0} on [0, 49/100]",
        "optimal-set {4} on [4/5, 99/100]",
        "|2N-1| < 1/10 on [2/5, 3/5]",
        "N == 1/2 on [1/2, 1/2]",
    ],
)
def test_true_statements_have_certificates_that_verify(text):
    cert = check(N5, text)
    assert cert.holds and cert.counterexample is None
    data = json.loads(json.dumps(cert.to_json()))
    assert verify(data) is True  # the values proved by the Bellman check, the statement re-derived


@pytest.mark.parametrize(
    "text,point",
    [
        ("N >= 1/2 on [1/2, 1]", None),  # N_5 dips below 1/2 above the breakpoint 0.7623
        ("optimal 3 on [1/2, 4/5]", None),
        ("optimal-set {0} on [0, 1/2]", "1/2"),  # at p = 1/2 every move is optimal
        ("|2N-1| < 1/100 on [0, 1]", "0"),
        ("N == 1/2 on [0, 1/2]", None),
    ],
)
def test_false_statements_have_exact_counterexamples(text, point):
    cert = check(N5, text)
    assert not cert.holds
    ce = cert.counterexample
    if point is not None:
        assert ce["p"] == point
    # the counterexample really violates the statement, by exact evaluation
    st = Statement.parse(text)
    if ce["p"].startswith("CRootOf"):
        return
    p = fmpq(*map(int, ce["p"].split("/"))) if "/" in ce["p"] else fmpq(int(ce["p"]))
    res = N5.at(p)
    moves = N5.move_values()
    if st.kind == "ge":
        assert res.value < st.value
    elif st.kind == "fair":
        assert abs(2 * res.value - 1) >= st.value
    elif st.kind == "eq":
        assert res.value != st.value
    elif st.kind == "optimal":
        assert st.value not in res.optimal and moves[st.value](p) < res.value
    else:
        assert res.optimal != st.value


def test_chomp_2x2_statements():
    assert check(CHOMP, "optimal-set {(1,2), (2,1)} on [0, 3/10]").holds
    assert check(CHOMP, "optimal (2,2) on [1/3, 1]").holds
    assert check(CHOMP, "N >= 1/3 on [0, 1]").holds  # max{p, (1-p)/2} >= 1/3, equality at 1/3
    cert = check(CHOMP, "N >= 34/100 on [0, 1]")
    assert not cert.holds
    # N < 34/100 exactly on (32/100, 34/100): the counterexample lies there
    p = fmpq(*map(int, cert.counterexample["p"].split("/")))
    assert fmpq(32, 100) < p < fmpq(34, 100) and CHOMP.at(p).value < fmpq(34, 100)


def _value_row(data, position):
    return next(row for row in data["values"] if row[0] == position)[1]


def test_tampered_certificates_are_rejected():
    data = check(N5, "N >= 1/2 on [0, 1/2]").to_json()
    # a coefficient of the stated position's value changed
    bad = copy.deepcopy(data)
    num = _value_row(bad, 5)["formulas"][0][0]
    num[0] = str(int(num[0]) + 1)
    with pytest.raises(VerificationError, match="position 5"):
        verify(bad)
    # a false statement with the file's own formula made to fit it (N_5 replaced by 1)
    lie = copy.deepcopy(data)
    lie["claims"][0]["statement"] = "N >= 9/10 on [0, 1/2]"
    _value_row(lie, 5).update({"points": ["0", "1"], "formulas": [[["1"], ["1"]]], "labels": [[0]], "point_labels": [[0], [0]]})
    with pytest.raises(VerificationError, match="value of no sent move"):
        verify(lie)
    # the same statement said of another position, game, channel or play
    moved = copy.deepcopy(data)
    moved["claims"][0]["position"] = 4  # a true statement of N_4 as well: it verifies, and is true
    assert verify(moved) and check(solve(Nim(4), "binary"), "N >= 1/2 on [0, 1/2]").holds
    moved["claims"][0]["position"] = 2  # N_2 = 1 - p on [0, 1/2] (theory.md 3.1): true there too
    assert verify(moved)
    moved["claims"][0]["statement"] = "N >= 3/5 on [0, 3/4]"  # false: N_2(1/2) = 1/2
    with pytest.raises(VerificationError):
        verify(moved)
    bigger = copy.deepcopy(data)
    bigger["game"]["param"] = "6"  # position 5 of Nim(6) is position 5 of Nim(5): still true, still proved
    assert verify(bigger)
    for change in (
        lambda d: d["game"].update(param="4"),
        lambda d: d["game"].update(family="kayles"),
        lambda d: d.update(channel={"name": "uniform"}),
        lambda d: d.update(misere=True),
        lambda d: d.update(interval=["0", "3/4"]),
        lambda d: d["claims"][0].update(verdict="fails"),
    ):
        forged = copy.deepcopy(data)
        change(forged)
        with pytest.raises(VerificationError):
            verify(forged)
    # certificates carry no optimal-move sets (the verifier finds them from
    # psi); sets a file does carry are claims, proved: the true ones verify,
    # a position's optimal move changed in them is refused
    opt = check(N5, "optimal 3 on [1/2, 3/4]").to_json()
    assert all(row[1]["labels"] is None and row[1]["point_labels"] is None for row in opt["values"])
    true_sets = codec.encode(solve(Nim(5), "binary").value(5))
    labelled = copy.deepcopy(opt)
    _value_row(labelled, 5).update(true_sets)
    assert verify(labelled)
    relabelled = copy.deepcopy(labelled)
    _value_row(relabelled, 5)["labels"] = [[2] for _ in true_sets["labels"]]
    with pytest.raises(VerificationError, match="optimal move"):
        verify(relabelled)
    wrong = copy.deepcopy(opt)
    wrong["claims"][0]["statement"] = "optimal 2 on [1/2, 3/4]"
    with pytest.raises(VerificationError, match="fails, not as the certificate says"):
        verify(wrong)


def test_old_format_is_refused_with_how_to_reissue():
    old = {"format": "symbolic-noise.certificate/1", "statement": "N >= 1/2 on [0, 1/2]", "position": 5,
           "verdict": "holds", "pieces": []}
    with pytest.raises(VerificationError, match="re-issue it with: symbolic-noise check"):
        verify(old)


def test_heap_game_statements():
    sol = solve(MultiNim((1, 2)), "uniform")
    assert check(sol, "N == 1/2 on [0, 1]").holds  # Corollary 8: an O-position is fair
    assert check(sol, "optimal-set {2->0, 2->1, 1->0} on [0, 1]").holds


@pytest.mark.parametrize(
    "text",
    ["N >= on [0,1]", "N >= 1/2", "optimal on [0, 1]", "N >= 1/2 on [1, 0]", "|2N-1| < 0 on [0, 1]", "N >= 0.5.1 on [0,1]"],
)
def test_unreadable_statements(text):
    with pytest.raises(StatementError):
        check(N5, text)


def test_unknown_move():
    with pytest.raises(StatementError):
        check(N5, "optimal 7 on [0, 1]")


@settings(max_examples=30, deadline=None)
@given(
    p=st.sampled_from([Fraction(0), Fraction(1, 2), Fraction(1)])
    | st.fractions(min_value=0, max_value=1, max_denominator=40),
    members=st.sets(st.integers(0, 4), min_size=1),
)
@example(p=Fraction(1, 2), members={0, 1, 2, 3, 4})
@example(p=Fraction(1, 2), members={3, 4})
def test_optimal_sets_at_a_single_point_against_backward_induction(p, members):
    """At a single point p, 'optimal-set S on [p, p]' holds exactly when S is
    the set of moves of largest value at p, by backward induction in plain
    Fractions (at p = 1/2 every move of Nim through the binary channel ties:
    the received heap is uniform, whatever is sent)."""
    _, best, _ = fraction_reference.nim(5, "binary", p)[5]
    text = "optimal-set {" + ", ".join(map(str, sorted(members))) + f"}} on [{p}, {p}]"
    cert = check(N5, text)
    assert cert.holds == (members == set(best))
    if not cert.holds:  # the counterexample names two moves whose comparison breaks the claim
        assert cert.counterexample["p"] == str(p)
    assert verify(json.loads(json.dumps(cert.to_json()))) is True  # the verdict is the one verify re-derives


def _fraction(text: str) -> Fraction:
    return Fraction(text)


N3 = solve(Nim(3), "binary")


def test_check_family_against_the_closed_form_of_nim_3():
    """N_3(p) = (1 - p + p^2)/(1 + p) on [0, 1/2] (the paper), and N_3 - 1/2 =
    (2p - 1)(p - 1)/(2(1 + p)) >= 0 there; N_5 < 1/2 at 7/10 and N_3 < 1/2 at
    7/10, above 0.505 at 3/5 (backward induction).  The family's certificates
    say so, key by key, with a dict of statements or a function of the key,
    and the counterexample's N is backward induction in Fractions at its p."""
    sols = {3: (N3, 3), 5: (N5, 5)}
    by_dict = check_family(sols, {3: "N >= 1/2 on [0, 1/2]", 5: "N >= 1/2 on [1/2, 1]"})
    assert set(by_dict) == {3, 5} and by_dict[3].holds and not by_dict[5].holds
    by_fn = check_family({3: (N3, 3)}, lambda k: f"N >= 1/2 on [0, {k}/4]")
    cert = by_fn[3]
    assert cert.statement == Statement.parse("N >= 1/2 on [0, 3/4]") and not cert.holds
    ce = cert.counterexample
    p = _fraction(ce["p"])
    assert Fraction(3, 5) < p <= Fraction(3, 4)
    n = _fraction(ce["N"])
    assert n == fraction_reference.nim(3, "binary", p)[3][0] < Fraction(1, 2)
    assert Fraction(ce["N_decimal"]) - n < Fraction(1, 10**19) and abs(Fraction(ce["p_decimal"]) - p) < Fraction(1, 10**19)


def test_counterexamples_of_optimality_carry_both_moves_values():
    """A refuted 'optimal 3 on [1/2, 4/5]' names p and the values of the
    claimed move and of a better one there, equal to backward induction in
    Fractions, the better one larger."""
    cert = check(N5, "optimal 3 on [1/2, 4/5]")
    ce = cert.counterexample
    p = _fraction(ce["p"])
    _, best, moves = fraction_reference.nim(5, "binary", p)[5]
    named = {k[2:-1]: _fraction(v) for k, v in ce.items() if k.startswith("N(") and not k.endswith("_decimal")}
    assert "3" in named and len(named) == 2
    (other,) = set(named) - {"3"}
    assert named["3"] == moves[3] and named[other] == moves[int(other)] and named[other] > named["3"]
    assert abs(Fraction(ce[f"N({other})_decimal"]) - named[other]) < Fraction(1, 10**19)


def test_document_text_is_the_document_one_claim_and_one_value_per_line():
    """document_text is JSON of the same document, with one line per claim and
    per value (and three lines around them)."""
    doc = certificate_document([check(N5, "N >= 1/2 on [0, 1/2]"), check(N5, "optimal 0 on [0, 1/2]")])
    text = document_text(doc)
    assert json.loads(text) == doc and text.endswith("]}\n")
    lines = text.splitlines()
    assert len(lines) == len(doc["claims"]) + len(doc["values"]) + 3
    assert all(json.loads(lines[1 + i].rstrip(",")) == c for i, c in enumerate(doc["claims"]))
    assert verify(json.loads(text)) is True


def _point(d: dict):
    """A breakpoint of a certificate, exactly: a rational, or the root of its polynomial in (lo, hi]."""
    from symbolic_noise.exact.algebraic import RealAlgebraic

    if "poly" not in d:
        return RealAlgebraic.rational(fmpq(*Fraction(d["exact"]).as_integer_ratio()))
    return RealAlgebraic.root(fmpz_poly([int(c) for c in d["poly"]]), fmpq(*Fraction(d["lo"]).as_integer_ratio()),
                              fmpq(*Fraction(d["hi"]).as_integer_ratio()))


def _at(rf: dict, t: Fraction) -> Fraction:
    """A certificate's formula {num, den} (coefficients from degree 0) at t."""
    ev = lambda cs: sum(Fraction(int(c)) * t**i for i, c in enumerate(cs))  # noqa: E731
    return ev(rf["num"]) / ev(rf["den"])


@pytest.mark.parametrize(
    "text,n",
    [("N >= 1/2 on [0, 1/2]", 5), ("N >= 1/2 on [1/2, 3/5]", 5), ("N >= 45/100 on [0, 1]", 5), ("|2N-1| < 1/10 on [2/5, 3/5]", 5),
     ("N <= 1 on [0, 1]", 3), ("optimal 0 on [0, 1/2]", 5), ("optimal-set {4} on [4/5, 99/100]", 5)],
)
def test_the_reasons_of_a_certificate_are_true(text, n):
    """Every reason a certificate gives, re-checked from its own text: each
    piece's formulas are N (and each move's value) by backward induction in
    Fractions at the sample points; each sign claim's polynomial g has the
    stated sign at each sample point, which lies strictly between the piece's
    ends and the listed roots; the roots are roots of g strictly inside; the
    ends' signs are g's; and the signs are the ones the claim needs."""
    sol = {3: N3, 5: N5}[n]
    cert = check(sol, text)
    assert cert.holds and cert.pieces
    for entry in cert.pieces:
        lo, hi = _point(entry["lo"]), _point(entry["hi"])
        assert lo.compare(hi) < 0
        for end, x in ((entry["lo"], lo), (entry["hi"], hi)):  # the 20-digit decimals of the ends
            assert x.compare(fmpq(*Fraction(end["decimal"]).as_integer_ratio()) - fmpq(1, 10**19)) > 0
            assert x.compare(fmpq(*Fraction(end["decimal"]).as_integer_ratio()) + fmpq(1, 10**19)) < 0
        for claim in entry["claims"]:
            if claim["kind"] != "sign":
                assert claim["kind"] == "identical"
                continue
            g = fmpz_poly([int(c) for c in claim["g"]])
            roots = [_point(r) for r in claim["roots"]]
            cuts = [lo, *roots, hi]
            assert all(x.compare(y) < 0 for x, y in zip(cuts, cuts[1:])) and all(r.sign_of(g) == 0 for r in roots)
            assert len(claim["points"]) == len(cuts) - 1
            for (t, s), x, y in zip(claim["points"], cuts, cuts[1:]):
                t = fmpq(*Fraction(t).as_integer_ratio())
                assert x.compare(t) < 0 < y.compare(t) and (g(t) > 0) - (g(t) < 0) == s
                tf = Fraction(int(t.p), int(t.q))
                ref_n, _, ref_moves = fraction_reference.nim(n, "binary", tf)[n]
                if Statement.parse(text).kind in ("ge", "le", "eq", "fair"):
                    assert _at(entry["formula"], tf) == ref_n
                moves = entry["moves"] if Statement.parse(text).kind in ("optimal", "optimal_set") else {}
                for name, rf in moves.items():
                    assert _at(rf, tf) == ref_moves[int(name)]
            assert claim["ends"] == [lo.sign_of(g), hi.sign_of(g)]
            signs = [s for _, s in claim["points"]] + claim["ends"]
            assert all(s > 0 for s in signs) if claim["need"] == "pos" else all(s >= 0 for s in signs)


def test_a_value_claim_that_touches_its_bound_then_crosses_it():
    """N_5(1/2) = 1/2 (every move ties there) and N_5(3/5) > 1/2: 'N <= 1/2 on
    [1/2, 3/5]' fails, not at 1/2 (where it holds with equality) but at a p
    inside where N_5 > 1/2 by backward induction."""
    cert = check(N5, "N <= 1/2 on [1/2, 3/5]")
    assert not cert.holds
    p = _fraction(cert.counterexample["p"])
    assert Fraction(1, 2) < p <= Fraction(3, 5)
    assert _fraction(cert.counterexample["N"]) == fraction_reference.nim(5, "binary", p)[5][0] > Fraction(1, 2)


def test_identical_values_against_a_strict_claim():
    """Nim from a heap of 1 has one move: N = 1 identically.  |2N - 1| < 1 is
    then 1 < 1, false everywhere (an identically zero margin is no strict
    inequality); 'N >= 1' holds identically.  In Chomp 2x2 the moves (1,2) and
    (2,1) are mirror images, equal identically: neither alone is the optimal set."""
    one = solve(Nim(1), "binary")
    for text, where in [("|2N-1| < 1 on [0, 1]", (0, 1)), ("|2N-1| < 1 on [1/3, 1/3]", (Fraction(1, 3),) * 2)]:
        cert = check(one, text)
        assert not cert.holds and where[0] <= _fraction(cert.counterexample["p"]) <= where[1]
        assert cert.counterexample["N"] == "1"
    assert check(one, "N >= 1 on [0, 1]").holds
    cert = check(CHOMP, "optimal-set {(1,2)} on [0, 3/10]")
    assert not cert.holds
    ce = cert.counterexample
    assert 0 <= _fraction(ce["p"]) <= Fraction(3, 10) and ce["N((1,2))"] == ce["N((2,1))"]


def test_chomp_and_misere_certificates_verify():
    """A Chomp certificate names its position as a list (the JSON of a tuple)
    and verifies; a misère certificate says so, and verifies (its values are
    misère values: N = 1 at the terminal position)."""
    cert = check(CHOMP, "optimal (2,2) on [1/3, 1]")
    doc = json.loads(json.dumps(cert.to_json()))
    assert doc["claims"][0]["position"] == [list(x) if isinstance(x, tuple) else x for x in CHOMP.start]
    assert doc["claims"][0]["verdict"] == "holds" and len(doc["claims"][0]["pieces"]) == len(cert.pieces)
    assert verify(doc) is True
    mis = solve(Nim(3), "binary", misere=True)
    # misère Nim from 3 through a noiseless channel at p = 0: taking to 1 leaves the opponent the last chip
    assert mis.at(fmpq(0)).value == 1 == fraction_reference.nim(3, "binary", Fraction(0), misere=True)[3][0]
    cert = check(mis, "N >= 1/2 on [0, 1/10]")
    doc = json.loads(json.dumps(cert.to_json()))
    assert doc["misere"] is True and cert.holds and verify(doc) is True
    from symbolic_noise import __version__

    assert doc["software"] == f"symbolic_noise {__version__}" and doc["format"] == "symbolic-noise.certificate/2"
    doc["claims"][0]["verdict"] = "fails"
    with pytest.raises(VerificationError):
        verify(doc)


def test_failed_claims_carry_their_counterexample_and_documents_need_solutions():
    cert = check(N5, "N >= 1/2 on [1/2, 1]")
    claim = cert.to_json()["claims"][0]
    assert claim["verdict"] == "fails" and claim["counterexample"] == cert.counterexample
    from symbolic_noise.analysis.certificates import Certificate

    orphan = Certificate(Statement.parse("N >= 0 on [0, 1]"), 5, True)
    for certs in ([orphan], [cert, orphan]):
        with pytest.raises(StatementError, match="know their solution"):
            certificate_document(certs)


@pytest.mark.parametrize("point", ["0", "1/3", "1/2", "9/10"])
def test_value_statements_at_a_single_point_against_backward_induction(point):
    """At a single point p, 'N >= c', 'N <= c' and 'N == c' hold exactly as
    backward induction in Fractions says, for c = N_5(p) and its neighbours."""
    p = Fraction(point)
    n = fraction_reference.nim(5, "binary", p)[5][0]
    for c, ge, le in [(n, True, True), (n + Fraction(1, 1000), False, True), (n - Fraction(1, 1000), True, False)]:
        assert check(N5, f"N >= {c} on [{p}, {p}]").holds is ge
        assert check(N5, f"N <= {c} on [{p}, {p}]").holds is le
        assert check(N5, f"N == {c} on [{p}, {p}]").holds is (ge and le)
        for op in (">=", "<=", "=="):
            cert = check(N5, f"N {op} {c} on [{p}, {p}]")
            assert cert.holds or (cert.counterexample["p"] == str(p) and _fraction(cert.counterexample["N"]) == n)
    cert = check(N5, f"N == {n} on [{p}, {p}]")
    assert [c["kind"] for e in cert.pieces for c in e["claims"]] == ["point"]
    assert cert.pieces[0]["claims"][0]["ends"] == [0, 0]  # N - c is 0 at both ends of [p, p]


def test_equalities_and_their_counterexamples():
    """N_3 = (1 - p + p^2)/(1 + p) on [0, 1/2] (the paper) is 13/20 at 1/4 only:
    'N == 13/20 on [0, 1/2]' fails at a point where N_3 is not 13/20 (not at
    1/4, the simplest point of the piece); Nim from 1 has N = 1 identically,
    an identity certificate."""
    cert = check(N3, "N == 13/20 on [0, 1/2]")
    assert not cert.holds
    p = _fraction(cert.counterexample["p"])
    n = _fraction(cert.counterexample["N"])
    assert 0 <= p <= Fraction(1, 2) and n == (1 - p + p * p) / (1 + p) != Fraction(13, 20)
    one = check(solve(Nim(1), "binary"), "N == 1 on [0, 1]")
    assert one.holds and [c["kind"] for e in one.pieces for c in e["claims"]] == ["identical"]


def test_statements_about_another_position_and_outside_the_interval():
    """N_3(2/5) = 0.5428... >= 27/50 > 0.5178... = N_5(2/5) (backward
    induction): the position argument decides which value is checked.  A
    statement reaching outside the solved interval is refused, at either end."""
    assert fraction_reference.nim(3, "binary", Fraction(2, 5))[3][0] >= Fraction(27, 50)
    assert fraction_reference.nim(5, "binary", Fraction(2, 5))[5][0] < Fraction(27, 50)
    assert check(N5, "N >= 27/50 on [2/5, 2/5]", 3).holds
    assert not check(N5, "N >= 27/50 on [2/5, 2/5]").holds
    half = solve(Nim(3), "binary", (fmpq(1, 4), fmpq(1, 2)))
    for text in ("N >= 0 on [1/3, 3/4]", "N >= 0 on [0, 1/3]"):
        with pytest.raises(StatementError, match="outside the solved interval"):
            check(half, text)


def test_fairness_fails_where_n_is_far_below_one_half():
    """N_3 <= 171/910 < 1/4 on [9/10, 1] (backward induction: 171/910 at
    9/10, 0 at 1): |2N - 1| < 1/2 fails there, by its second half
    (2N - 1 > -1/2), at a point where backward induction agrees."""
    cert = check(N3, "|2N-1| < 1/2 on [9/10, 1]")
    assert not cert.holds
    p = _fraction(cert.counterexample["p"])
    n = fraction_reference.nim(3, "binary", p)[3][0]
    assert Fraction(9, 10) <= p <= 1 and _fraction(cert.counterexample["N"]) == n and 2 * n - 1 <= Fraction(-1, 2)


@settings(max_examples=80, deadline=None)
@given(
    roots=st.lists(st.tuples(st.fractions(min_value=0, max_value=1, max_denominator=12), st.integers(1, 2)), max_size=3),
    lead=st.sampled_from([1, -1, 3]),
    a=st.fractions(min_value=0, max_value=1, max_denominator=8),
    b=st.fractions(min_value=0, max_value=1, max_denominator=8),
)
def test_sign_claims_against_the_rational_roots(roots, lead, a, b):
    """_claim(g, [a, b], need) against the signs of g = lead * prod (q p - r)^e
    between and at its rational roots, in Fractions: 'nonneg' holds exactly
    when g >= 0 on [a, b], 'pos' when g > 0 there (a double root touching 0
    inside refutes it), and a refuting point is one where g breaks the need."""
    from symbolic_noise.analysis.certificates import _claim
    from symbolic_noise.exact.algebraic import RealAlgebraic

    a, b = min(a, b), max(a, b)
    g = fmpz_poly([lead])
    for r, e in roots:
        g *= fmpz_poly([-r.numerator, r.denominator]) ** e
    val = lambda t: sum(Fraction(int(c)) * t**i for i, c in enumerate(g.coeffs()))  # noqa: E731
    zs = sorted({r for r, _ in roots if a <= r <= b})
    cuts = [a, *zs, b]
    samples = set(cuts) | {(x + y) / 2 for x, y in zip(cuts, cuts[1:])}
    lo, hi = (RealAlgebraic.rational(fmpq(t.numerator, t.denominator)) for t in (a, b))
    for need, ok in (("nonneg", lambda v: v >= 0), ("pos", lambda v: v > 0)):
        truth = all(ok(val(t)) for t in samples)
        reason, bad = _claim(g, lo, hi, need, allow_touch=True)
        assert (reason is not None) == truth
        if not truth:
            x = bad if isinstance(bad, RealAlgebraic) else RealAlgebraic.rational(bad)
            assert lo.compare(x) <= 0 <= hi.compare(x) and not ok(x.sign_of(g))


def test_optimality_at_a_single_point_of_another_position_and_its_reasons():
    """At p = 3/4 the best move from heap 3 is 1 and from heap 5 is 3
    (backward induction): 'optimal 1' holds of position 3 there and not of
    position 5.  The reasons: a member of an optimal set ties with the first
    member at a point ('point', ends [0, 0]) or identically on a piece
    (Chomp 2x2's mirror moves (1,2) and (2,1)); moves outside a position are
    refused; a counterexample's decimals have 20 digits."""
    assert fraction_reference.nim(3, "binary", Fraction(3, 4))[3][1] == {1}
    assert fraction_reference.nim(5, "binary", Fraction(3, 4))[5][1] == {3}
    assert check(N5, "optimal 1 on [3/4, 3/4]", 3).holds
    cert = check(N5, "optimal 1 on [3/4, 3/4]")
    assert not cert.holds and len(cert.counterexample["p_decimal"].split(".")[1]) == 20
    at_half = check(N5, "optimal-set {0, 1, 2, 3, 4} on [1/2, 1/2]")
    (piece,) = at_half.pieces
    assert sorted(c["against"] for c in piece["claims"]) == ["1", "2", "3", "4"]
    assert all(c["kind"] == "point" and c["ends"] == [0, 0] for c in piece["claims"])
    assert set(piece["moves"]) == {"0", "1", "2", "3", "4"}
    mirror = check(CHOMP, "optimal-set {(1,2), (2,1)} on [0, 3/10]")
    kinds = {c["against"]: c["kind"] for e in mirror.pieces for c in e["claims"]}
    assert kinds["(2,1)"] == "identical" and kinds["(2,2)"] == "sign"
    with pytest.raises(StatementError, match="are not moves"):
        check(N5, "optimal-set {0, 9} on [0, 1/2]")


def test_the_certificate_of_nim_3_carries_its_closed_form():
    """On [0, 1/2] N_3 = (1 - p + p^2)/(1 + p) (the paper): the one piece of
    the certificate of 'N >= 1/2 on [0, 1/2]' has that formula, as
    coefficients and as text, and the reason's g is the numerator of
    N_3 - 1/2 over a positive denominator, (2p - 1)(p - 1) up to a positive
    factor."""
    import sympy

    (piece,) = check(N3, "N >= 1/2 on [0, 1/2]").pieces
    assert piece["formula"]["num"] == ["1", "-1", "1"] and piece["formula"]["den"] == ["1", "1"]
    p = sympy.Symbol("p")
    assert sympy.simplify(sympy.sympify(piece["formula"]["text"], locals={"p": p}) - (1 - p + p**2) / (1 + p)) == 0
    (claim,) = piece["claims"]
    g = sympy.Poly([int(c) for c in reversed(claim["g"])], p)
    ratio = sympy.cancel(g.as_expr() / ((2 * p - 1) * (p - 1)))
    assert ratio.is_number and ratio > 0


def test_position_digits_and_summaries_reach_every_kind_of_statement():
    """Heap 3's best move on [13/20, 4/5] is 1, heap 5's is 3 or 4 (backward
    induction at sample points; the certificate proves it on the whole
    interval): 'optimal 1' holds of position 3 and not of 5, also through
    check_family.  digits sets the decimals of counterexamples; full=False
    keeps only the summary of each piece.  A member of an optimal set that is
    not identical to the first is refuted where the two differ."""
    for p in (Fraction(13, 20), Fraction(3, 4), Fraction(4, 5)):
        assert fraction_reference.nim(3, "binary", p)[3][1] == {1} and 1 not in fraction_reference.nim(5, "binary", p)[5][1]
    assert check(N5, "optimal 1 on [13/20, 4/5]", 3).holds and not check(N5, "optimal 1 on [13/20, 4/5]").holds
    fam = check_family({"3 in 5": (N5, 3), "5": (N5, 5)}, lambda k: "N >= 27/50 on [2/5, 2/5]")
    assert fam["3 in 5"].holds and not fam["5"].holds
    for text in ("N >= 1 on [1/3, 1/3]", "N >= 1 on [0, 1/3]", "optimal 1 on [3/4, 3/4]"):
        ce = check(N5, text, digits=30).counterexample
        assert all(len(v.split(".")[1]) == 30 for k, v in ce.items() if k.endswith("_decimal"))
    for text in ("N >= 1/2 on [0, 1/2]", "optimal 0 on [0, 1/2]"):
        short = check(N5, text, full=False)
        assert short.holds and all(set(piece) == {"lo", "hi", "claims"} for piece in short.pieces)
        assert all("g" not in c for piece in short.pieces for c in piece["claims"])
    cert = check(N5, "optimal-set {0, 1} on [0, 1/2]")
    ce = cert.counterexample
    p = _fraction(ce["p"])
    _, _, moves = fraction_reference.nim(5, "binary", p)[5]
    assert not cert.holds and 0 <= p <= Fraction(1, 2)
    assert _fraction(ce["N(0)"]) == moves[0] != moves[1] == _fraction(ce["N(1)"])


@settings(max_examples=60, deadline=None)
@given(
    num=st.lists(st.integers(-5, 5), min_size=1, max_size=3).filter(any),
    den=st.lists(st.integers(-5, 5), min_size=1, max_size=3).filter(any),
    t=st.fractions(min_value=0, max_value=1, max_denominator=50),
)
def test_the_sign_numerator_has_the_sign_of_the_function(num, den, t):
    """_sign_numerator(f, t) is f's numerator over a denominator positive at t:
    its sign at t is the sign of f(t) (in Fractions), also where f's
    denominator is negative (1/(1 - 2p) at p > 1/2: a pole outside the piece)."""
    from symbolic_noise.analysis.certificates import _sign_numerator
    from symbolic_noise.exact.ratfunc import RationalFunction

    ev = lambda cs: sum(Fraction(c) * t**i for i, c in enumerate(cs))  # noqa: E731
    if ev(den) == 0:
        return
    f = RationalFunction(fmpz_poly(num), fmpz_poly(den))
    g = _sign_numerator(f, fmpq(t.numerator, t.denominator))
    value = ev(num) / ev(den)
    gt = g(fmpq(t.numerator, t.denominator))
    assert (gt > 0) - (gt < 0) == (value > 0) - (value < 0)


def test_the_sign_numerator_of_a_piece_beyond_a_pole():
    from symbolic_noise.analysis.certificates import _sign_numerator
    from symbolic_noise.exact.ratfunc import RationalFunction

    g = _sign_numerator(RationalFunction(fmpz_poly([1]), fmpz_poly([1, -2])), fmpq(7, 10))  # 1/(1 - 2p) = -5/2
    assert g(fmpq(7, 10)) < 0
