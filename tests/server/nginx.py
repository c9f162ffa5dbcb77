"""A real reverse proxy for the tests: the distribution's nginx, started on 127.0.0.1 with a configuration
written in a folder of the test's (no daemon; its pid file, logs and temporary files there too), in front
of a server, setting `X-Forwarded-For`, `X-Forwarded-Host` and `X-Forwarded-Proto` as docs/online.md tells a
host to. A missing nginx fails the test in words: a test that skipped would prove nothing (.ci/run installs
it)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

#: Seconds nginx may take to listen on a loaded machine, or to stop.
PATIENCE = 30.0

CONFIGURATION = """\
daemon off;
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log info;
events {{ worker_connections 512; }}
http {{
    access_log {folder}/access.log;
    client_body_temp_path {folder}/temp/body;
    proxy_temp_path {folder}/temp/proxy;
    fastcgi_temp_path {folder}/temp/fastcgi;
    uwsgi_temp_path {folder}/temp/uwsgi;
    scgi_temp_path {folder}/temp/scgi;
    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass http://127.0.0.1:{upstream};
            proxy_http_version 1.1;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection "upgrade";
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Host $http_host;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_read_timeout 60s;
        }}
    }}
}}
"""


def nginx_binary() -> str:
    """nginx's path (Debian installs it in /usr/sbin, which a user's PATH may not hold); a failed test
    when it is not installed."""
    found = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/usr/local/sbin")
    if found is None:
        pytest.fail("nginx is not installed (Debian: apt-get install nginx): the proxy tests drive a real one")
    return found


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _listening(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


@contextmanager
def nginx_in_front(folder: Path, upstream: int) -> Iterator[str]:
    """nginx on a free loopback port, proxying to the server on `upstream`, for the block: its ws:// URL."""
    binary = nginx_binary()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "temp").mkdir(exist_ok=True)
    port = _free_port()
    conf = folder / "nginx.conf"
    conf.write_text(CONFIGURATION.format(folder=folder, port=port, upstream=upstream))
    error_log = folder / "error.log"
    command = [binary, "-p", f"{folder}/", "-c", str(conf), "-e", str(error_log)]
    proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + PATIENCE
        while not _listening(port):
            if proc.poll() is not None or time.monotonic() > deadline:
                said = error_log.read_text(errors="replace") if error_log.exists() else ""
                pytest.fail(f"nginx did not start ({proc.poll()=}):\n{said[-2000:]}")
            time.sleep(0.05)
        yield f"ws://127.0.0.1:{port}"
    finally:
        proc.terminate()  # SIGTERM: nginx's fast shutdown; its workers go with its master
        try:
            proc.wait(PATIENCE)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(PATIENCE)
        if proc.stderr is not None:
            proc.stderr.close()
        assert not os.path.exists(folder / "nginx.pid"), "nginx left its pid file: it did not stop cleanly"
