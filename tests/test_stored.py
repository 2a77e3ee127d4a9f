"""A solution read from the cache on demand (solvers/stored.py): the values
and every report equal those of the eager load, only what is read is
loaded, and a missing, damaged or inconsistent entry is solved again."""

import json
import sqlite3
import warnings

import pytest

from symbolic_noise import Chomp, Nim, solve
from symbolic_noise.io.cli import main
from symbolic_noise.io import reports
from symbolic_noise.solvers.storage.cache import CacheWarning, SolutionCache, _position_key
from symbolic_noise.solvers.storage.stored import stored_solution

CASES = [(Nim(9), "binary", (0, 1)), (Chomp(3, 3), "king", (0, 1)), (Chomp(2, 4), "all", ("1/4", "3/4"))]


def _cached(tmp_path, game, channel, interval):
    path = str(tmp_path / "c.sqlite")
    with SolutionCache(path, game, channel, interval) as store:
        full = solve(game, channel, interval, store=store)
    return path, full


@pytest.mark.parametrize("game,channel,interval", CASES)
def test_values_reports_and_stats_equal_the_full_solve(tmp_path, game, channel, interval):
    path, full = _cached(tmp_path, game, channel, interval)
    with SolutionCache(path, game, channel, interval) as store:
        lazy = stored_solution(game, channel, interval, store)
        assert store.loaded == 1  # the start position only
        assert reports.solution_text(lazy) == reports.solution_text(full)
        assert reports.solution_json(lazy) == reports.solution_json(full)  # (stats: from the recorded degrees)
        assert store.loaded == 1
        assert lazy.positions() == full.positions()
        for v in full.positions():
            assert lazy.value(v) == full.value(v)
            assert lazy.value(v).labels == full.value(v).labels
        assert lazy.stats() == full.stats()
        assert store.loaded == sum(1 for v in full.positions() if game.followers(v))


def test_moves_read_the_followers_only(tmp_path):
    game = Chomp(3, 3)
    path, full = _cached(tmp_path, game, "king", (0, 1))
    with SolutionCache(path, game, "king") as store:
        lazy = stored_solution(game, "king", (0, 1), store)
        text = reports.move_values_text_chunks(lazy, digits=12)
        assert list(text) == list(reports.move_values_text_chunks(full, digits=12))
        needed = {game.start()} | {u for u in game.followers(game.start()) if game.followers(u)}
        assert store.loaded == len(needed) < sum(1 for v in full.positions() if game.followers(v))


def test_a_missing_entry_is_solved_and_saved(tmp_path):
    game = Nim(8)
    path, full = _cached(tmp_path, game, "binary", (0, 1))
    with sqlite3.connect(path) as conn:
        conn.execute("DELETE FROM solutions WHERE position = ?", (_position_key(5),))
    with SolutionCache(path, game, "binary") as store:
        lazy = stored_solution(game, "binary", (0, 1), store)
        assert lazy.value(5) == full.value(5)
        assert store.saved == 1  # heap 5 again; heaps 1-4 loaded
    with SolutionCache(path, game, "binary") as store:
        assert store.load(5) == full.value(5)


def test_a_damaged_entry_is_reported_and_solved_again(tmp_path):
    game = Nim(8)
    path, full = _cached(tmp_path, game, "binary", (0, 1))
    with sqlite3.connect(path) as conn:
        (text,) = conn.execute("SELECT data FROM solutions WHERE position = ?", (_position_key(6),)).fetchone()
        conn.execute("UPDATE solutions SET data = ? WHERE position = ?", (text.replace("1", "2", 1), _position_key(6)))
    with SolutionCache(path, game, "binary") as store, warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        lazy = stored_solution(game, "binary", (0, 1), store)
        assert lazy.value(6) == full.value(6)
        reports_ = [w for w in caught if issubclass(w.category, CacheWarning)]
        assert len(reports_) == 1 and "position 6" in str(reports_[0].message)


