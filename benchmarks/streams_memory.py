"""What an open stream costs the server in memory: `manage.py benchmark --streams-memory N`.

The app runs under uvicorn as in the hall; N clients open the season's stream (the wall
board's) and hold it, idle, as phones on a table between taps do. The memory of the server's
processes (the master and its workers: resident, and unique to each) is read with a few streams
opened and closed first (so that every worker has answered a stream and loaded what it needs),
then with the N streams open; the difference over N is the figure per stream.
"""

from __future__ import annotations

import asyncio
import time
from urllib.parse import urlsplit

import psutil  # type: ignore[import-untyped]  # locust brings it; its stubs are not installed

#: streams opened and closed before the first reading, so that the workers are warm
WARM = 20
#: how long to wait, with the streams open, before reading (the workers settle)
SETTLE_SECONDS = 2.0


def measure(base: str, path: str, count: int, pid: int) -> dict:
    """The server's memory (the process ``pid`` and its children) before and with ``count``
    idle streams of ``path`` open."""
    return asyncio.run(_measure(base, path, count, pid))


async def _measure(base: str, path: str, count: int, pid: int) -> dict:
    address = urlsplit(base)
    host, port = address.hostname or "127.0.0.1", address.port or 80
    warm = [await _open(host, port, path) for _ in range(WARM)]
    for _, writer in warm:
        writer.close()
    await asyncio.sleep(SETTLE_SECONDS)
    before = _memory(pid)
    opened: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
    refused = 0
    started = time.monotonic()
    for first in range(0, count, 100):
        batch = await asyncio.gather(
            *(_open(host, port, path) for _ in range(min(100, count - first))),
            return_exceptions=True,
        )
        for each in batch:
            if isinstance(each, BaseException):
                refused += 1
            else:
                opened.append(each)
    took = time.monotonic() - started
    await asyncio.sleep(SETTLE_SECONDS)
    held = _memory(pid)
    for _, writer in opened:
        writer.close()
    streams = len(opened)
    return {
        "streams": streams,
        "refused": refused,
        "open_seconds": round(took, 2),
        "processes": held["processes"],
        "rss_mb_before": round(before["rss"] / 2**20, 1),
        "rss_mb_with_streams": round(held["rss"] / 2**20, 1),
        "uss_mb_before": round(before["uss"] / 2**20, 1),
        "uss_mb_with_streams": round(held["uss"] / 2**20, 1),
        "rss_kb_per_stream": round((held["rss"] - before["rss"]) / 1024 / max(1, streams), 1),
        "uss_kb_per_stream": round((held["uss"] - before["uss"]) / 1024 / max(1, streams), 1),
    }


async def _open(
    host: str, port: int, path: str
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A stream, opened as a browser opens it, read up to its first redraw."""
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(
        f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n"
        "Cache-Control: no-cache\r\n\r\n".encode()
    )
    await writer.drain()
    status = await asyncio.wait_for(reader.readline(), 30)
    if b" 200 " not in status:
        writer.close()
        raise ConnectionRefusedError(status.decode(errors="replace").strip())
    # the headers, then the first frames: "retry" and the redraw
    while b"event: changed" not in await asyncio.wait_for(reader.readline(), 30):
        pass
    return reader, writer


def _memory(pid: int) -> dict[str, int]:
    root = psutil.Process(pid)
    processes = [root, *root.children(recursive=True)]
    rss = uss = 0
    for process in processes:
        try:
            full = process.memory_full_info()
        except psutil.NoSuchProcess:
            continue
        rss += full.rss
        uss += full.uss
    return {"rss": rss, "uss": uss, "processes": len(processes)}


def render(measured: dict) -> str:
    return "\n".join(
        [
            "",
            f"Open streams: {measured['streams']} idle streams held by uvicorn (its "
            f"{measured['processes']} processes: the master, its workers and multiprocessing's "
            f"tracker; {measured['refused']} refused), opened in "
            f"{measured['open_seconds']:g} s.",
            f"  the server's memory, resident: {measured['rss_mb_before']:g} MB before, "
            f"{measured['rss_mb_with_streams']:g} MB with the streams: "
            f"{measured['rss_kb_per_stream']:g} KB a stream",
            f"  unique to its processes (USS): {measured['uss_mb_before']:g} MB before, "
            f"{measured['uss_mb_with_streams']:g} MB with the streams: "
            f"{measured['uss_kb_per_stream']:g} KB a stream",
        ]
    )
