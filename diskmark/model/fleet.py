"""A fleet's result: the hosts as the user named them and one session per host, which the
side-by-side reports, the history and the app read without the engine that ran them
(:mod:`diskmark.engine.fleet.run`). How a host is written and checked is the fleet's
(:mod:`diskmark.engine.fleet.hosts`); how it is reached, over SSH or as fio's client, too.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from diskmark.model.results import SessionResult, Status

DEFAULT_PORT = 8765  # fio's own default for --server and --client


@dataclass(frozen=True)
class Host:
    name: str  # a host name or alias, an IPv4 address or an IPv6 address (without brackets)
    port: int = DEFAULT_PORT  # fio's server's TCP port; over SSH, SSH's port (0: ssh's choice)
    ssh: bool = False
    user: str = ""  # over SSH, the user when written (else ssh's choice)

    @property
    def ipv6(self) -> bool:
        return ":" in self.name

    @property
    def label(self) -> str:
        """How reports and the history name the host: as the user wrote it, without the user
        or the scheme, the port only when written (fio's: when not its default)."""
        name = f"[{self.name}]" if self.ipv6 else self.name
        shown = 0 if self.port == DEFAULT_PORT and not self.ssh else self.port
        return f"{name}:{shown}" if shown else name

    @property
    def destination(self) -> str:
        """What ssh is given as the destination."""
        return f"{self.user}@{self.name}" if self.user else self.name


@dataclass
class FleetResult:
    """One session per host, in the order the hosts were given."""

    hosts: list[Host]
    sessions: list[SessionResult] = field(default_factory=list)
    one_at_a_time: bool = False

    @property
    def labels(self) -> list[str]:
        """The hosts as reports name them (a side by side's labels)."""
        return [h.label for h in self.hosts]

    def pairs(self) -> list[tuple[Host, SessionResult]]:
        return list(zip(self.hosts, self.sessions))

    def failed(self) -> list[Host]:
        return [h for h, s in self.pairs() if s.status is Status.FAILED]

    def cancelled(self) -> bool:
        return any(s.status is Status.CANCELLED for s in self.sessions)
