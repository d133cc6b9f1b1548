#!/bin/sh
# completion.sh - the bash completion (completion/fieldmarshal) in bash:
# subcommands, options, option values and stored names come from the
# program, so each case checks against what the program itself says.
# Skips (77) without bash.
set -u
: "${FIELDMARSHAL:?set by make check}" "${srcdir:?set by make check}"
command -v bash > /dev/null || { echo "SKIP: no bash"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/ffcompl.XXXXXX")
trap 'rm -rf "$work"' EXIT
export XDG_DATA_HOME="$work/data" LC_ALL=C
cd "$work" || exit 1
"$FIELDMARSHAL" levels list > /dev/null 2>&1      # the database made and seeded
"$FIELDMARSHAL" replays add run1 "$srcdir/tests/replays/solve-maze.replay" > /dev/null
touch maze.tmx notes.txt

# complete WORDS...: the completions of the last word, sorted, one line
complete_words() {
	F="$FIELDMARSHAL" bash -c '
		. "$0/completion/fieldmarshal"
		COMP_WORDS=("$@"); COMP_WORDS[0]=$F; COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		_fieldmarshal
		((${#COMPREPLY[@]})) && printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "' \
		"$srcdir" "$@"
}
status=0
check() {
	want=$1; shift
	got=$(complete_words "$@")
	[ "$got" = "$want" ] || { echo "FAIL: [$*] gave '$got', expected '$want'"; status=1; }
}

cmds=$("$FIELDMARSHAL" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }' |
	sort | tr '\n' ' ')
check "$cmds" fieldmarshal ""
check "solve " fieldmarshal sol
check "--method " fieldmarshal solve --meth
check "fmm fmm2 " fieldmarshal solve --method fm
check "costs effective flow integration " fieldmarshal solve --show ""
check "map png svg text tmj tmx " fieldmarshal export --format ""
check "chokepoint " fieldmarshal show cho
check "maze maze.tmx " fieldmarshal solve maz
check "maze " fieldmarshal export maz
check "cp list rename rm show " fieldmarshal levels ""
check "add list rm show " fieldmarshal replays ""
check "run1 " fieldmarshal replays show ru
check "--json --junit " fieldmarshal replay --j
check "maze.tmx " fieldmarshal import maze.t
check "notes.txt " fieldmarshal solve chokepoint -o no
check "--layer " fieldmarshal import --la
# --db FILE reaches the program: another database's levels
"$FIELDMARSHAL" --db other.db levels list > /dev/null 2>&1
"$FIELDMARSHAL" --db other.db levels rename maze labyrinth > /dev/null
check "labyrinth " fieldmarshal --db other.db export lab
check "" fieldmarshal export lab

[ $status = 0 ] && echo "completion: subcommands, options, values, names and files"
exit $status
