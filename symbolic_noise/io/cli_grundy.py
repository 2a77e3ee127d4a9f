"""``symbolic-noise grundy``: nim-sequences of heap games and their periods.

``grundy CODE --upto N`` prints ``G(0..N)`` (the reference path of
:mod:`symbolic_noise.games.classical`); ``grundy CODE --until-proven`` runs the
rare-value engine (:mod:`symbolic_noise.games.rarevalue`) until the periodicity
theorem proves a period; both write progress lines on standard error every two
seconds of a long run (``--quiet``: none).

>>> from symbolic_noise.io.cli import main
>>> main(["grundy", "kayles", "--until-proven", "--quiet"])  # doctest: +ELLIPSIS
octal:0.77: period 12 from n = 71, proven by the periodicity theorem (values checked through n = 167)
  heaps computed: 168; rare heaps at the end: ... (mask 0x...); CPU ... s
  sha256 of G(0..167) as 32-bit words: ...
0
"""

from __future__ import annotations

import json
import os
import sys
import time

from . import readers, reports
from ..games.provenance import ruleset_record
from ..errors import SymbolicNoiseError

#: the JSON contracts of ``grundy`` and of ``grundy --until-proven``
SEQUENCE_FORMAT = "symbolic-noise.nim-sequence/1"
PROOF_FORMAT = "symbolic-noise.periodicity-run/1"

#: largest n of ``grundy --upto`` (its values take 4 bytes each, and a nim-sequence of 10^7 a few seconds)
MAX_UPTO = 10**7
#: the largest ``--max-heap`` (the values take 2 bytes a heap; the peak, measured on .1777, about 4.3: under 5 GB)
MAX_HEAP_CAP = 1 << 30


def run(args, emit) -> int:
    """The ``grundy`` command: exit status 0, or 2 (one line on standard error) past the heap cap."""
    if args.until_proven:
        return _until_proven(args, emit)
    from ..games.classical import sequence_report

    upto = 100 if args.upto is None else args.upto
    rep = sequence_report(args.game, upto, period=args.period, progress=_upto_writer(args.game, upto, args.quiet))
    if args.format == "json":
        from ..games.heapgames import heap_rules_from_spec

        meta = ruleset_record(rep.game, heap_rules_from_spec(rep.game).describe(),
                              method="nim-sequence: mex" + (", periodicity theorem" if args.period else ""))
        emit(reports.dumps({"format": SEQUENCE_FORMAT, "meta": meta, **rep.as_json()}), args)
        return 0
    lines = [f"G(0..{upto}) of {rep.game}:"]
    values = [str(v) for v in rep.values]
    for i in range(0, len(values), 20):
        lines.append(f"  {i:>6}: " + " ".join(values[i : i + 20]))
    if args.period:
        per = rep.periodicity
        if per is None:
            lines.append(f"no ultimate period found in G(0..{upto})")
        else:
            how = (
                f"proven by the periodicity theorem (values checked through n = {per.needed})"
                if per.proven
                else "not proven (no periodicity theorem applies, or too few values: raise --upto)"
            )
            lines.append(f"period {per.period} from n = {per.preperiod}; {how}")
    emit("\n".join(lines) + "\n", args)
    return 0


def _lines(quiet: bool, every: float, text):
    """A progress callback writing ``text(*args)`` as one line to standard error
    at most every ``every`` seconds (never with ``quiet``)."""
    last = [time.monotonic()]

    def progress(*args) -> None:
        now = time.monotonic()
        if quiet or now - last[0] < every:
            return
        last[0] = now
        sys.stderr.write(text(*args) + "\n")
        sys.stderr.flush()

    return progress


def _progress_writer(game: str, quiet: bool, every: float = 2.0):
    """The progress lines of ``--until-proven``: heap, rare heaps, candidate period."""

    def text(heap: int, rare: int, candidate) -> str:
        cand = f"candidate period {candidate[1]:,} from {candidate[0]:,}" if candidate else "no candidate period yet"
        return f"grundy {game}: heap {heap:,}, {rare:,} rare heaps, {cand}"

    return _lines(quiet, every, text)


