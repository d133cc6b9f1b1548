#!/bin/sh
# replays.sh - replays every recorded scenario in tests/replays/ and proves
# the check can fail: one altered number in a copy must fail at its line.
set -u
: "${FIELDMARSHAL:?set by make check}" "${srcdir:?set by make check}"
dir=$srcdir/tests/replays
status=0

"$FIELDMARSHAL" replay "$dir"/*.replay || status=1
n=$(ls "$dir"/*.replay | wc -l)
[ "$n" -ge 10 ] || { echo "only $n replays in $dir (want at least 10)"; status=1; }

# Add 1 to the first expected value in a copy; the copy sits beside the
# original so its relative level path still resolves.
copy=$dir/.altered-$$.replay
trap 'rm -f "$copy"' EXIT
line=$(grep -n '^expect value ' "$dir/solve-open.replay" | head -n 1 | cut -d: -f1)
alter() { awk -v n="$line" 'NR == n { $NF = $NF + 1 } { print }' "$dir/solve-open.replay"; }
alter > "$copy" 2>/dev/null || {
	# a read-only source tree (make distcheck): copy the level too
	tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
	mkdir -p "$tmp/tests/replays" "$tmp/levels"
	cp "$srcdir"/levels/*.level "$tmp/levels/"
	copy=$tmp/tests/replays/altered.replay
	alter > "$copy"
}
if "$FIELDMARSHAL" replay "$copy" 2> "$copy.err"; then
	echo "an altered replay passed"; status=1
elif ! grep -q "altered.*replay:$line:[0-9]*: expected value" "$copy.err"; then
	echo "the altered replay did not fail at line $line:"; cat "$copy.err"; status=1
fi
rm -f "$copy.err"
[ $status = 0 ] && echo "replays: $n passed, 0 failed"
exit $status
