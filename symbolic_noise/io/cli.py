"""The ``symbolic-noise`` command line: a thin shell over the library.

Every error the library raises on purpose becomes a one-line message on stderr
and exit status 2; there is no traceback for bad input.

Examples
--------
>>> main(["nimsum", "7", "2", "5", "3"])
nim-sum 7 ^ 2 ^ 5 ^ 3 = 3: N-position in normal play (the player to move wins)
winning moves: 7->4, 2->1, 3->0
0
"""

from __future__ import annotations

import argparse
import itertools
import os
import sys
from collections.abc import Iterable
from concurrent.futures import BrokenExecutor

from . import cli_chance, cli_grundy, cli_informed, cli_mapcert, readers, reports
from .workers import DASK_TIMEOUT, _workers, dask_address, dask_client, local_pool, stop_pools  # noqa: F401  (re-exported)
from .._version import __version__
from ..games.channels import channel_names, custom_channel_from_json, get_channel
from ..errors import (
    CacheError, GameParameterError, IntervalError, InvalidChannelError, SymbolicNoiseError, UnknownChannelError, WorkerLostError, did_you_mean,
)
from ..games.registry import FAMILIES, MAX_HEAP, default_channel_name, game_from_spec, parse_heap
from ..exact.polys import to_fraction
from ..exact.rounding import fixed
from ..solvers.piecewise import exact_interval, solve
from ..solvers.storage.stored import stored_solution
from ..solvers.piecewise.collector import fewer_collections
from ..exact.formula import exact_number, parse_whole

PROG = "symbolic-noise"
#: the JSON contract of ``solve --at``
POINT_FORMAT = "symbolic-noise.point/1"


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors and exit status 2."""

    def error(self, message):
        import re

        # argparse names the choices; say which one a misspelt word was meant to be
        bad = re.match(r"argument [\w/-]+: invalid choice: '([^']*)' \(choose from (.*)\)$", message)
        if bad:
            message += did_you_mean(bad.group(1), re.findall(r"'([^']*)'", bad.group(2)))
        self.exit(2, f"{PROG}: error: {one_line(message)}\n")


def _bounded_int(what: str, lo: int, hi: int):
    """An argparse type: a whole number in [lo, hi], in ASCII digits."""

    def parse(text: str) -> int:
        try:
            n = parse_whole(text)
        except SymbolicNoiseError:
            raise argparse.ArgumentTypeError(f"{readers.shown(text)[:40]!r} is not a whole number") from None
        if not lo <= n <= hi:
            raise argparse.ArgumentTypeError(f"{what} must be between {lo} and {hi}")
        return n

    return parse


_digits = _bounded_int("digits", 1, 10000)
_jobs = _bounded_int("--jobs", 1, 512)
MAX_UPTO = cli_grundy.MAX_UPTO
_upto = _bounded_int("--upto", 0, MAX_UPTO)
_heap_cap = _bounded_int("--max-heap", 1, cli_grundy.MAX_HEAP_CAP)


def _interval(text: str):
    parts = text.split(",")
    if len(parts) != 2:
        raise IntervalError(f"an interval is written A,B (e.g. 0,1/2), not {text!r}")
    return exact_interval((parts[0].strip(), parts[1].strip()))


#: largest JSON file read from the command line (channel files, certificates)
MAX_FILE_BYTES = readers.MAX_FILE_BYTES


#: largest certificate file read by ``verify`` (its JSON takes about 4.3 times as much memory)
MAX_CERTIFICATE_BYTES = 256 * 2**20


def _read_json(path: str, what: str, error=SymbolicNoiseError):
    """A JSON file given on the command line, read as data by
    :func:`symbolic_noise.io.readers.read_json` (capped, any failure one line
    naming the file)."""
    return readers.read_json(path, what, error, MAX_FILE_BYTES)


def _channel(args, game):
    if args.channel is not None and not args.channel.strip():
        raise UnknownChannelError("--channel needs a channel name or a channel file, not an empty word")
    return _channel_from_spec(args.channel or default_channel_name(game), game)


def _channel_from_spec(name: str, game=None):
    """The channel ``name`` names: built in, or a channel file (checked
    against ``game`` when it is given: every row's position must be one of
    the game's, reachable from its start)."""
    if not isinstance(name, str) or not name.strip():
        raise UnknownChannelError("a channel is a name or a channel file, not an empty word")
    if name.endswith(".json") or os.path.isfile(name):
        data = _read_json(name, "the custom channel file", InvalidChannelError)
        try:
            channel = custom_channel_from_json(data, name=f"custom ({os.path.basename(name)})")
            if game is not None:
                channel.check_positions(game)
        except InvalidChannelError as exc:
            raise InvalidChannelError(f"channel file {readers.shown(name)}: {exc}") from None
        return channel
    return get_channel(name)


def _position(game, text):
    return None if text is None else game.parse_position(text)


class _ProgressBar:
    """A rich progress bar on standard error, only when it is a terminal: called
    with a solve's progress record, or with ``(done, total)`` steps of ``unit``."""

    def __init__(self, game, enabled: bool, unit: str = "positions", what: str = "solving"):
        self.game = game
        self.enabled = enabled
        self.unit, self.what = unit, what
        self._progress = None

    def __enter__(self):
        if self.enabled:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            self._progress = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn(self.unit),
                TimeElapsedColumn(),
                console=Console(stderr=True),
                transient=True,
            )
            self._progress.start()
            self._task = self._progress.add_task(self.what, total=None)
        return self

    def __call__(self, info, total=None) -> None:
        if self._progress is None:
            return
        if total is not None:  # (done, total) steps
            self._progress.update(self._task, total=total, completed=info)
            return
        cur = info.current if isinstance(info.current, str) else self.game.position_label(info.current)
        where = f" p~{info.fraction:.3f}" if 0 < info.fraction < 1 else ""
        self._progress.update(self._task, total=info.total, completed=info.done, description=f"position {cur}{where}")

    def __exit__(self, *exc):
        if self._progress is not None:
            self._progress.stop()
        return False