def _upto_writer(game: str, upto: int, quiet: bool, every: float = 2.0):
    """The progress lines of ``--upto``: heap of upto (and rare heaps, for the rare/common split).

    >>> import io, contextlib
    >>> err = io.StringIO()
    >>> with contextlib.redirect_stderr(err):
    ...     _upto_writer("0.137", 1000, False, every=0)(500, 12)
    >>> err.getvalue().strip()
    'grundy 0.137: heap 500 of 1,000, 12 rare heaps'
    """

    def text(heap: int, rare=None) -> str:
        return f"grundy {game}: heap {heap:,} of {upto:,}" + ("" if rare is None else f", {rare:,} rare heaps")

    return _lines(quiet, every, text)


CHECKPOINT_FORMAT = "symbolic-noise nim-sequence checkpoint"


def _digest(values) -> str:
    from ..games.rarevalue import words_sha256

    return words_sha256(values)


def save_checkpoint(path: str, game: str, values) -> None:
    """Write ``G(0..m-1)`` of ``game`` to ``path``: one JSON header line (format,
    game, heaps, dtype, the SHA-256 of the values as 32-bit words), then the
    values as raw little-endian words; written to a side file, then renamed."""
    import numpy as np

    values = np.asarray(values)
    dtype = "<u2" if values.dtype.itemsize == 2 else "<u4"
    head = {"format": CHECKPOINT_FORMAT, "version": 1, "game": game, "heaps": int(values.shape[0]),
            "dtype": dtype, "sha256": _digest(values)}
    side = f"{path}.part"
    readers.write_bytes(side, json.dumps(head).encode() + b"\n" + values.astype(dtype).tobytes(), "a checkpoint")
    os.replace(side, path)


def load_checkpoint(path: str, game: str):
    """The values of a checkpoint of ``game`` written by :func:`save_checkpoint`;
    a file of another game, or whose values do not match their SHA-256, is refused."""
    import numpy as np

    data = readers.read_bytes(path, "the checkpoint", cap=4 * MAX_HEAP_CAP + 4096)
    line, _, body = data.partition(b"\n")
    try:
        head = readers.loads(line.decode("utf-8"), "the checkpoint header")
        ok = isinstance(head, dict) and head.get("format") == CHECKPOINT_FORMAT and head.get("dtype") in ("<u2", "<u4")
        values = np.frombuffer(body, dtype=head["dtype"]) if ok else None
    except (UnicodeDecodeError, ValueError, KeyError):
        ok = False
    name = readers.shown(path)
    if not ok:
        raise SymbolicNoiseError(f"{name} is not a nim-sequence checkpoint")
    if head.get("game") != game:
        raise SymbolicNoiseError(f"the checkpoint {name} is of {head.get('game')!r}, not of {game}")
    if values.shape[0] != head.get("heaps") or _digest(values) != head.get("sha256"):
        raise SymbolicNoiseError(f"the checkpoint {name} is damaged: its values do not match its header")
    return values


