"""The Zung Jung scoring domain, a package by concern: ``rules`` (tiles, hands, patterns, rule
sets), ``scoring`` (a won hand scored and paid), ``analysis`` (hand analysis, the expected
score) and ``sheets`` (score sheets); the errors and the cache policy they share at its top.

Pure Python with no web framework or schema library: the HTTP layer, the CLI and the tests
call it alike, and the image compiles it with mypyc (setup.py).
"""