def _warn(message: str) -> None:
    sys.stderr.write(f"{PROG}: warning: {message}\n")


def _open_cache(args, game, channel, interval):
    if getattr(args, "no_cache", False) or channel.key() is None:
        return None
    from ..solvers.storage.cache import SolutionCache, default_cache_path

    path = args.cache or default_cache_path()
    if args.cache:  # (the default folder is made when missing, a folder given is not)
        _check_cache_path(path)
    try:
        return SolutionCache(
            path, game, channel, interval, misere=args.misere, on_warning=_warn,
            verify=getattr(args, "verify_cache", False),
        )
    except (OSError, __import__("sqlite3").Error) as exc:
        raise CacheError(f"cannot open the cache {readers.shown(path)}: {exc}") from None


def _check_cache_path(path: str) -> None:
    """A cache file given by ``--cache``: its folder exists and it is a file
    that can be written (else one line, before any work)."""
    name = readers.shown(path)
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise CacheError(f"cannot open the cache {name}: the folder {readers.shown(folder)} does not exist")
    if os.path.exists(path):
        if not os.path.isfile(path):
            raise CacheError(f"cannot open the cache {name}: it is not a regular file")
        if not os.access(path, os.R_OK | os.W_OK):
            raise CacheError(f"cannot open the cache {name}: it cannot be read and written")
    elif not os.access(folder, os.W_OK):
        raise CacheError(f"cannot open the cache {name}: its folder cannot be written")


def _solve(args, report: bool = False):
    """The solution ``args`` ask for; with ``report`` (a text, JSON or LaTeX
    report of the start position follows) a parallel solve's workers also
    find its breakpoints' minimal polynomials (and for JSON their root
    indices), and refine them for the report's digits, before they stop."""
    game = game_from_spec(args.game, args.param)
    channel = _channel(args, game)
    interval = _interval(args.interval) if args.interval else (0, 1)
    start = _position(game, args.position)
    store = _open_cache(args, game, channel, interval)
    args._store = store
    quiet = args.quiet or not sys.stderr.isatty()
    if store is not None and not store.verify and not cli_informed.uses_players(args):
        # the start position is in the cache: its values are read as the
        # output asks for them, and the store stays open until main() ends
        sol = stored_solution(game, channel, interval, store, start=start, misere=args.misere)
        if sol is not None:
            return game, sol
    try:
        with _ProgressBar(game, not quiet) as bar:
            root = game.start() if start is None else start
            stored = store is not None and (not game.followers(root) or store.load(root) is not None)
            if cli_informed.uses_players(args):
                sol = cli_informed.solve_from_args(args, game, channel, _channel_from_spec, interval, start, store, bar)
            elif (args.jobs > 1 or args.dask) and not stored:
                from ..solvers.schedules.positionsplit import prefer_positions, solve_by_positions
                from ..solvers.schedules.stealing import solve_stealing

                order = game.positions(root)
                # positions an interrupted solve left in the cache are handed out, not redone
                known = {} if store is None else {v: f for v in order if (f := store.load(v)) is not None}
                executors, close = _workers(args)
                split = getattr(args, "split", "auto")
                if split == "auto":
                    split = "positions" if prefer_positions(game, order, len(executors)) else "p"
                parallel = solve_by_positions if split == "positions" else solve_stealing
                try:
                    sol = parallel(
                        game, channel, interval, executors=executors, start=start, misere=args.misere,
                        known=known, progress=bar, store=store,
                    )
                    if report:
                        from ..solvers.schedules.offload import minimal_polynomials_on, point_values_on

                        minimal_polynomials_on(sol.value().points, executors, digits=args.digits,
                                               index=args.format == "json")
                        if args.format == "json":  # (its values at breakpoints in algebraic form)
                            point_values_on(sol.value(), executors)
                except BrokenExecutor:
                    raise WorkerLostError("a worker process of --jobs died (out of memory, or killed)") from None
                finally:
                    close()
            else:
                sol = solve(game, channel, interval, start=start, misere=args.misere, store=store, progress=bar)
    finally:
        if store is not None:
            store.close()
    return game, sol