def _until_proven(args, emit) -> int:
    from ..errors import GameParameterError, HeapCapError
    from ..games.rarevalue import prove_period
    from ..games.heapgames import heap_rules_from_spec

    if args.upto is not None or args.period:
        raise GameParameterError("--until-proven finds its own end: leave out --upto and --period")
    if args.certificate:
        readers.check_writable(args.certificate, "the certificate")
    rules = heap_rules_from_spec(args.game)
    resume, on_chunk = None, None
    if args.checkpoint:
        if os.path.exists(args.checkpoint):
            resume = load_checkpoint(args.checkpoint, rules.key())
            if not args.quiet:
                sys.stderr.write(f"grundy {rules.key()}: resumed at heap {resume.shape[0]:,} from {readers.shown(args.checkpoint)}\n")
        else:
            readers.check_writable(args.checkpoint, "the checkpoint")
        last, latest = [time.monotonic()], [None]

        def on_chunk(values) -> None:
            latest[0] = values
            if time.monotonic() - last[0] >= args.checkpoint_every:
                save_checkpoint(args.checkpoint, rules.key(), values)
                last[0] = time.monotonic()

    cpu = time.process_time()
    try:
        run_ = prove_period(
            rules, max_heap=args.max_heap, progress=_progress_writer(rules.key(), args.quiet),
            resume=resume, on_chunk=on_chunk,
        )
    except (HeapCapError, KeyboardInterrupt):  # keep what was computed, for a later run
        if on_chunk is not None and latest[0] is not None:
            save_checkpoint(args.checkpoint, rules.key(), latest[0])
        raise
    cpu = time.process_time() - cpu
    if args.certificate:
        from ..analysis.periodcert import periodicity_certificate

        readers.write_text(args.certificate, json.dumps(periodicity_certificate(run_)) + "\n", "the certificate")
    per = run_.periodicity
    digest = run_.sha256()
    if args.format == "json":
        emit(reports.dumps({
            "format": PROOF_FORMAT, "meta": ruleset_record(run_.game, rules.describe(), method="nim-sequence: rare-value, periodicity theorem"),
            "game": run_.game, "preperiod": per.preperiod, "period": per.period, "proven": True,
            "needed": per.needed, "heaps": run_.heaps, "rare_mask": run_.mask, "rare_position_bit": run_.position_bit,
            "rare_count": run_.rare_count, "sha256": digest, "cpu_seconds": round(cpu, 3),
        }), args)
        return 0
    pos = " and the heap's parity" if run_.position_bit else ""
    emit(
        f"{run_.game}: period {per.period} from n = {per.preperiod}, proven by the periodicity theorem"
        f" (values checked through n = {per.needed})\n"
        f"  heaps computed: {run_.heaps:,}; rare heaps at the end: {run_.rare_count:,}"
        f" (mask {run_.mask:#x}{pos}); CPU {cpu:.2f} s\n"
        f"  sha256 of G(0..{run_.heaps - 1}) as 32-bit words: {digest}\n",
        args,
    )
    return 0


def verify_file(data: dict, name: str) -> int:
    """``verify`` of a periodicity certificate: 0 and ``verified ...``, or 1 and ``REJECTED ...``."""
    from ..analysis.periodcert import verify_periodicity
    from ..errors import VerificationError

    try:
        claim = verify_periodicity(data)
    except (VerificationError, SymbolicNoiseError) as exc:
        sys.stdout.write(f"REJECTED {readers.shown(name)}: {' '.join(str(exc).split())[:400]}\n")
        return 1
    sys.stdout.write(f"verified: {claim}\n")
    return 0


def add_parser(sub, upto_type, heap_cap_type, emit) -> None:
    """Register ``grundy`` on the command line's subparsers."""
    g = sub.add_parser(
        "grundy", help="nim-sequence G(0..n) of a heap game, and its periodicity",
        description="G(0..UPTO) by the reference method, or (--until-proven) the rare-value engine run until "
        "the periodicity theorem proves the period of an octal game.",
    )
    g.add_argument("game", help="a heap ruleset: 0.137, octal:4.3, kayles, lasker, grundy, subtraction:1,2,3, hex:CODE ...")
    g.add_argument("--upto", type=upto_type, default=None, help=f"compute G(0..UPTO) (default 100, at most {MAX_UPTO:,})")
    g.add_argument("--period", action="store_true", help="find the ultimate period and prove it when a theorem applies")
    g.add_argument(
        "--until-proven", action="store_true",
        help="octal games: compute by the rare/common split until the periodicity theorem holds",
    )
    g.add_argument(
        "--max-heap", type=heap_cap_type, default=1 << 26, metavar="N",
        help=f"with --until-proven: stop with an error past heap N (default {1 << 26:,}; about 4.3 bytes a heap at the peak, as measured on .1777; at most {MAX_HEAP_CAP:,})",
    )
    g.add_argument(
        "--checkpoint", metavar="FILE",
        help="with --until-proven: resume from FILE if it exists, and save the values there as the run goes",
    )
    g.add_argument(
        "--checkpoint-every", type=float, default=60.0, metavar="SECONDS",
        help="with --checkpoint: save at most this often (default 60)",
    )
    g.add_argument(
        "--certificate", metavar="FILE",
        help="with --until-proven: write a periodicity certificate (octal codes), checked by `symbolic-noise verify FILE`",
    )
    g.add_argument("--quiet", action="store_true", help="no progress lines on standard error")
    g.add_argument("--format", choices=("text", "json"), default="text")
    g.add_argument("-o", "--output", help="write to this file instead of standard output")
    g.set_defaults(func=lambda args: run(args, emit))
