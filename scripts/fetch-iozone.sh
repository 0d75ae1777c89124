#!/bin/sh
# Downloads iozone into tools/ (gitignored) for `benchlog replay`.
#
# Debian ships iozone only in non-free (package iozone3). This fetches that
# package without touching the system's apt configuration: it reads which
# Debian mirror and suite the system uses (deb822 .sources files, or
# sources.list), writes a private sources list for the same mirror's
# non-free component under tools/apt/, downloads the .deb with
# `apt-get download` pointed at that list, and unpacks it into
# tools/iozone3/. tools/bin/iozone links to the binary; `benchlog replay`
# looks there (and on PATH).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
dest="$here/tools"

if [ -x "$dest/bin/iozone" ]; then
	echo "fetch-iozone: $dest/bin/iozone is already there"
	exit 0
fi
if [ -x /usr/bin/iozone ]; then
	mkdir -p "$dest/bin"
	ln -sf /usr/bin/iozone "$dest/bin/iozone"
	echo "fetch-iozone: using the installed /usr/bin/iozone"
	exit 0
fi

# The system's Debian archive: the first deb stanza with a main component
# that is not the security archive. Prints "URI SUITE KEYRING".
find_mirror() {
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk '
		function flush() {
			if (types ~ /(^| )deb( |$)/ && comps ~ /(^| )main( |$)/ && uris != "" &&
			    uris !~ /security/ && !done) {
				split(uris, u, " "); split(suites, s, " ")
				print u[1], s[1], (key == "" ? "-" : key); done = 1
			}
			types = uris = suites = comps = key = ""
		}
		/^[ \t]*$/ { flush(); next }
		/^#/ { next }
		/^Types:/ { sub(/^Types:[ \t]*/, ""); types = $0 }
		/^URIs:/ { sub(/^URIs:[ \t]*/, ""); uris = $0 }
		/^Suites:/ { sub(/^Suites:[ \t]*/, ""); suites = $0 }
		/^Components:/ { sub(/^Components:[ \t]*/, ""); comps = $0 }
		/^Signed-By:/ { sub(/^Signed-By:[ \t]*/, ""); key = $0 }
		END { flush() }' "$f"
	done
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		# deb [signed-by=...] URI SUITE main ...
		awk '$1 == "deb" {
			key = "-"; i = 2
			if ($2 ~ /^\[/) {
				while (i <= NF && $i !~ /\]$/) { if ($i ~ /signed-by=/) { k = $i; sub(/.*signed-by=/, "", k); key = k } i++ }
				if ($i ~ /signed-by=/) { k = $i; sub(/.*signed-by=/, "", k); sub(/\]$/, "", k); key = k }
				i++
			}
			uri = $i; suite = $(i + 1)
			if (uri !~ /security/ && $0 ~ / main( |$)/) { print uri, suite, key; exit }
		}' "$f"
	done
}

line=$(find_mirror | head -n 1)
if [ -z "$line" ]; then
	echo "fetch-iozone: no Debian mirror found in /etc/apt (sources.list or *.sources)" >&2
	exit 1
fi
set -- $line
uri=$1 suite=$2 key=$3
echo "fetch-iozone: $uri $suite non-free (the system's own mirror)"

apt="$dest/apt"
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/sources.list.d" "$dest/debs" "$dest/bin"
if [ "$key" != "-" ]; then
	echo "deb [signed-by=$key] $uri $suite non-free" > "$apt/sources.list"
else
	echo "deb $uri $suite non-free" > "$apt/sources.list"
fi
opts="-o Dir::Etc::sourcelist=$apt/sources.list -o Dir::Etc::sourceparts=$apt/sources.list.d
-o Dir::State::Lists=$apt/lists -o Dir::Cache=$apt/cache -o APT::Get::List-Cleanup=0
-o Debug::NoLocking=1"
# shellcheck disable=SC2086
apt-get -q $opts update >&2
# shellcheck disable=SC2086
(cd "$dest/debs" && apt-get -q $opts download iozone3 >&2)
deb=$(ls "$dest"/debs/iozone3_*.deb | tail -n 1)
rm -rf "$dest/iozone3"
dpkg-deb -x "$deb" "$dest/iozone3"
ln -sf ../iozone3/usr/bin/iozone "$dest/bin/iozone"
"$dest/bin/iozone" -v | grep -m1 Version || true
echo "fetch-iozone: installed $dest/bin/iozone from $(basename "$deb")"
