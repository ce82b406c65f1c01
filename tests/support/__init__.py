"""What the tests share besides fixtures (those are in tests/conftest.py).

``hands``: the one builder of score requests and the checks of hand-worked results;
``contract``: the test client that checks every response against openapi.yaml;
``handgen`` and ``strategies``: the legal-hand generator and its hypothesis strategies, which
the benchmarks (bench/) draw their hands from too; ``tools``: the outside tools some tests
need (skipped where missing, failed with ``CI`` set); ``oracle``: shanten from its definition,
written apart from the service's analysis; ``selfplay``: hand records of four simple players
(every ending on demand), each with the score request it amounts to by the generator's own
books, written apart from the replay.
"""
