"""The lock that gives a test marked ``serial`` the machine to itself under pytest-xdist
(conftest.machine_share): it waits for the tests running beside it, and no test starts
while it runs. Threads stand in for the workers (each opens the lock files itself, as a
worker process does, so their flocks conflict)."""

from __future__ import annotations

import threading
import time

from conftest import machine_share


class Holder(threading.Thread):
    """Takes the lock (``alone`` or shared), notes when it got it, holds it until released."""

    def __init__(self, directory, alone: bool) -> None:
        super().__init__(daemon=True)
        self.directory, self.alone = directory, alone
        self.entered = threading.Event()
        self.release = threading.Event()

    def run(self) -> None:
        with machine_share(self.directory, self.alone):
            self.entered.set()
            self.release.wait(10)


def test_a_serial_test_waits_for_the_running_ones_and_holds_back_the_next(tmp_path):
    running = Holder(tmp_path, alone=False)
    running.start()
    assert running.entered.wait(5)
    beside = Holder(tmp_path, alone=False)  # two ordinary tests share the machine
    beside.start()
    assert beside.entered.wait(5)

    serial = Holder(tmp_path, alone=True)
    serial.start()
    time.sleep(0.3)
    assert not serial.entered.is_set(), "the serial test started beside running tests"
    later = Holder(tmp_path, alone=False)  # arrives while the serial test waits
    later.start()
    time.sleep(0.3)
    assert not later.entered.is_set(), "a test started while a serial one was waiting"

    running.release.set()
    beside.release.set()
    assert serial.entered.wait(5), "the serial test never got the machine"
    time.sleep(0.3)
    assert not later.entered.is_set(), "a test started beside the serial one"
    serial.release.set()
    assert later.entered.wait(5)
    later.release.set()
    for t in (running, beside, serial, later):
        t.join(5)