def _point_at(args):
    """``solve --at`` without the piecewise solve (the fast exact engine, or the
    cache's piecewise solution when it holds the position)."""
    from ..solvers.onepoint.fastpoint import value_at

    game = game_from_spec(args.game, args.param)
    channel = _channel(args, game)
    a, b = _interval(args.interval) if args.interval else (exact_number(0), exact_number(1))
    p = exact_number(args.at)
    if not a <= p <= b:
        raise IntervalError(f"p = {p} is outside [{a}, {b}]")
    start = _position(game, args.position)
    if args.method == "pointwise":
        from .pointgrid import certified_row

        return certified_row(game, channel, p, args.digits, start=start, misere=args.misere)
    store = _open_cache(args, game, channel, (a, b))
    try:
        return value_at(game, channel, p, start=start, misere=args.misere, store=store)
    finally:
        if store is not None:
            store.close()


def _point_provenance(args, p) -> tuple[dict, str]:
    """The provenance record and the words naming the game and channel of an answer at one p
    without a piecewise solve (method: exact backward induction at p, or balls)."""
    from .pointgrid import _Head

    game = game_from_spec(args.game, args.param)
    head = _Head(game, _channel(args, game), _position(game, args.position), (p, p), args.misere)
    method = "pointwise-ball" if args.method == "pointwise" else "pointwise-exact"
    return reports.provenance(head, method=method), reports.title(head, interval=False).removeprefix("N(p) for ")


def cmd_solve(args) -> int:
    """``solve``: the piecewise report, an answer at one p, a series, or move formulas."""
    if args.series is not None:
        game, sol = _solve(args)
        _emit(cli_informed.series_report(sol, args.series, args.order, args.digits, args.format,
                                                reports.provenance(sol, method=f"series at {args.series}, order {args.order}")), args)
        return 0
    players = cli_informed.uses_players(args)
    if args.at is not None:
        _refuse_pointwise_with_players(args)
        if args.method == "piecewise" or players:
            _, sol = _solve(args)
            p = exact_number(args.at)
            a, b = sol.interval
            if not a <= p <= b:
                raise IntervalError(f"p = {p} is outside [{a}, {b}]")
            res = sol.at(p)
            meta = reports.provenance(sol, method="piecewise")
            head = reports.title(sol, interval=False).removeprefix("N(p) for ")
        else:
            res = _point_at(args)
            p = res.p
            meta, head = _point_provenance(args, p)
        if args.method == "pointwise":  # certified decimals (exact value only where balls could not decide)
            opt = [reports.move_json(m) for m in res.optimal]
            if args.format == "json":
                out = reports.dumps({"format": POINT_FORMAT, "meta": {**meta, "method": res.method}, "p": str(p),
                                     "value": None if res.exact is None else str(res.exact),
                                     "value_decimal": res.decimals, "optimal": opt, "method": res.method})
            else:
                how = "certified by ball arithmetic" if res.method == "ball" else f"exactly {res.exact}"
                out = f"N({p}) = {res.decimals} ({how})   optimal: {reports.moves_text(res.optimal)}   [{head}]\n"
            _emit(out, args)
            return 0
        value = to_fraction(res.value)
        if args.format == "json":
            out = reports.dumps(
                {"format": POINT_FORMAT, "meta": meta, "p": str(p), "value": str(value), "value_decimal": fixed(value, args.digits),
                 "optimal": [reports.move_json(m) for m in sorted(res.optimal)]}
            )
        else:
            out = f"N({p}) = {value} = {fixed(value, args.digits)}   optimal: {reports.moves_text(res.optimal)}   [{head}]\n"
        _emit(out, args)
        return 0
    game, sol = _solve(args, report=True)
    out: str | Iterable[str]
    if args.format == "json":
        data = reports.solution_json(sol, digits=args.digits)
        # every move's values can be hundreds of MB of text: written move by move
        out = (reports.dumps_chunks(data, "moves", reports.iter_move_values_json(sol, digits=args.digits))
               if args.moves else reports.dumps(data))
    elif args.format == "latex":
        out = reports.solution_latex(sol, digits=args.digits) + "\n"
    elif args.format == "summary":
        out = reports.solution_summary(sol, digits=args.digits) + "\n"
    else:
        out = reports.solution_text(sol, digits=args.digits) + "\n"
        if args.moves:
            out = itertools.chain([out], _lines(reports.move_values_text_chunks(sol, digits=args.digits)))
    _emit(out, args)
    return 0


def _lines(chunks):
    """Each chunk followed by a newline (one newline for no chunk at all)."""
    empty = True
    for chunk in chunks:
        empty = False
        yield chunk + "\n"
    if empty:
        yield "\n"


