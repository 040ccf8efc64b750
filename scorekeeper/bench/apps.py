from __future__ import annotations

from django.apps import AppConfig


class BenchConfig(AppConfig):
    name = "scorekeeper.bench"
    label = "bench"
    verbose_name = "Benchmark"
