"""ssh's ProxyCommand for the test hosts: run inside a host's network namespace (nsenter), it
joins ssh's stdin and stdout to HOST:PORT there. ``ssh_relay.py HOST PORT NAME`` (NAME only
tells the relays apart, so a test can cut one host's connection)."""

import os
import socket
import sys
import threading


def main() -> None:
    try:
        sock = socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=5)
    except OSError as e:
        sys.stderr.write(f"ssh_relay: {sys.argv[1]} port {sys.argv[2]}: {e.strerror or e}\n")
        sys.exit(1)
    sock.settimeout(None)

    def up() -> None:
        while data := os.read(0, 65536):
            sock.sendall(data)
        sock.shutdown(socket.SHUT_WR)

    threading.Thread(target=up, daemon=True).start()
    while data := sock.recv(65536):
        os.write(1, data)


if __name__ == "__main__":
    main()
