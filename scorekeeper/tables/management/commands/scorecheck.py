"""`manage.py scorecheck FILE [--json]`: score and check a match file from the terminal."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandParser

from scorekeeper.rules import score_match
from scorekeeper.rules.matchfile import MatchFileError, read_match
from scorekeeper.rules.sheet import render_sheet

#: exit codes, part of the public interface (README, *scorecheck*)
CLEAN, HAS_ERRORS, UNREADABLE = 0, 1, 2


class Command(BaseCommand):
    help = (
        "Score a match file and check it against the rules. Exits 0 when there are no error "
        "findings, 1 when there are, 2 when the file cannot be read as a match."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help='the match file, or "-" for standard input')
        parser.add_argument("--json", action="store_true", help="print one JSON object")

    def handle(self, *args, **options) -> None:
        name = options["file"]
        try:
            text = sys.stdin.read() if name == "-" else Path(name).read_bytes()
        except OSError as error:
            self.stderr.write(f"{name}: unreadable: {error.strerror}")
            sys.exit(UNREADABLE)
        try:
            match = read_match(text)
        except MatchFileError as error:
            self.stderr.write(f"{name}: {error}")
            sys.exit(UNREADABLE)
        board = score_match(match)
        if options["json"]:
            self.stdout.write(json.dumps(board.as_dict(), indent=2, ensure_ascii=False))
        else:
            self.stdout.write(render_sheet(match, board), ending="")
        sys.exit(HAS_ERRORS if board.errors else CLEAN)
