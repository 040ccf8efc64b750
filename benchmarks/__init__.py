"""The benchmark: a hall's worth of data, the app under gunicorn, and a load generator.

It sits beside the app, in the checkout only: nothing in ``scorekeeper`` imports it and the
installed package leaves it out (pyproject.toml). `manage.py benchmark` runs it under its own
settings, ``benchmarks.settings`` (docs/benchmark.md).
"""
