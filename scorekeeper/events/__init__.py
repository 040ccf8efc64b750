"""Tournaments: events of several rounds for fixed partnerships or individuals.

standings.py (results, tie-breaks, the event's standings) and pairing.py (Swiss rounds and
round robin) are pure Python with no Django import, like the league night's draw; the event's
models, views and the director's desk are to be built on them.
"""
