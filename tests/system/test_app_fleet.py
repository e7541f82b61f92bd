"""The app's fleet screen driven like a user would, against real fio servers (each its own
mount namespace and tmpfs: see fleet_servers.py), tiny runs of the Demo profile."""

from __future__ import annotations

import pytest
from conftest import tiny, wait_until
from fleet_servers import TARGET, fio_servers, free_port, servers, start  # noqa: F401
from textual.widgets import Checkbox, Input, Select

from diskmark.app.app import DiskmarkApp
from diskmark.app.screens.fleet import FleetScreen
from diskmark.store.store import Store

pytestmark = pytest.mark.slow

SIZE = (120, 40)


def make_app() -> DiskmarkApp:
    return DiskmarkApp(settings=tiny(TARGET, profile="demo"), persist=False)


async def open_fleet(app: DiskmarkApp, pilot, hosts: str, one_at_a_time=False) -> FleetScreen:
    app.action_fleet()
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, FleetScreen)
    screen.query_one("#fleet-hosts", Input).value = hosts
    screen.query_one("#one-at-a-time", Checkbox).value = one_at_a_time
    await pilot.click("#run")
    return screen


async def test_two_hosts_side_by_side_complete_and_leave_nothing(fio_servers):
    a, b = fio_servers
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_fleet(app, pilot, f"{a.url}, {b.url}", one_at_a_time=True)
        assert screen.running and screen.fleet.one_at_a_time
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
        screen.query_one("#fleet-show", Select).value = b.host  # one host in full
        await pilot.pause()
        assert [str(c.label) for c in table.columns.values()][1:] == [f"{b.host} MB/s"]
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
        screen = await open_fleet(app, pilot, f"{a.url} fio://{dead}")
        await wait_until(pilot, lambda: not screen.running, 60, "the fleet to give up")
        assert "nothing was started" in screen.error and dead in screen.error
        assert dead in str(screen.query_one("#fleet-status").render())
    assert a.files() == [] and Store().history() == []


async def test_a_server_not_run_as_root_runs_once_the_target_is_ticked_private(servers):
    start(1, servers, mode="0700", uid=4242)
    host = servers[0].host
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_fleet(app, pilot, servers[0].url)
        await wait_until(pilot, lambda: not screen.running, 60, "the fleet to give up")
        assert f"{host}: diskmark cannot check whether other users can write" in screen.error
        assert 'tick "The target is private"' in screen.error
        screen.query_one("#target-private", Checkbox).value = True
        await pilot.click("#run")
        await wait_until(pilot, lambda: not screen.running, 180, "the fleet to finish")
        assert screen.error == "" and screen.statuses[host] == "complete", screen.error
    assert servers[0].files() == [] and len(Store().history()) == 1


async def test_a_bad_host_text_is_said_and_nothing_starts():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_fleet(app, pilot, "host:notaport")
        await pilot.pause()
        assert not screen.running and screen.error
        assert screen.fleet is None


async def test_closing_mid_run_stops_every_host_and_no_local_run_starts(fio_servers):
    a, b = fio_servers
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_fleet(app, pilot, f"{a.url} {b.url}")
        await wait_until(pilot, lambda: a.files() != [] and b.files() != [], 60,
                         "the test files on both hosts")
        steps = list(screen.statuses.values())
        assert any(s not in ("waiting", "complete") for s in steps), steps
        assert not any(s.startswith(h) for s in steps for h in (a.host, b.host)), steps
        app.action_run_all()  # a key falling through to the app under the fleet screen
        assert not app.state.running
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, FleetScreen), 30,
                         "the screen to close after stopping")
        assert not screen.running
        assert all(s.startswith("stopped") for s in screen.statuses.values()), screen.statuses
    assert a.files() == [] and b.files() == [] and Store().history() == []


async def test_the_palette_offers_the_fleet_while_idle():
    from diskmark.app.commands import commands

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        entry = [c for c in commands(app) if c[0] == "Run on several hosts (SSH)…"]
        assert len(entry) == 1 and entry[0][3]
        entry[0][2]()
        await pilot.pause()
        assert isinstance(app.screen, FleetScreen)
        assert "Type the hosts" in str(app.screen.query_one("#fleet-status").render())
