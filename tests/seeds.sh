#!/bin/sh
# Parses the real posts in ../shared/seeds (when present, as on CI and the
# developers' machines) and checks the runs found per tool against what each
# post contains. usage: seeds.sh BENCHLOG
set -u
bin=$1
here=$(cd "$(dirname "$0")/.." && pwd)
seeds="$here/../shared/seeds"
if [ ! -d "$seeds" ]; then
	echo "seeds: ../shared/seeds not found; skipped (0 passed, 0 failed)"
	exit 0
fi
exec /usr/bin/python3 "$here/tests/seeds.py" "$bin" "$seeds"