def test_a_wrong_recorded_degree_is_caught_when_the_value_loads(tmp_path):
    game = Nim(8)
    path, full = _cached(tmp_path, game, "binary", (0, 1))
    true = max(g.degree for g in full.value(7).formulas)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE solutions SET degree = ? WHERE position = ?", (true + 1, _position_key(7)))
    with SolutionCache(path, game, "binary") as store, warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert store.degrees()[_position_key(7)] == true + 1
        assert store.load(7) is None  # refused, deleted
        assert any("recorded degree" in str(w.message) for w in caught if issubclass(w.category, CacheWarning))


def test_entries_without_a_recorded_degree_are_loaded_for_the_stats(tmp_path):
    game = Chomp(3, 3)
    path, full = _cached(tmp_path, game, "king", (0, 1))
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE solutions SET degree = NULL")
    with SolutionCache(path, game, "king") as store:
        lazy = stored_solution(game, "king", (0, 1), store)
        assert set(store.degrees().values()) == {None}
        assert lazy.stats() == full.stats()


def test_a_cache_from_before_the_degree_column_reads(tmp_path):
    game = Nim(6)
    path, full = _cached(tmp_path, game, "binary", (0, 1))
    with sqlite3.connect(path) as conn:  # the table as it was: no degree column
        conn.execute("CREATE TABLE old AS SELECT context, position, data, created, checksum FROM solutions")
        conn.execute("DROP TABLE solutions")
        conn.execute("ALTER TABLE old RENAME TO solutions")
    with SolutionCache(path, game, "binary") as store:
        lazy = stored_solution(game, "binary", (0, 1), store)
        assert lazy.stats() == full.stats()
        assert lazy.value() == full.value()


def test_no_stored_solution_without_the_start_a_move_or_a_channel_in_p(tmp_path):
    path = str(tmp_path / "c.sqlite")
    with SolutionCache(path, Nim(6), "binary") as store:
        assert stored_solution(Nim(6), "binary", (0, 1), store) is None  # nothing stored
        solve(Nim(5), "binary", store=store)
        assert stored_solution(Nim(6), "binary", (0, 1), store) is None  # heap 6 is not stored
        assert stored_solution(Nim(6), "binary", (0, 1), store, start=5) is not None
        assert stored_solution(Nim(6), "binary", (0, 1), store, start=0) is None  # no move
    with SolutionCache(path, Nim(4), "uniform") as store:
        solve(Nim(4), "uniform", store=store)
        assert stored_solution(Nim(4), "uniform", (0, 1), store) is None  # solved in one evaluation, no cache


@pytest.mark.parametrize(
    "extra",
    [[], ["--format", "json"], ["--format", "latex"], ["--moves"], ["--format", "json", "--moves"],
     ["--position", "3,2"], ["--at", "1/3", "--method", "piecewise"]],
)
def test_cli_output_from_the_cache_equals_the_checked_full_load(tmp_path, capsys, extra):
    cache = str(tmp_path / "c.sqlite")
    args = ["solve", "chomp", "3x4", "--channel", "king", "--cache", cache, "--quiet"]
    assert main(args + extra) == 0  # solves, fills the cache
    cold = capsys.readouterr().out
    assert main(args + extra) == 0  # read on demand
    lazy = capsys.readouterr().out
    assert main(args + extra + ["--verify-cache"]) == 0  # every entry loaded and re-checked
    checked = capsys.readouterr().out
    assert lazy == checked == cold
    if "json" in extra and "--moves" not in extra:
        assert json.loads(lazy)["stats"]["positions"] == len(Chomp(3, 4).positions())


def test_cli_table_and_plot_from_the_cache(tmp_path, capsys):
    cache = str(tmp_path / "c.sqlite")
    args = ["nim", "7", "--cache", cache, "--quiet"]
    assert main(["table", *args, "--step", "0.125"]) == 0
    cold = capsys.readouterr().out
    assert main(["table", *args, "--step", "0.125"]) == 0
    assert capsys.readouterr().out == cold
    png = tmp_path / "n.png"
    assert main(["plot", *args, "--output", str(png)]) == 0
    assert png.stat().st_size > 1000
