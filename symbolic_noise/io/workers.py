"""Worker processes and Dask clients for ``--jobs N`` and ``--dask ADDRESS``.

One single-process executor per worker (a worker keeps its state between
tasks), local pools whose workers ignore Ctrl-C and are stopped by the driver
without a traceback, and a Dask scheduler's address checked before it is dialled,
with a short timeout: every failure is a one-line error.
"""

from __future__ import annotations

from ..errors import SymbolicNoiseError
from . import readers


def _workers(args):
    """One single-process executor per worker of a parallel solve, and a
    function that releases them: ``--jobs N`` local processes, or every worker
    of the Dask cluster at ``--dask``, each task pinned to its worker (a
    worker keeps its state between tasks: its p-range's, or its solved
    positions')."""
    if args.dask:
        client = dask_client(args.dask)
        addresses = sorted(client.scheduler_info().get("workers", {}))
        if not addresses:
            client.close()
            raise SymbolicNoiseError(f"the Dask scheduler at {args.dask} has no workers")
        executors = [client.get_executor(workers=[w], allow_other_workers=False, pure=False) for w in addresses]
        return executors, client.close
    pools = [local_pool(1) for _ in range(args.jobs)]
    return pools, lambda: stop_pools(pools)


#: seconds to wait for a Dask scheduler to answer
DASK_TIMEOUT = 5


def dask_address(address: str) -> str:
    """``address`` if it is written like a Dask scheduler's address
    (``tcp://host:port``, ``host:port``, ``tls://...``, ``inproc://...``),
    else a one-line error at once.

    >>> dask_address("tcp://127.0.0.1:8786"), dask_address("scheduler:8786")
    ('tcp://127.0.0.1:8786', 'scheduler:8786')
    >>> dask_address("tcp://:x")
    Traceback (most recent call last):
    ...
    symbolic_noise.errors.SymbolicNoiseError: --dask 'tcp://:x' is not a scheduler address (write it like tcp://host:8786)
    """
    import re

    shown = readers.shown(address)[:80]
    text = address.strip()
    m = re.fullmatch(r"(?:(tcp|tls|ucx|ws|wss)://)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)(?::([0-9]{1,5}))?", text, re.ASCII)
    ok = m is not None and (m.group(3) is None or 0 < int(m.group(3)) < 65536)
    if re.fullmatch(r"inproc://[A-Za-z0-9._/:-]+", text, re.ASCII):
        ok = True
    if not ok:
        raise SymbolicNoiseError(f"--dask {shown!r} is not a scheduler address (write it like tcp://host:8786)")
    return text


def dask_client(address: str):
    """A ``distributed.Client`` of the scheduler at ``address`` (one-line
    errors; an address that does not answer within :data:`DASK_TIMEOUT` s)."""
    address = dask_address(address)
    try:
        from distributed import Client
    except ImportError:
        raise SymbolicNoiseError("--dask needs the dask extra: pip install 'symbolic_noise[dask]'") from None
    try:
        return Client(address, timeout=DASK_TIMEOUT)
    except (OSError, TimeoutError) as exc:
        raise SymbolicNoiseError(
            f"cannot reach the Dask scheduler at {address} within {DASK_TIMEOUT} s: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}"
        ) from None
    except (ValueError, TypeError) as exc:
        raise SymbolicNoiseError(f"--dask {readers.shown(address)[:80]!r} is not a scheduler address ({exc})") from None


def local_pool(workers: int):
    """A process pool whose workers ignore Ctrl-C: the driver stops them (with
    :func:`stop_pools`), so they print no traceback.  They run Python's
    garbage collector as seldom as a solve does
    (:mod:`symbolic_noise.solvers.piecewise.collector`), for their whole life."""
    from concurrent.futures import ProcessPoolExecutor

    return ProcessPoolExecutor(workers, initializer=_pool_worker_start)


def _pool_worker_start() -> None:
    import gc
    import signal

    from ..solvers.piecewise.collector import THRESHOLDS

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    gc.set_threshold(*THRESHOLDS)


def stop_pools(pools) -> None:
    """Shut process pools down without waiting for their running tasks."""
    stopped = []
    for pool in pools:
        # a worker may be in the middle of a long task (after Ctrl-C, or an
        # error elsewhere): stop it rather than wait for it at exit
        processes = list((getattr(pool, "_processes", None) or {}).values())
        # (shutdown forgets the manager thread and the result queue)
        stopped.append((getattr(pool, "_executor_manager_thread", None), getattr(pool, "_result_queue", None), processes))
        pool.shutdown(wait=False, cancel_futures=True)
        for proc in processes:
            if proc.is_alive():
                proc.terminate()
    for manager, results, processes in stopped:
        for proc in processes:
            proc.join(timeout=10)
        if manager is None:
            continue
        # wait for the pool's manager thread to see its workers gone and close
        # its wakeup pipe: left running, it can close the pipe while the
        # interpreter's exit hook writes to it (an OSError traceback after
        # Ctrl-C, seen on CI)
        manager.join(timeout=1)
        writer = getattr(results, "_writer", None)
        if manager.is_alive() and writer is not None:
            # a worker stopped while it wrote a result leaves half a message
            # in the pipe, and the manager thread waits in its read for the
            # rest, for ever: the interpreter's exit then waits for that
            # thread (``phase --jobs 2`` hung after Ctrl-C about once in ten
            # runs on a loaded host).  With every worker gone, this process
            # holds the pipe's last write end: closing it ends the read
            # (end of file), and the thread marks the pool broken and stops
            writer.close()
            manager.join(timeout=10)
