"""A test's CPU judged against a yardstick measured beside it, not against the second.

CPU time (``time.process_time``) is this process's, whatever else the machine runs; but a busy
machine still slows it (shared caches, a lower clock), and a timed test may not depend on how
busy the machine is. So a bound is written as the CPU seconds the work takes at most on the idle
2-core machine of docs/limits.md, and held, on the machine the test runs on, to as many
yardsticks: the rules engine scoring a long match, pure Python, which slows as the work does.
The yardstick is the best of READINGS readings, as the work measured against it should be,
against a collection by the garbage collector landing in one of them.
"""

from __future__ import annotations

import functools
import gc
import random
import time

from benchmarks.data import deal, player_names
from scorekeeper import rules

#: the yardstick's CPU seconds on the idle 2-core machine the bounds were measured on (a quicker
#: one took 0.031, and its pages as much less: docs/benchmark.md, *Results*)
YARDSTICK_WHEN_IDLE = 0.058
READINGS = 5


@functools.cache
def long_match() -> rules.Match:
    """A four-player match of some sixty hands, dealt the same every time."""
    value = rules.Match("straight", tuple(player_names(4)), rules={"target": 1000})
    return value.with_hands(deal(random.Random(7), value, hands=None))


def yardstick() -> float:
    """The CPU seconds of the rules engine scoring the long match ten times, the best of
    READINGS."""
    readings = []
    for _ in range(READINGS):
        # no collection inside: its cost is the size of the heap (what the test filled), not the
        # machine's speed
        gc.collect()
        gc.disable()
        try:
            started = time.process_time()
            for _ in range(10):
                rules.score_match(long_match())
            readings.append(time.process_time() - started)
        finally:
            gc.enable()
    return min(readings)


def most_now(seconds_when_idle: float) -> float:
    """The CPU seconds that work taking at most ``seconds_when_idle`` on the idle machine may
    take on this one, as busy as it is now."""
    return seconds_when_idle / YARDSTICK_WHEN_IDLE * yardstick()
