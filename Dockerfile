# Zung Jung scoring service: a stateless, CPU-bound Flask app served by gunicorn.
#
#   docker build -t zj-service:3.0.13 .
#   docker run --rm -p 8000:8000 --read-only zj-service:3.0.13
#
# Every stage starts from BASE_IMAGE, so a machine that cannot pull python:3.12-slim can pass a
# locally built image with `python` and `pip` on PATH instead (see scripts/container-test.sh).
# The base is the only thing this file assumes: no curl, no shell tools beyond POSIX sh.
ARG BASE_IMAGE=python:3.12-slim

# ---------------------------------------------------------------------------------------------
# build: compile the service's core with mypyc (see setup.py) and turn the tree into a wheel.
# Nothing from this stage but the wheel reaches the runtime image (no compiler, no mypy, no
# source checkout).
# ---------------------------------------------------------------------------------------------
FROM ${BASE_IMAGE} AS build

ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONDONTWRITEBYTECODE=1

# A C compiler for mypyc's output; the base image brings Python's headers. Versions are left to
# the base's Debian release (DL3008): this stage is thrown away, only the wheel it builds is
# kept, and that wheel is checked below.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends gcc libc6-dev \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /src

# The compiler toolchain (mypy with mypyc, setuptools), hash-checked, in a venv of its own; and
# the service's dependencies, as the runtime stage installs them, in another: the compiled build
# is profile-guided, so it runs once, instrumented, on a workload (scripts/wheel.sh).
COPY requirements-build.lock requirements.lock ./
RUN python -m venv /opt/build \
 && /opt/build/bin/pip install --require-hashes --no-deps -r requirements-build.lock \
 && python -m venv /opt/workload \
 && /opt/workload/bin/pip install --require-hashes --no-deps -r requirements.lock

# Only what the wheel is built from, and the two scripts that build it. openapi.yaml sits at the
# repo root and service/openapi.yaml is a symlink to it (../openapi.yaml): copying both keeps the
# link resolvable here, and setuptools copies the link's *target* into the wheel as package data.
COPY pyproject.toml setup.py README.md openapi.yaml ./
COPY scripts/wheel.sh scripts/profile_workload.py scripts/
COPY service/ service/

# --no-deps: the dependencies come from requirements.lock in the runtime stage, with hashes.
# The check after it fails the build if the spec did not make it into the wheel as a real,
# identical file, if the playground's files or the suits' table (package data) are missing, or
# if the core did not come out compiled (each would only show at run time).
RUN sh scripts/wheel.sh /opt/build/bin/python /opt/workload/bin/python /src/dist \
 && python -c "import pathlib, sys, zipfile; \
whl = next(pathlib.Path('/src/dist').glob('*.whl')); \
names = zipfile.ZipFile(whl).namelist(); \
spec = zipfile.ZipFile(whl).read('service/openapi.yaml'); \
compiled = [n for n in names if n.startswith('service/domain/scoring/scoring.') and n.endswith('.so')]; \
page = 'service/playground/index.html' in names and 'service/playground/tiles.svg' in names; \
table = 'service/domain/analysis/suits.bin' in names; \
sys.exit('openapi.yaml missing from ' + whl.name if spec != pathlib.Path('openapi.yaml').read_bytes() \
         else 'the playground missing from ' + whl.name if not page \
         else 'the suits table missing from ' + whl.name if not table \
         else None if compiled else 'no compiled modules in ' + whl.name)"

# ---------------------------------------------------------------------------------------------
# runtime: a virtualenv with the locked dependencies and the wheel, run as an unprivileged user.
# ---------------------------------------------------------------------------------------------
FROM ${BASE_IMAGE} AS runtime

# VERSION follows pyproject.toml; SOURCE_URL is the repository URL, passed by the build
# (`--build-arg SOURCE_URL=$(git remote get-url origin)`): this file does not hard-code one.
ARG VERSION=3.0.13
ARG SOURCE_URL=""
LABEL org.opencontainers.image.title="zj-service" \
      org.opencontainers.image.description="Zung Jung mahjong scoring service: a stateless REST API that scores hands by Alan Kwan's pattern system." \
      org.opencontainers.image.source="${SOURCE_URL}" \
      org.opencontainers.image.licenses="MIT" \
      org.opencontainers.image.version="${VERSION}"

# PYTHONDONTWRITEBYTECODE: the root filesystem is read-only at run time; the .pyc files are
# compiled once by pip at install time instead. PYTHONUNBUFFERED: log lines reach the container
# runtime as they are written. PATH puts the venv's python and gunicorn first.
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    VIRTUAL_ENV=/opt/venv \
    PATH=/opt/venv/bin:$PATH \
    PORT=8000

# A fixed numeric uid/gid (10001, outside any distribution's system range) so that Kubernetes'
# runAsNonRoot can verify it, and a named user so that tools print a name. No home directory,
# no login shell.
RUN groupadd --system --gid 10001 app \
 && useradd --system --uid 10001 --gid app --no-create-home --home-dir /nonexistent \
        --shell /usr/sbin/nologin app

# Dependencies first (this layer is reused while requirements.lock is unchanged), every
# distribution checked against the lock's sha256 hashes; then the service's own wheel without
# resolving anything further.
COPY requirements.lock /tmp/requirements.lock
RUN python -m venv "$VIRTUAL_ENV" \
 && pip install --require-hashes --no-deps -r /tmp/requirements.lock \
 && rm /tmp/requirements.lock

COPY --from=build /src/dist/ /tmp/dist/
RUN pip install --no-deps /tmp/dist/*.whl \
 && rm -rf /tmp/dist \
 && python -c "import service; service.create_app"

WORKDIR /app
# Owned by root and not writable by the app user; gunicorn only reads it.
COPY gunicorn.conf.py /app/gunicorn.conf.py

USER 10001:10001
EXPOSE 8000

# Readiness, not just liveness: the container is healthy when the app answers /readyz. Python's
# urllib instead of curl (not in the image); it raises, so exits non-zero, on any non-2xx.
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:' + os.environ.get('PORT', '8000') + '/readyz', timeout=4)"]

# Exec form: zj-serve checks every setting (one line on a bad one, where gunicorn itself would
# print a traceback for WEB_CONCURRENCY=two), then execs gunicorn, which stays PID 1 and
# receives SIGTERM directly (graceful shutdown, see graceful_timeout in gunicorn.conf.py).
# Settings come from the environment (README "Configuration").
CMD ["zj-serve", "--config", "/app/gunicorn.conf.py", "service:create_app()"]
