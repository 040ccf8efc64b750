from __future__ import annotations

from django.apps import AppConfig


class BenchConfig(AppConfig):
    name = "benchmarks"
    label = "bench"
    verbose_name = "Benchmark"
