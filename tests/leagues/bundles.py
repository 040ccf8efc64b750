"""League bundles changed the way the tests need them: a file rewritten, the manifest changed,
the league renamed."""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Callable


def rewritten(
    data: bytes,
    change: Callable[[dict[str, bytes]], None],
    *,
    compression: int = zipfile.ZIP_STORED,
) -> bytes:
    """The bundle with its files (name -> content) changed by ``change``."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        files = {name: archive.read(name) for name in archive.namelist()}
    change(files)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression) as archive:
        for name, content in files.items():
            archive.writestr(name, content)
    return buffer.getvalue()


def manifest_change(change: Callable[[dict], None]) -> Callable[[dict[str, bytes]], None]:
    """A change to the bundle's files that changes its league.json."""

    def apply(files: dict[str, bytes]) -> None:
        manifest = json.loads(files["league.json"])
        change(manifest)
        files["league.json"] = json.dumps(manifest).encode()

    return apply


def renamed(data: bytes, name: str, *, compression: int = zipfile.ZIP_STORED) -> bytes:
    """The bundle with its league called ``name``."""
    return rewritten(
        data, manifest_change(lambda manifest: manifest.update(name=name)), compression=compression
    )