def _refuse_pointwise_with_players(args) -> None:
    """The two-player solve is piecewise only: ``--method pointwise`` cannot take its options."""
    if args.method == "pointwise" and cli_informed.uses_players(args):
        raise SymbolicNoiseError("--method pointwise does not take --opponent-channel or strategies; use --method auto")


def _pointwise(args):
    """``(head, rows)`` of certified grid rows when ``--method`` (auto: big
    games not in the cache) asks for the pointwise method, else ``None``."""
    from . import pointgrid

    if cli_informed.uses_players(args):
        _refuse_pointwise_with_players(args)
        return None
    game = game_from_spec(args.game, args.param)
    channel = _channel(args, game)
    a, b = _interval(args.interval) if args.interval else (exact_number(0), exact_number(1))
    start = _position(game, args.position)
    cached = False
    if args.method == "auto":
        store = _open_cache(args, game, channel, (a, b))
        if store is not None:
            root = game.start() if start is None else start
            cached = not game.followers(root) or store.load(root) is not None
            store.close()
    if pointgrid.choose_method(args.method, game, start, cached) != "pointwise":
        return None
    step = exact_number(args.step)
    if step > 0 and (b - a) / step > pointgrid.MAX_POINTS:
        raise IntervalError(f"--step {args.step} gives more than {pointgrid.MAX_POINTS} grid points")
    try:
        points = reports.grid(args.step, a, b)
    except ValueError as exc:
        raise IntervalError(str(exc)) from None
    rows = pointgrid.grid_rows(game, channel, points, args.digits, start=start, misere=args.misere)
    return pointgrid._Head(game, channel, start, (a, b), args.misere), rows


def cmd_table(args) -> int:
    """``table``: N and the optimal moves on a grid of p (CSV, JSON, text, LaTeX)."""
    point = _pointwise(args)
    if point is not None:
        from . import pointgrid

        head, rows = point
        pd = reports.decimals_of(args.step)
        if args.format == "json":
            out = reports.dumps(reports.table_document(reports.provenance(head, method="pointwise"), pointgrid.table_json(head, rows, pd)))
        elif args.format == "text":
            out = pointgrid.table_text(head, rows, pd) + "\n"
        elif args.format == "latex":
            raise SymbolicNoiseError("--format latex takes the piecewise method (--method piecewise)")
        else:
            out = reports.comment_header(reports.provenance(head, method="pointwise")) + pointgrid.table_csv(head, rows, pd)
        _emit(out, args)
        return 0
    game, sol = _solve(args)
    a, b = sol.interval
    try:
        points = reports.grid(args.step, a, b)
    except ValueError as exc:
        raise IntervalError(str(exc)) from None
    rows = reports.table_rows(sol, points)
    pd = reports.decimals_of(args.step)
    if args.format == "json":
        out = reports.dumps(reports.table_document(reports.provenance(sol), reports.table_json(sol, rows, pd, args.digits)))
    elif args.format == "text":
        out = reports.table_text(sol, rows, pd, args.digits) + "\n"
    elif args.format == "latex":
        from .latex import table_latex

        out = reports.comment_header(reports.provenance(sol), prefix="% ") + table_latex(sol, rows, pd, args.digits) + "\n"
    else:
        out = reports.comment_header(reports.provenance(sol)) + reports.table_csv(sol, rows, pd, args.digits, method="exact")
    _emit(out, args)
    return 0


def cmd_plot(args) -> int:
    """``plot``: N(p) with its breakpoints and optimal moves, to an image file."""
    from .plots import plot_value, save

    point = _pointwise(args)
    if point is not None:
        from .pointgrid import plot_rows

        fig = plot_rows(*point)
        if args.xlim:
            lo, hi = _interval(args.xlim)
            fig.axes[0].set_xlim(float(lo), float(hi))  # drawing only
        meta = reports.provenance(point[0], method="pointwise")
    else:
        game, sol = _solve(args)
        window = _interval(args.xlim) if args.xlim else None
        fig = plot_value(sol, moves=args.moves, window=window)
        meta = reports.provenance(sol)
    try:
        save(fig, args.output, meta=meta)
    except (OSError, ValueError) as exc:
        raise SymbolicNoiseError(f"cannot write {args.output}: {exc}") from None
    return 0


def _k_range(text: str) -> range:
    try:
        a, _, b = text.partition("..")
        if len(a) > 12 or len(b) > 12:
            raise ValueError(text)
        lo, hi = parse_whole(a), parse_whole(b) if b else parse_whole(a)
    except (ValueError, SymbolicNoiseError):
        raise GameParameterError(f"--k takes a range like 1..64, not {readers.shown(text)[:40]!r}") from None
    if lo < 0 or hi < lo:
        raise GameParameterError(f"--k {text}: need 0 <= first <= last")
    if hi > MAX_HEAP:
        raise GameParameterError(f"--k {text}: sizes above {MAX_HEAP} are out of range (the cap)")
    return range(lo, hi + 1)


