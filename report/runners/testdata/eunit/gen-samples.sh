#!/bin/sh
# Regenerates the EUnit samples in this directory by really running
# Debian's Erlang (erlang-base, erlang-eunit) and rebar3 on fixture/: the
# module calc_tests has two failing tests, calc_pass_tests none; in a copy,
# fixture-timeout's slow_tests has one test EUnit cancels at its timeout. The
# absolute paths of the temporary copy the tests run in are replaced by
# /src, and nothing else is changed (rebar3's colours stay).
#
#   cd report/runners/testdata/eunit && ./gen-samples.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -R "$here/fixture/." "$work/"
export HOME="$work/home" # rebar3 keeps its cache there; it needs no network
mkdir -p "$HOME"

run() { # sample name, then the command
	out=$1
	shift
	(cd "$work" && "$@" >"$work/out.log" 2>&1) || true
	sed "s|$work|/src|g" "$work/out.log" >"$here/$out.log"
}

run rebar3-fail rebar3 eunit
run rebar3-verbose-fail rebar3 eunit -v
run rebar3-pass rebar3 eunit --module=calc_pass_tests
mkdir -p "$work/ebin"
(cd "$work" && erlc -o ebin src/calc.erl test/calc_tests.erl test/calc_pass_tests.erl)
run erl-fail erl -noshell -pa ebin -eval 'eunit:test(calc_tests), init:stop()'
run erl-verbose-fail erl -noshell -pa ebin -eval 'eunit:test(calc_tests, [verbose]), init:stop()'
run erl-pass erl -noshell -pa ebin -eval 'eunit:test(calc_pass_tests), init:stop()'
# A test past its timeout: EUnit prints *timed out* and leaves it out of
# its total.
cp "$here/fixture-timeout/slow_tests.erl" "$work/test/"
run rebar3-timeout rebar3 eunit --module=slow_tests
(cd "$work" && erlc -o ebin test/slow_tests.erl)
run erl-timeout erl -noshell -pa ebin -eval 'eunit:test(slow_tests, [verbose]), init:stop()'
