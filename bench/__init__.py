"""Benchmark, load and fault tooling for the scoring service (``make bench``, ``make load``).

``handgen`` makes legal winning score requests; ``strategies`` wraps the same building blocks
as hypothesis strategies. Nothing here is imported by the service itself.
"""