def _count(n: int, noun: str) -> str:
    """``1 piece``, ``3 pieces``."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _certificate_text(k, cert) -> str:
    head = f"k = {k}: " if k is not None else ""
    if cert.holds:
        return f"{head}holds   {cert.statement.text()}  ({_count(len(cert.pieces), 'piece')} certified)"
    ce = cert.counterexample
    values = ", ".join(f"{name} = {ce[name + '_decimal']}" for name in ce if not name.startswith("p") and not name.endswith("_decimal"))
    return f"{head}FAILS   {cert.statement.text()}  at p = {ce['p']} ({ce['p_decimal']}): {values}"


def cmd_check(args) -> int:
    """``check``: decide a statement exactly; a certificate with ``--out``."""
    from ..analysis.certificates import check
    from ..analysis.conjectures import conjecture9, conjecture10, is_power_of_two

    words = args.target
    if words[0] in ("conjecture9", "conjecture10"):
        ks = _k_range(args.k or ("1..64" if words[0] == "conjecture9" else "2..64"))
        if words[0] == "conjecture10":
            ks = [k for k in ks if is_power_of_two(k)]
            if not ks:
                raise GameParameterError("Conjecture 10 is about powers of two: --k holds none")
        ks = list(ks)
        if args.method == "map":
            raise SymbolicNoiseError(f"{words[0]} is checked exactly: --method map takes GAME PARAM STATEMENT")
        if len(words) > 1:
            raise SymbolicNoiseError(f"{words[0]} takes no further words (use --k)")
        args.game, args.param, args.channel = "nim", str(max(ks)), "binary"
        args.position = None
        statements = {k: (conjecture9 if words[0] == "conjecture9" else conjecture10)(k) for k in ks}
    else:
        if len(words) != 3:
            raise SymbolicNoiseError('check takes GAME PARAM "STATEMENT" (e.g. nim 5 "N >= 1/2 on [0, 1/2]"), or conjecture9/conjecture10')
        args.game, args.param = words[0], words[1]
        statements = {None: [words[2]]}
        if args.method == "map":  # proved from a certified map, not from an exact solve
            return cli_mapcert.run_check(args, _channel, _emit)
    game, sol = _solve(args)
    all_hold = True
    certs = []
    if None in statements:  # what the statement speaks of, as every report names it
        where = None if args.position is None else _position(game, args.position)
        lines = [reports.title(sol, where)]
    else:
        lines = [f"1-pile Nim, binary channel, k = {min(statements)}..{max(statements)}, p in [0, 1]"]
    for k, sts in statements.items():
        position = k if k is not None else (None if args.position is None else _position(game, args.position))
        for st in sts:
            cert = check(sol, st, position, args.digits)
            all_hold = all_hold and cert.holds
            certs.append(cert)
            lines.append(_certificate_text(k, cert))
    if len(statements) > 1:
        lines.append("all statements hold" if all_hold else "some statements FAIL (counterexamples above)")
    _emit("\n".join(lines) + "\n", args)
    if args.out:
        from ..analysis.certificates import certificate_document, document_text

        readers.write_text(args.out, document_text(certificate_document(certs)))
    return 0 if all_hold else 1


def cmd_compare(args) -> int:
    """``compare``: the value of knowing p, exactly."""
    game = game_from_spec(args.game, args.param)
    interval = _interval(args.interval) if args.interval else (0, 1)
    out = cli_informed.cmd_compare(args, game, _channel(args, game), _channel_from_spec, interval, _position(game, args.position))
    _emit(out, args)
    return 0


def cmd_verify(args) -> int:
    """``verify``: re-check a certificate file of any kind from the game it names."""
    from ..analysis.certificates import VerificationError, verify_document

    # a certificate holds the values of every position its proof needs (nim 64's: 105 MB)
    raw = readers.read_bytes(args.certificate, "the certificate", VerificationError, MAX_CERTIFICATE_BYTES)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise VerificationError(f"the certificate {readers.shown(args.certificate)} is not UTF-8 text") from None
    del raw
    data = readers.loads(text, f"the certificate {readers.shown(args.certificate)}", VerificationError)
    if not isinstance(data, dict):
        raise VerificationError(f"the certificate {readers.shown(args.certificate)} is not a JSON object")
    if str(data.get("format", "")).startswith("symbolic-noise.hybrid/"):
        return _verify_hybrid_file(data, args.certificate, args.max_seconds, len(text))
    if data.get("format") == "symbolic-noise.map-certificate/1":
        return cli_mapcert.verify_file(data, args.certificate, len(text), args.max_seconds)
    if data.get("format") == "symbolic-noise.periodicity/1":
        return cli_grundy.verify_file(data, args.certificate)
    try:
        claims = verify_document(data)
    except VerificationError as exc:
        sys.stdout.write(f"REJECTED {args.certificate}: {_one_line(str(exc))}\n")
        return 1
    where = f"{data['game']['family']} {data['game']['param']}"
    for c in claims:
        verdict = "holds" if c.holds else "fails"
        sys.stdout.write(f"verified: {c.statement.text()} {verdict} at position {c.position!r} of {where}\n")
    return 0


def _one_line(text: str, n: int = 400) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 3] + "..."


def _verify_hybrid_file(data: dict, path: str, max_seconds=None, size: int = 0) -> int:
    """One hybrid-method certificate (docs/hybrid.md): its size (the characters
    read) first, then its shape and caps (a malformed file: exit status 2), then
    the proof, recomputed from the game it names (a failed proof: REJECTED,
    exit status 1)."""
    from ..analysis.hybrid.certificates import describe, verify_hybrid
    from ..analysis.hybrid.fileformat import CAPS, CertificateFormatError

    name = readers.shown(path)
    if size > CAPS["bytes"]:
        raise CertificateFormatError(f"the hybrid certificate {name} has more than the cap of {CAPS['bytes']} bytes")
    try:
        verify_hybrid(data, max_seconds=max_seconds)
    except CertificateFormatError as exc:
        raise CertificateFormatError(f"the hybrid certificate {name}: {_one_line(str(exc))}") from None
    except (SymbolicNoiseError, KeyError, TypeError, ValueError, IndexError, ZeroDivisionError, OverflowError) as exc:
        sys.stdout.write(f"REJECTED {name}: {_one_line(str(exc))}\n")
        return 1
    sys.stdout.write(f"verified {describe(data)}\n")
    return 0


def cmd_nimsum(args) -> int:
    """``nimsum``: Bouton's nim-sum of heaps and the winning moves."""
    from ..games.classical import bouton_moves, nim_outcome, nim_sum
    from ..games.heapgames import move_name

    heaps = []
    for word in args.heaps:
        heaps.append(parse_heap(word))
    total = nim_sum(*heaps)
    moves = bouton_moves(heaps, misere=args.misere)
    names = [move_name(h, (k,) if k else ()) for h, k in moves]
    cls = nim_outcome(heaps, misere=args.misere)
    play = "misère play" if args.misere else "normal play"
    if args.format == "json":
        from ..games.provenance import record

        meta = record(game_from_spec("nim", ",".join(map(str, heaps)) or "0"), get_channel("identity"), misere=args.misere,
                      method="nim-sum (Bouton)")
        meta["interval"] = None  # the classical game: no p
        out = reports.dumps({"format": "symbolic-noise.nim-sum/1", "meta": meta, "heaps": heaps, "nim_sum": total, "outcome": cls,
                             "misere": args.misere, "winning_moves": names})
    else:
        verdict = "the player to move wins" if cls == "N" else "the player to move loses"
        out = f"nim-sum {' ^ '.join(str(h) for h in heaps)} = {total}: {cls}-position in {play} ({verdict})\n"
        out += "winning moves: " + (", ".join(names) if names else "none") + "\n"
    _emit(out, args)
    return 0


