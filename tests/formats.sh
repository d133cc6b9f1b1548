#!/bin/sh
# formats.sh - level files other tools write, through the program: every
# Moving AI map in tests/data imported and exported again is the same bytes
# (trees and all), and so is one shown as a text level and back.
set -u
: "${FIELDMARSHAL:?set by make check}" "${srcdir:?set by make check}"
F=$FIELDMARSHAL
work=$(mktemp -d "${TMPDIR:-/tmp}/ffformats.XXXXXX")
trap 'rm -rf "$work"' EXIT
export XDG_DATA_HOME="$work/data" LC_ALL=C
cd "$work" || exit 1
status=0
fail() { echo "FAIL: $*"; status=1; }

n=0
for m in "$srcdir"/tests/data/*.map; do
	name=$(basename "$m" .map)
	"$F" import "$m" > /dev/null || fail "import $name exited $?"
	"$F" export "$name" -o "$name.map" || fail "export $name exited $?"
	cmp -s "$m" "$name.map" || fail "$name.map through the database differs"
	"$F" show "$m" -o "$name.level" && "$F" show "$name.level" --format map > "$name.2.map" ||
		fail "show $name as text and back exited $?"
	cmp -s "$m" "$name.2.map" || fail "$name.map through a .level differs"
	n=$((n + 1))
done
[ $n -ge 9 ] || fail "only $n maps in tests/data"

[ $status = 0 ] && echo "formats: $n maps round trip byte for byte"
exit $status
