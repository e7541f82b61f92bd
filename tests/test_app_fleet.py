"""The app's fleet screen driven like a user would, against real fio servers (each its own
mount namespace and tmpfs: see fleet_servers.py), tiny runs of the Demo profile."""

from __future__ import annotations

import pytest
from textual.widgets import Input

from conftest import tiny, wait_until
from diskmark.app.app import DiskmarkApp
from diskmark.app.screens.fleet import FleetScreen
from diskmark.store import Store
from fleet_servers import TARGET, fio_servers, free_port  # noqa: F401

pytestmark = pytest.mark.slow

SIZE = (120, 40)


def make_app() -> DiskmarkApp:
    return DiskmarkApp(settings=tiny(TARGET, profile="demo"), persist=False)


async def open_fleet(app: DiskmarkApp, pilot, hosts: str) -> FleetScreen:
    app.action_fleet()
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, FleetScreen)
    screen.query_one("#fleet-hosts", Input).value = hosts
    await pilot.click("#run")
    return screen


async def test_two_hosts_side_by_side_complete_and_leave_nothing(fio_servers):
    a, b = fio_servers
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_fleet(app, pilot, f"{a.host}, {b.host}")
        assert screen.running
        await wait_until(pilot, lambda: not screen.running, 180, "the fleet to finish")
        assert screen.error == "", screen.error
        assert [screen.statuses[h] for h in (a.host, b.host)] == ["complete", "complete"]
        figures = screen.figures()
        wanted = {key for key, _ in screen.rows}
        assert wanted
        for host in (a.host, b.host):
            assert set(figures[host]) == wanted, figures
            assert all(f.strip() for f in figures[host].values())
        table = screen.query_one("#fleet-table")
        assert len(table.columns) == 3 and table.row_count == len(wanted)
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, FleetScreen)
    assert a.files() == [] and b.files() == []
    kept = Store().history()
    assert len(kept) == 2


async def test_an_unreachable_port_is_named_and_nothing_runs(fio_servers):
    a, _ = fio_servers
    dead = f"127.0.0.1:{free_port()}"
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_fleet(app, pilot, f"{a.host} {dead}")
        await wait_until(pilot, lambda: not screen.running, 60, "the fleet to give up")
        assert "nothing was started" in screen.error and dead in screen.error
        assert dead in str(screen.query_one("#fleet-status").render())
    assert a.files() == [] and Store().history() == []


async def test_a_bad_host_text_is_said_and_nothing_starts():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_fleet(app, pilot, "host:notaport")
        await pilot.pause()
        assert not screen.running and screen.error
        assert screen.fleet is None
