#!/usr/bin/env bash
# Sets everything up on a fresh machine (Debian packages, release build) and
# runs the main job: scripts/demo.py.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
scripts/build.sh release
PYTHONPATH="$PWD/python${PYTHONPATH:+:$PYTHONPATH}" exec /usr/bin/python3 scripts/demo.py "$@"
