#!/usr/bin/env bash
# Installs those of Debian's packages that are missing, in one apt-get run (two at once would
# wait on each other's lock). Only the missing ones: a machine whose node came from elsewhere
# (nodesource, nvm) cannot take Debian's npm beside it, and asking for it failed the whole run,
# chromium with it. Where apt-get is not usable (not root, no network), prints SKIPPED.
#
#   scripts/apt-tools.sh SKIPPED PACKAGE:CHECK ...
#
# CHECK is a command the package provides, or "zh-font" for a font that draws Chinese.
set -uo pipefail
skipped=$1
shift
missing=()
for pair in "$@"; do
    package=${pair%%:*}
    check=${pair#*:}
    if [[ $check == zh-font ]]; then
        fc-list :lang=zh-tw family 2>/dev/null | grep -q . && continue
    else
        command -v "$check" >/dev/null && continue
    fi
    missing+=("$package")
done
((${#missing[@]})) || exit 0
echo "installing Debian's ${missing[*]}"
{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"; } \
    || echo "$skipped"