def _emit(text: str | Iterable[str], args) -> None:
    """Write ``text`` (a string, or an iterable of strings written one by one)
    to ``--output`` or standard output."""
    if getattr(args, "output", None):
        readers.write_text(args.output, text)
    else:
        for chunk in [text] if isinstance(text, str) else text:
            sys.stdout.write(chunk)


def _add_game_arguments(p):
    families = "; ".join(f"{name} {help_}" for name, help_ in FAMILIES.items())
    p.add_argument("game", help=f"the game family ({families})")
    p.add_argument("param", nargs="?", help="the game's parameter (heap size, board, ...)")
    p.add_argument(
        "--channel",
        help=f"move error distribution: {', '.join(channel_names())}, or a custom channel JSON file"
        " (default: king for Chomp, binary for Nim and the other heap games; p is the chance of hitting"
        " the intended square for Chomp's channels, a digit's chance of flipping for binary)",
    )
    p.add_argument("--interval", metavar="A,B", help="solve for p in [A, B] (exact numbers; default 0,1)")
    p.add_argument("--position", help="solve from this position instead of the start (Nim: 3; Chomp: 3,2)")
    p.add_argument("--misere", action="store_true", help="misère play: the player who makes the last move loses")
    p.add_argument("-o", "--output", help="write to this file instead of standard output")
    p.add_argument("--cache", metavar="PATH", help="SQLite cache of solved positions (default: the user cache directory)")
    p.add_argument("--no-cache", action="store_true", help="neither read nor write the cache")
    p.add_argument(
        "--verify-cache", action="store_true",
        help="prove every cached entry served with the game's own equations (the Bellman check of its values and"
        " optimal moves against its followers'); by default an entry is checked against its SHA-256 checksum,"
        " which detects corruption, not tampering",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--jobs", type=_jobs, default=1, metavar="N", help="solve in N local processes (see --split)")
    p.add_argument("--dask", metavar="ADDRESS", help="solve on every worker of the Dask scheduler at ADDRESS (see --split)")
    p.add_argument(
        "--split", choices=("auto", "positions", "p"), default="auto",
        help="how --jobs/--dask share the work: positions (each worker solves whole positions as their followers"
        " are ready: wide games such as Chomp), p (each worker owns a p-range and runs on its own; one that"
        " finishes takes over part of the busiest range: chains such as 1-pile Nim); auto (default):"
        " positions when the game has at least 2 positions per level per worker",
    )


def _add_map_arguments(p):
    """The game words and the options of ``map`` shared with ``solve``."""
    p.add_argument("game", help="the game family (as for solve)")
    p.add_argument("param", nargs="?", help="the game's parameter (heap size, board, ...)")
    p.add_argument("--channel", help="channel (default: king for Chomp, binary for Nim and the other heap games)")
    p.add_argument("--interval", metavar="A,B", help="map p in [A, B] (exact numbers; default 0,1)")
    p.add_argument("--position", help="map this position instead of the start")
    p.add_argument("--misere", action="store_true", help="misère play: the player who makes the last move loses")
    p.add_argument("-o", "--output", help="write to this file instead of standard output")


_METHOD_HELP = (
    "piecewise: read the grid off the exact piecewise solution; pointwise: evaluate each grid point alone,"
    " certified by ball arithmetic, exactly where balls cannot decide (ties); auto (default): piecewise when"
    " cached or small (Nim k <= 32, other games <= 70 positions), else pointwise"
)


def build_parser() -> argparse.ArgumentParser:
    """The command line's parser, every subcommand registered."""
    parser = _Parser(prog=PROG, description="Exact solutions of impartial games played through a noisy channel.")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("solve", help="N(p) as an exact piecewise function with its optimal moves")
    _add_game_arguments(p)
    p.add_argument("--digits", type=_digits, default=15, help="significant digits of decimals (default 15)")
    p.add_argument("--format", choices=("text", "json", "latex", "summary"), default="text",
                   help="text (default), json, latex, or summary: the text report without formulas "
                        "(pieces with their degrees and optimal moves, breakpoints), for large solves")
    p.add_argument("--moves", action="store_true", help="also give every sent move's own value N(w)")
    p.add_argument("--at", metavar="P", help="only the exact value and optimal moves at this p")
    cli_informed.add_solve_options(p)
    p.add_argument("--method", choices=("auto", "piecewise", "pointwise"), default="auto",
                   help="with --at: auto = the exact value by backward induction at P alone (or the cached solution);"
                   " pointwise = --digits decimals certified by ball arithmetic (exact where balls cannot decide);"
                   " piecewise = solve for every p first")
    p.set_defaults(func=cmd_solve)

    t = sub.add_parser("table", help="N(p) and the optimal moves on a grid of p (the paper's appendix)")
    _add_game_arguments(t)
    t.add_argument("--step", default="0.01", help="grid step (exact; default 0.01)")
    t.add_argument("--digits", type=_digits, default=15, help="decimals of N (default 15)")
    t.add_argument("--format", choices=("csv", "json", "text", "latex"), default="csv")
    t.add_argument("--method", choices=("auto", "piecewise", "pointwise"), default="auto", help=_METHOD_HELP)
    cli_informed.add_player_options(t)
    t.set_defaults(func=cmd_table)

    pl = sub.add_parser("plot", help="plot N(p) with its breakpoints and optimal moves (PNG, SVG, PDF)")
    _add_game_arguments(pl)
    pl.add_argument("--moves", action="store_true", help="also draw every sent move's own value")
    pl.add_argument("--xlim", metavar="A,B", help="show only p in [A, B]")
    pl.add_argument("--method", choices=("auto", "piecewise", "pointwise"), default="auto", help=_METHOD_HELP)
    pl.add_argument("--step", default="0.01", help="grid step of the pointwise method (exact; default 0.01)")
    cli_informed.add_player_options(pl)
    pl.set_defaults(digits=15)
    pl.set_defaults(func=cmd_plot)
    for action in pl._actions:  # -o is required for plots
        if action.dest == "output":
            action.required = True

    c = sub.add_parser(
        "check",
        help="check a statement about N(p) exactly: certificate or counterexample",
        description=(
            'symbolic-noise check GAME PARAM "STATEMENT", or check conjecture9 / conjecture10 --k A..B. '
            'Statements: "N >= c on [a, b]", "N <= c on [a, b]", "N == c on [a, b]", "optimal M on [a, b]", '
            '"optimal-set {M1, M2} on [a, b]", "|2N-1| < eps on [a, b]" (exact numbers; moves named as the game '
            "names them: 0, (1,2), 3->1). Exit status 0 if everything holds, 1 if something fails, 3 if --method map does"
            " not decide the statement."
        ),
    )
    c.add_argument("target", nargs="+", help="conjecture9 | conjecture10 | GAME PARAM STATEMENT")
    c.add_argument("--k", metavar="A..B", help="heaps for the conjectures (default 1..64, resp. 2..64)")
    c.add_argument("--channel", help="channel (default: king for Chomp, binary for Nim and the other heap games)")
    c.add_argument("--interval", metavar="A,B", help="solve for p in [A, B] only")
    c.add_argument("--position", help="the position the statement is about (default: the start)")
    c.add_argument("--out", help="write the certificates (JSON) to this file")
    c.add_argument("--full", action="store_true", help="(accepted for old scripts: every certificate written carries what verify needs)")
    c.add_argument("--digits", type=_digits, default=20)
    c.add_argument("--misere", action="store_true")
    c.add_argument("--cache", metavar="PATH")
    c.add_argument("--no-cache", action="store_true")
    c.add_argument("--verify-cache", action="store_true", help="prove every cached entry served (see solve --help)")
    c.add_argument("--quiet", action="store_true")
    c.add_argument("-o", "--output", help="write the report to this file")
    cli_mapcert.add_check_options(c)
    c.set_defaults(func=cmd_check, jobs=1, dask=None, game=None, param=None)

    cli_informed.add_compare_parser(sub, _add_game_arguments, _digits)
    sub.choices["compare"].set_defaults(func=cmd_compare)

    ve = sub.add_parser("verify", help="re-verify a certificate file independently of the solver")
    ve.add_argument("certificate")
    ve.add_argument("--max-seconds", type=_bounded_int("--max-seconds", 1, 86_400), default=None,
                    help="a hybrid or map certificate whose check is estimated to take longer is refused before any work"
                         " (default 20 CPU seconds for a hybrid certificate, 120 for a map certificate)")
    ve.set_defaults(func=cmd_verify)

    cli_grundy.add_parser(sub, _upto, _heap_cap, _emit)

    cli_chance.add_parser(sub, _channel, _digits, _emit)

    from .cli_map import add_parser as add_map

    add_map(sub, _add_map_arguments, _channel, _interval, _emit)

    n = sub.add_parser("nimsum", help="nim-sum of Nim heaps and the winning moves (Bouton)")
    n.add_argument("heaps", nargs="+", help="heap sizes, e.g. 7 2 5 3")
    n.add_argument("--misere", action="store_true", help="misère play: the last mover loses")
    n.add_argument("--format", choices=("text", "json"), default="text")
    n.set_defaults(func=cmd_nimsum)

    from .atlas import add_parser as add_atlas
    from .phase_render import add_parser as add_phase

    add_atlas(sub)
    add_phase(sub, _add_game_arguments)
    return parser


def one_line(message: str) -> str:
    """A message on one line: line breaks become ``" | "``, other control characters are escaped.

    >>> one_line("first" + chr(10) + "second" + chr(13) + chr(10) + "  third" + chr(0))
    'first | second | third\\\\x00'
    """
    parts = [part.strip() for part in message.splitlines() if part.strip()]
    return readers.shown(" | ".join(parts))


#: words given on the command line as positional arguments (the others are options)
_POSITIONAL = ("game", "param", "certificate")


def _check_outputs(args) -> None:
    """No word given is empty (an empty ``--cache``, ``-o`` or ``--interval``
    is an error, never the default), and every output path the command
    writes is checked before the work."""
    for dest, value in vars(args).items():
        if isinstance(value, str) and not value.strip() and dest != "title":
            name = dest if dest in _POSITIONAL else "--" + dest.replace("_", "-")
            raise SymbolicNoiseError(f"{name} needs a value, not an empty word")
    for dest in ("output", "out", "plot"):
        path = getattr(args, dest, None)
        if isinstance(path, str):
            readers.check_writable(path)


def main(argv=None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    if not (sys.argv[1:] if argv is None else argv):
        # a bare ``symbolic-noise``: what it can do, not only what it lacks
        sys.stdout.write(parser.format_help())
        return 2
    args = None
    try:
        args = parser.parse_args(argv)
        _check_outputs(args)
        try:
            with fewer_collections():  # a command solves, reports and exits: the collector's runs are overhead
                return args.func(args)
        finally:
            store = getattr(args, "_store", None)
            if store is not None:  # (a solution read from the cache on demand keeps it open until here)
                store.close()
    except SymbolicNoiseError as exc:
        sys.stderr.write(f"{PROG}: error: {one_line(str(exc))}\n")
        return 2
    except RecursionError:  # (a safety net: every reader caps nesting first)
        sys.stderr.write(f"{PROG}: error: an input nests too deeply to be read\n")
        return 2
    except KeyboardInterrupt:
        store = getattr(args, "_store", None)
        kept = f"; the positions solved so far are kept in {store.path}" if store is not None and store.saved else ""
        sys.stderr.write(f"{PROG}: interrupted{kept}\n")
        return 130
    except BrokenPipeError:  # e.g. piped into `head`
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
