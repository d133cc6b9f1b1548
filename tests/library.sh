#!/bin/sh
# library.sh - libfieldmarshal as another program uses it: the example of
# docs/embedding.md, built against the library (tests/embed), prints the
# values worked by hand (tests/embed-out.sh), and the shared library
# exports the fm_ names of fieldmarshal.h and nothing else.
set -u
: "${srcdir:?set by make check}" "${top_builddir:?set by make check}"
work=$(mktemp -d "${TMPDIR:-/tmp}/fflib.XXXXXX")
trap 'rm -rf "$work"' EXIT
status=0
fail() { echo "FAIL: $*"; status=1; }

"$top_builddir/tests/embed" > "$work/out" || fail "the example exited $?"
sh "$srcdir/tests/embed-out.sh" "$work/out" || status=1

so=$(ls "$top_builddir"/src/lib/.libs/libfieldmarshal.so.* 2> /dev/null | head -n 1)
if [ -n "$so" ] && command -v nm > /dev/null; then
	nm -D --defined-only "$so" | awk '$2 ~ /^[TDBRVW]$/ { print $3 }' | sort > "$work/exported"
	grep -o '^FM_API [^(]*(' "$srcdir/src/lib/fieldmarshal.h" | sed 's/.*[ *]\([a-z_0-9]*\)($/\1/' |
		sort > "$work/declared"
	grep -v '^fm_' "$work/exported" > "$work/extra" && fail "exported beyond fm_: $(tr '\n' ' ' < "$work/extra")"
	cmp -s "$work/exported" "$work/declared" ||
		fail "exports differ from the header: $(diff "$work/declared" "$work/exported" | tr '\n' ' ')"
	[ "$(wc -l < "$work/declared")" -ge 20 ] || fail "only $(wc -l < "$work/declared") functions in the header"
else
	echo "no shared library or nm: the exports are not checked"
fi
[ $status = 0 ] && echo "library: the example runs; $(wc -l < "$work/exported" 2>/dev/null) fm_ functions exported"
exit $status
