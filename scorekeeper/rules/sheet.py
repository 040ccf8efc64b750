"""The scoreboard as a plain-text score sheet, for terminals and printouts."""

from __future__ import annotations

from scorekeeper.rules.match import GAME_NAMES, HOUSE_RULES, Match
from scorekeeper.rules.scoreboard import Scoreboard


def render_sheet(match: Match, board: Scoreboard) -> str:
    """Hands as rows, sides as columns (the hand's points, then the running total)."""
    lines = [_title(match), f"Players: {', '.join(match.players)}"]
    lines.append("")
    label = "Round" if match.game == "chickenfoot" else "Hand"
    widths = [max(len(side.label), 11) for side in board.sides]
    lines.append(
        f"{label:<6}"
        + "".join(f"  {side:>{width}}" for side, width in zip(board.sides, widths, strict=True))
    )
    for hand in board.hands:
        cells = [f"{hand.points[side]:>4} ({hand.running[side]})" for side in board.sides]
        marker = "" if hand.finished else "  (in play)"
        lines.append(
            f"{hand.number:<6}"
            + "".join(f"  {cell:>{width}}" for cell, width in zip(cells, widths, strict=True))
            + marker
        )
    lines.append(
        f"{'Total':<6}"
        + "".join(
            f"  {board.totals[side]:>{width}}"
            for side, width in zip(board.sides, widths, strict=True)
        )
    )
    lines.append("")
    if board.winner is not None:
        winners = board.winner if isinstance(board.winner, list) else [board.winner]
        verb = "share the win" if len(winners) > 1 else "wins"
        lines.append(f"Winner: {' and '.join(map(str, winners))} {verb}.")
    elif board.next is not None:
        lines.append(f"Next: {board.next.says}")
    for hand in board.hands:
        lines.append("")
        lines.append(f"{label} {hand.number}")
        lines += [f"  {line}" for line in hand.explanation if str(line)]
    lines.append("")
    if board.findings:
        lines.append(f"Findings ({len(board.findings)})")
        for found in board.findings:
            lines.append(f"  {found.severity.upper():<7} {found.code}: {found.message}")
    else:
        lines.append("Findings: none. Everything adds up.")
    return "\n".join(lines) + "\n"


def _title(match: Match) -> str:
    title = GAME_NAMES[match.game]
    rules = [
        f"{name.replace('_', ' ')} {_value(value)}"
        for name, value in {**HOUSE_RULES[match.game], **match.rules}.items()
    ]
    return f"{title} ({'; '.join(rules)})"


def _value(value: int | bool) -> str:
    if value is True:
        return "on"
    if value is False:
        return "off"
    return str(value)
