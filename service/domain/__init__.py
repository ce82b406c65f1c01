"""The Zung Jung scoring domain: tiles, hands, decomposition, patterns, scoring, payments.

Pure Python with no web framework or schema library: the HTTP layer, the CLI and the tests
call it alike, and the image compiles it with mypyc (setup.py).
"""
