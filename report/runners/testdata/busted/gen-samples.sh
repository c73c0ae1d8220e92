#!/bin/sh
# Regenerates the busted samples in this directory by really running
# Debian's busted (lua-busted) on fixture/, a Lua project whose specs have
# one failing assertion, one error (error()), two pending tests and nested
# describe blocks; fixture-broken/ adds a spec that does not parse and one
# whose before_each fails. Run outside a terminal, busted's default output
# is plainTerminal; utfTerminal is what a terminal (or -o utfTerminal)
# gets. The absolute paths of the temporary copy are replaced by /src, and
# nothing else is changed.
#
#   cd report/runners/testdata/busted && ./gen-samples.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -R "$here/fixture/." "$work/"

run() { # sample name, then the command
	out=$1
	shift
	(cd "$work" && "$@" >"$work/out.log" 2>&1) || true
	sed "s|$work|/src|g" "$work/out.log" >"$here/$out.log"
}

run plain-fail busted
run plain-pass busted spec/table_spec.lua
run plain-verbose-fail busted --verbose
run utf-fail busted -o utfTerminal
run utf-color-fail busted -o utfTerminal -Xoutput --color
run repeat-fail busted --repeat=2 spec/calc_spec.lua
# Other output handlers, read by other runners' grammars (TAP) or by none.
run tap-fail busted -o TAP
run gtest-fail busted -o gtest
cp "$here/fixture-broken/"*.lua "$work/spec/"
run plain-broken busted
run utf-broken busted -o utfTerminal
