"""The command line: the TUI by default, ``run`` for scripts, ``presets`` to see the tests.
:mod:`diskmark.cli.parser` declares what it reads, :mod:`diskmark.cli.main` reads it and
runs the command; each command has its module."""
