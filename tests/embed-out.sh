#!/bin/sh
# embed-out.sh OUT - checks what the example of docs/embedding.md printed
# (OUT) against values worked by hand: the value at 2,1 is 6 + 6*sqrt(2)
# round the wall, the arrow in the gap at 6,7 points north-east to 7,6
# (7.657 against 8.243 east), and all 12 agents are placed and arrive.
set -u
out=$1
status=0
want=$(awk 'BEGIN { printf "value at 2,1: %.4f", 6 + 6 * sqrt(2) }')
[ "$(sed -n 1p "$out")" = "$want" ] || { echo "FAIL: '$(sed -n 1p "$out")', expected '$want'"; status=1; }
[ "$(sed -n 2p "$out")" = "arrow at 6,7: 1,-1" ] ||
	{ echo "FAIL: '$(sed -n 2p "$out")', expected 'arrow at 6,7: 1,-1'"; status=1; }
[ "$(sed -n 3p "$out")" = "arrived: 12 of 12" ] ||
	{ echo "FAIL: '$(sed -n 3p "$out")', expected 'arrived: 12 of 12'"; status=1; }
[ "$(wc -l < "$out")" = 3 ] || { echo "FAIL: $(wc -l < "$out") lines"; status=1; }
[ $status = 0 ] && echo "embedding example: $(tr '\n' ';' < "$out")"
exit $status
