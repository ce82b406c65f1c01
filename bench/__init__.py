"""Benchmark, load and fault tooling for the scoring service (``make bench``, ``make load``).

The hands come from ``tests.support.handgen``, the generator the property tests draw from
too. Nothing here is imported by the service itself.
"""
