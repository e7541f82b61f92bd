"""The fleet: one profile on many hosts through fio's client/server mode, each host's fio
server started over SSH (or run by its owner, ``fio://``). Only the command line and the app
import it; the engine's core never does (a contract in ``pyproject.toml``), so a local run
loads none of it.

Each name is imported from the module that defines it: :mod:`.run` (``Fleet``, the run on
every host), :mod:`.hosts` (the hosts as written, checked), :mod:`.jobfile` (the plan as
job files), :mod:`.jobs_dir` (where they wait on this machine), :mod:`.client` (fio's
client and what it said), :mod:`.privacy` (whether others can write in a raw server's
target), :mod:`.ssh_remote` (the script a host runs) and :mod:`.ssh_tunnel` (one host over
the system's ssh). The result, a session per host, is :mod:`diskmark.model.fleet`'s.
"""
