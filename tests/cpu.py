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
from collections.abc import Callable

from benchmarks.data import deal, player_names
from scorekeeper import rules

#: the yardstick's CPU seconds on the idle 2-core machine the bounds were measured on (a quicker
#: one took 0.031, and its pages as much less: docs/benchmark.md, *Results*)
YARDSTICK_WHEN_IDLE = 0.058
READINGS = 5
#: work over its bound is measured again, beside a yardstick measured again, at most this many
#: times in all (``judged``). Under the suite's other process the largest pages slowed by up to
#: 1.7 times while the yardstick, small enough to stay in the processor's cache, slowed by 1.1
#: (the big season's wall board at 0.20 s against 0.18 allowed, 0.12 alone): a spell of the
#: other process's heaviest tests, not the work's own cost, which work over its bound on every
#: try still shows
TRIES = 3


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


def judged(measure: Callable[[], float], seconds_when_idle: float) -> tuple[float, float]:
    """The CPU seconds ``measure`` reports (the best of its readings) and the most that work
    may take now, beside the yardstick; measured again while over, TRIES times at most."""
    for _ in range(TRIES):
        spent, most = measure(), most_now(seconds_when_idle)
        if spent <= most:
            break
    return spent, most
