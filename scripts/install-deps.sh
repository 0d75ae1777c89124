#!/bin/sh
# Installs the Debian packages benchlog needs to build and test.
# Called by the Makefile when pkg-config cannot find a dependency, and by
# .ci/run on a fresh machine. Says what it installs; does nothing when all
# packages are present.
set -eu

packages="build-essential pkg-config libpcre2-dev libjansson-dev
libcairo2-dev libpango1.0-dev libfontconfig-dev fontconfig zlib1g-dev clang libclang-rt-14-dev
python3 python3-jsonschema fonts-dejavu-core fonts-noto-cjk valgrind parallel
bonnie++ bubblewrap zfs-fuse openssh-server openssh-client groff-base binutils clang-format
chromium chromium-driver"
# fontconfig brings fc-cache: without the system font caches every chart
# scans and reads the font files (Noto CJK alone is 89 MB) before drawing.
# bonnie++, bubblewrap (the replay sandbox) and zfs-fuse (zpool iostat
# replays) are for `benchlog replay`; iozone is in Debian's non-free only
# and comes from scripts/fetch-iozone.sh into tools/ (below). openssh-server
# is for the test of GNU parallel's --sshlogin (an sshd of its own on
# 127.0.0.1, tests/parallel.py); its own service is not used. groff-base
# checks the manual page (make man-check); binutils' nm and objcopy make and
# check the public library's exports (make install-check). clang-format lays
# out the sources (make format) and checks them (make format-check).
# chromium and chromium-driver load `benchlog report` pages headless and
# check their DOM (make report-check).

fetch_iozone() {
	here=$(cd "$(dirname "$0")/.." && pwd)
	if [ ! -x "$here/tools/bin/iozone" ] && [ "$(id -u)" -eq 0 ]; then
		"$here/scripts/fetch-iozone.sh" >&2 ||
			echo "benchlog: could not fetch iozone; iozone replays will be skipped" >&2
	fi
}

missing=""
for p in $packages; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing="$missing $p"
	fi
done

if [ -z "$missing" ]; then
	fetch_iozone
	exit 0
fi

echo "benchlog: installing Debian packages:$missing" >&2
if [ "$(id -u)" -ne 0 ]; then
	echo "benchlog: not root; run as root: apt-get install$missing" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >&2
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing >&2
# the font caches, in case no package trigger built them
fc-cache -s >&2 || echo "benchlog: fc-cache failed; charts will be slow" >&2
fetch_iozone
