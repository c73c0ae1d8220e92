#!/usr/bin/env bash
# Regenerates the `debian` group of the runner-output corpus: real projects'
# OWN test suites as Debian bookworm ships them (binary python3-* packages that
# carry their tests, source packages via apt-get source), each with one
# regression injected into the library code (never into the tests), run under
# runledger.
#
#   report/testdata/corpus/gen/debian.sh                  # all cases
#   report/testdata/corpus/gen/debian.sh deb-cjson-asan   # only the named cases
#   report/testdata/corpus/gen/debian.sh --check          # only check the stored cases
#
# Env: RUNLEDGER  a runledger binary (default: built from this checkout)
#      DEB_KEEP=1  keep /tmp/runledger-corpus-deb afterwards
#      DEB_WORK    another directory for the sources (another checkout regenerating at
#                  the same time wipes the default one)
#
# Needs apt with bookworm's deb and deb-src lines (apt-get source), and
# /usr/bin/python3 with python3-pytest, perl's prove, cmake + gcc with libasan,
# g++ with libgtest-dev, libgmock-dev and googletest (snappy's and yaml-cpp's tests),
# cargo (offline: the crate has no dependency the tests need), node 20 + npm with
# the registry reachable (jest for node-commander), ruby with ruby-rspec and
# ruby-rspec-pending-for (hashie's specs), g++ with the catch2 package (cli11's
# tests), elixir (EEx's), maven with Debian's libsurefire-java,
# libmaven-compiler-plugin-java, libmaven-resources-plugin-java, junit4 and
# libcommons-lang3-java (commons-codec, offline), and for commons-codec built as
# Debian builds it maven-debian-helper with the package's build dependencies
# (`apt-get build-dep libcommons-codec-java`), node (for the check). Packages
# are downloaded, never installed, except the
# tools (`apt-get install python3-pytest cmake`). Sources are unpacked to the
# fixed directory /tmp/runledger-corpus-deb (wiped at start and end) so that
# absolute paths in the logs (Python tracebacks, ASan frames) are the same on
# every regeneration. Each regression is an exact literal replacement that must
# match exactly once, else the script stops.
set -euo pipefail

GEN=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CORPUS=$(dirname "$GEN")
ROOT=$(cd "$CORPUS/../../.." && pwd)
WORK=${DEB_WORK:-/tmp/runledger-corpus-deb}
. "$GEN/lib.sh"
CHECK_ONLY=0
if [ "${1:-}" = --check ]; then
	CHECK_ONLY=1
	shift
fi

ALL=(deb-simplejson-unittest deb-networkx-pytest deb-networkx-pytest-many deb-json-perl-prove deb-cjson-ctest-asan deb-semver-cargo
	deb-commander-jest deb-hashie-rspec deb-toolz-pytest deb-strsim-cargo deb-dot-prop-ava
	deb-builder-minitest deb-parsedown-phpunit deb-marked-jasmine deb-toolz-doctest
	deb-networkx-pytest-xdist deb-toolz-pytest-native deb-commons-codec-surefire deb-snappy-gtest deb-yaml-cpp-ctest deb-commons-codec-base64
	deb-cli11-catch2 deb-cli11-catch2-s
	deb-elixir-eex-exunit deb-elixir-eex-exunit-trace)
CASES=("$@")
[ ${#CASES[@]} -gt 0 ] || CASES=("${ALL[@]}")

# Pinned versions (bookworm's).
SIMPLEJSON=python3-simplejson=3.18.3-1
NETWORKX=python3-networkx=2.8.8-1
JSONPERL=libjson-perl=4.10000-1
CJSON=cjson=1.7.15-1+deb12u4
SEMVER=librust-semver-dev=1.0.14-1
COMMANDER=node-commander=9.4.1-1
HASHIE=ruby-hashie=5.0.0-2
TOOLZ=python3-toolz=0.12.0-1
STRSIM=librust-strsim-dev=0.10.0-1
DOTPROP=node-dot-prop=7.2.0-3
BUILDER=ruby-builder=3.2.4-2
PARSEDOWN=php-parsedown=1.7.4-1
MARKED=node-marked=4.2.3+ds+~4.0.7-2
CODEC=libcommons-codec-java=1.15-1
SNAPPY=snappy=1.1.9-3
YAMLCPP=yaml-cpp=0.7.0+dfsg-8
CLI11=cli11=2.1.2+ds-1
ELIXIR=elixir-lang=1.14.0.dfsg-2
# Its test devDependencies at the versions of its package-lock.json.
MARKED_DEPS=(jasmine@4.5.0 @markedjs/html-differ@4.0.2 front-matter@4.0.2)
# Its devDependencies that `ava` needs (xo and tsc, the rest of its npm test, are left out).
DOTPROP_DEPS=(ava@4.0.1)
COMMANDER_DEPS=(jest@28.1.3 ts-jest@28.0.8 typescript@4.9.5 @types/jest@28.1.8)

RL=${RUNLEDGER:-}
if [ -z "$RL" ] && [ $CHECK_ONLY = 0 ]; then
	RL=/tmp/rl-deb
	(cd "$ROOT" && go build -o "$RL" ./cmd/runledger)
fi

export NO_COLOR=1 CI=1 PYTHONDONTWRITEBYTECODE=1 PYTHONHASHSEED=0

# debx PKG=VERSION DEST: unpacks the binary package into DEST.
debx() {
	rm -rf "$2" "$WORK/dl" && mkdir -p "$WORK/dl"
	(cd "$WORK/dl" && apt-get download -q "$1" >/dev/null)
	dpkg -x "$WORK"/dl/*.deb "$2"
}

# debsrc PKG=VERSION DEST: unpacks the source package (Debian's patches applied).
debsrc() {
	rm -rf "$2" "$WORK/dl" && mkdir -p "$WORK/dl"
	(cd "$WORK/dl" && apt-get source -q --download-only "$1" >/dev/null)
	dpkg-source -q -x "$WORK"/dl/*.dsc "$2" >/dev/null
}

# upstream PKG=VERSION DEST: unpacks the upstream tarball of a source
# package. This mirror serves some packages' upstream tarballs without
# their debian/ part, so apt-get source errs; the tarball (with the tests
# the npm or gem package leaves out) is what is needed.
upstream() {
	rm -rf "$2" "$WORK/dl" && mkdir -p "$WORK/dl" "$2"
	(cd "$WORK/dl" && apt-get source -q --download-only "$1" >/dev/null 2>&1) || true
	local tarball
	tarball=$(ls "$WORK"/dl/*.orig.tar.* | head -n 1)
	tar xf "$tarball" -C "$2" --strip-components=1
}

case_deb-simplejson-unittest() {
	local d=$WORK/simplejson
	debx $SIMPLEJSON "$d"
	local lib=$d/usr/lib/python3/dist-packages
	# The pure-Python encoder escapes a tab as \u0009 instead of \t.
	replace "$lib/simplejson/encoder.py" $'    \'\\t\': \'\\\\t\',' $'    \'\\t\': \'\\\\u0009\','
	# simplejson.tests.main runs the suite with and without the C speedups.
	capture deb-simplejson-unittest "$lib" /usr/bin/python3 -c 'import simplejson.tests as t; t.main()'
	cat >"$CORPUS/deb-simplejson-unittest/want.json" <<'EOF'
{
  "runner": "python -m unittest",
  "must": [
    "FAIL: test_ensure_ascii_still_works (simplejson.tests.test_unicode.TestUnicode.test_ensure_ascii_still_works)",
    "simplejson/tests/test_unicode.py\", line 141, in test_ensure_ascii_still_works",
    "AssertionError: '\"\\\\u0009\"' != '\"\\\\t\"'",
    "FAIL: test_py_encode_basestring_ascii (simplejson.tests.test_encode_basestring_ascii.TestEncodeBaseStringAscii.test_py_encode_basestring_ascii)",
    "simplejson/tests/test_encode_basestring_ascii.py\", line 41, in _test_encode_basestring_ascii"
  ],
  "why": "python3-simplejson 3.18.3-1 (bookworm): ESCAPE_DCT (encoder.py) maps a tab to \\u0009; the pure-Python encoder's tests fail (one twice: the suite runs with and without the C speedups)"
}
EOF
}

case_deb-networkx-pytest() {
	local d=$WORK/networkx
	debx $NETWORKX "$d"
	local lib=$d/usr/lib/python3/dist-packages
	# paley_graph collects the squares mod p from x < p // 2 only: too few edges.
	replace "$lib/networkx/generators/expanders.py" 'for x in range(1, p) if (x**2) % p != 0}' 'for x in range(1, p // 2) if (x**2) % p != 0}'
	capture deb-networkx-pytest "$lib" /usr/bin/python3 -m pytest -p no:cacheprovider -v networkx/generators networkx/classes
	cat >"$CORPUS/deb-networkx-pytest/want.json" <<'EOF'
{
  "runner": "pytest -v",
  "must": [
    "____ test_paley_graph[3] ____",
    "E       assert 0 == 3",
    "____ test_paley_graph[13] ____",
    "E       assert (1 == 1 and 5 == ((13 - 1) // 2))",
    "networkx/generators/tests/test_expanders.py:57: AssertionError"
  ],
  "message": {"test_paley_graph[13]": "assert (1 == 1 and 5 == ((13 - 1) // 2))"},
  "why": "python3-networkx 2.8.8-1 (bookworm): paley_graph (generators/expanders.py) takes squares of x < p // 2 only; the parametrised test_paley_graph fails for all five primes among ~2000 verbose passing tests"
}
EOF
}

case_deb-json-perl-prove() {
	local d=$WORK/json-perl
	debsrc $JSONPERL "$d"
	# escape_slash is inverted in the bundled pure-Perl backend.
	replace "$d/lib/JSON/backportPP.pm" '$arg =~ s/\//\\\//g if ($escape_slash);' '$arg =~ s/\//\\\//g unless ($escape_slash);'
	capture deb-json-perl-prove "$d" prove -l -v -j2 t
	cat >"$CORPUS/deb-json-perl-prove/want.json" <<'EOF'
{
  "runner": "prove -v -j2 (TAP)",
  "must": [
    "#   Failed test at t/07_pc_esc.t line 32.",
    "#          got: '{\"test\":\"abc\\/def\"}'",
    "#   Failed test at t/105_esc_slash.t line 14.",
    "t/105_esc_slash.t                            (Wstat: 512 (exited 2) Tests: 2 Failed: 2)"
  ],
  "message": {
    "t/07_pc_esc.t": "Failed test at t/07_pc_esc.t line 32: got: '{\"test\":\"abc\\/def\"}'; expected: '{\"test\":\"abc/def\"}'",
    "t/105_esc_slash.t": "Failed test at t/105_esc_slash.t line 14: got: '\"\\/\"'; expected: '\"/\"'"
  },
  "why": "libjson-perl 4.10000-1 (bookworm): string_to_json (lib/JSON/backportPP.pm) escapes / unless escape_slash is set; t/07_pc_esc.t test 3 and t/105_esc_slash.t tests 1-2 fail, their diagnostics on stderr while 26,000 verbose TAP lines of 68 files run two at a time go to stdout"
}
EOF
}

case_deb-cjson-ctest-asan() {
	local d=$WORK/cjson
	debsrc $CJSON "$d"
	# compose_patch allocates the patch path one byte short (no room for its NUL).
	replace "$d/cJSON_Utils.c" 'cJSON_malloc(path_length + suffix_length + sizeof("/"));' 'cJSON_malloc(path_length + suffix_length + 1);'
	# ENABLE_SANITIZERS adds flags gcc refuses (-fsanitize=integer), so the
	# flags are given directly. The build is not part of the captured run.
	cmake -S "$d" -B "$d/build" -DENABLE_CJSON_UTILS=On -DCMAKE_BUILD_TYPE=Debug \
		-DCMAKE_C_FLAGS='-fsanitize=address -fno-omit-frame-pointer' -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address \
		-DCMAKE_SHARED_LINKER_FLAGS=-fsanitize=address >/dev/null
	cmake --build "$d/build" -j2 >/dev/null
	capture deb-cjson-ctest-asan "$d/build" ctest --output-on-failure
	cat >"$CORPUS/deb-cjson-ctest-asan/want.json" <<'EOF'
{
  "runner": "ctest + AddressSanitizer",
  "must": [
    "Test #20: json_patch_tests .................***Failed",
    "ERROR: AddressSanitizer: heap-buffer-overflow on address",
    "in encode_string_as_pointer /tmp/runledger-corpus-deb/cjson/cJSON_Utils.c:195",
    "SUMMARY: AddressSanitizer: heap-buffer-overflow /tmp/runledger-corpus-deb/cjson/cJSON_Utils.c:195 in encode_string_as_pointer"
  ],
  "message": {"json_patch_tests": "ERROR: AddressSanitizer: heap-buffer-overflow"},
  "why": "cjson 1.7.15-1+deb12u4 (bookworm), built with ASan: compose_patch (cJSON_Utils.c) allocates one byte too few; json_patch_tests, one of 22 ctest tests, aborts on a heap-buffer-overflow"
}
EOF
}

case_deb-semver-cargo() {
	local d=$WORK/semver
	debx $SEMVER "$WORK/semver-deb"
	cp -r "$WORK"/semver-deb/usr/share/cargo/registry/semver-* "$d"
	# Not the regression: serde is an optional dependency the tests do not
	# use, and no registry is reachable offline to resolve it.
	replace "$d/Cargo.toml" $'[dependencies.serde]\nversion = "1.0"\noptional = true\ndefault-features = false\n' ''
	# ^0.y.z (y > 0) matches later minor versions too, as ^x.y.z does for x > 0.
	replace "$d/src/eval.rs" $'    } else if minor > 0 {\n        if ver.minor != minor {\n            return false;' $'    } else if minor > 0 {\n        if ver.minor != minor {\n            return ver.minor > minor;'
	# Build first, so that the captured run is the tests (and cargo's own
	# warnings), not a compiler's progress.
	(cd "$d" && cargo test --offline --no-run >/dev/null 2>&1)
	RUST_BACKTRACE=1 capture deb-semver-cargo "$d" cargo test --offline
	cat >"$CORPUS/deb-semver-cargo/want.json" <<'EOF'
{
  "runner": "cargo test",
  "must": [
    "---- test_caret stdout ----",
    "panicked at tests/test_version_req.rs:217:5:",
    "matched 0.9.1",
    "test_version_req::assert_match_none",
    "---- test_multiple stdout ----",
    "panicked at tests/test_version_req.rs:127:5:"
  ],
  "message": {"test_caret": "matched 0.9.1"},
  "why": "librust-semver-dev 1.0.14-1 (bookworm, the crate as Debian ships it): matches_caret (src/eval.rs) lets ^0.y.z match a later minor; test_caret and test_multiple panic (RUST_BACKTRACE=1) in tests/test_version_req.rs among four test binaries and the doc-tests"
}
EOF
}

case_deb-commander-jest() {
	local d=$WORK/commander
	upstream "$COMMANDER" "$d"
	# Its devDependencies for jest, at exact versions, in $WORK/node_modules.
	(cd "$WORK" && echo '{"private":true}' >package.json && npm install --silent --ignore-scripts --save-exact "${COMMANDER_DEPS[@]}" >/dev/null)
	# Help puts three spaces between an option and its description, not two.
	replace "$d/lib/help.js" 'const itemSeparatorWidth = 2;' 'const itemSeparatorWidth = 3;'
	# package.json's jest config: collectCoverage (the coverage table is part of the log), ts-jest.
	CI=1 FORCE_COLOR=0 capture deb-commander-jest "$d" ../node_modules/.bin/jest
	cat >"$CORPUS/deb-commander-jest/want.json" <<'EOF'
{
  "runner": "jest",
  "must": [
    "● when call helpInformation for program then help format is as expected (usage, options, commands)",
    "+   -h, --help          display help for command",
    "at Object.<anonymous> (tests/command.help.test.js:26:27)",
    "● wrapping by formatHelp › when option descripton preformatted then only add small indent",
    "+   -t, --time <HH:MM>   select time",
    "at Object.<anonymous> (tests/help.wrap.test.js:169:39)"
  ],
  "message": {"when option descripton preformatted then only add small indent": "expect(received).toBe(expected)"},
  "why": "node-commander 9.4.1 (bookworm's upstream tarball; jest 28.1.3, ts-jest 28.0.8, typescript 4.9.5, @types/jest 28.1.8 from npm): Help.formatHelp (lib/help.js) pads with three spaces; six help-text tests fail with multi-line toBe diffs among 1051 tests of 97 files, then a coverage table. At 16 KiB (the embedded envelope repeats each excerpt) the comment keeps each failure's heading, assertion, stack head and first diff lines"
}
EOF
}

case_deb-networkx-pytest-many() {
	local d=$WORK/networkx-many
	debx $NETWORKX "$d"
	local lib=$d/usr/lib/python3/dist-packages
	# pairwise(cyclic=True) no longer closes the cycle: every generator of
	# cycles (cycle_graph, circulant, LCF, periodic lattices) loses an edge.
	replace "$lib/networkx/utils/misc.py" 'return zip(a, chain(b, (first,)))' 'return zip(a, b)'
	capture deb-networkx-pytest-many "$lib" /usr/bin/python3 -m pytest -p no:cacheprovider networkx/generators networkx/utils \
		networkx/algorithms/tests/test_cycles.py networkx/algorithms/tests/test_euler.py networkx/algorithms/isomorphism
	cat >"$CORPUS/deb-networkx-pytest-many/want.json" <<'EOF'
{
  "runner": "pytest",
  "must": [
    "E        +  where False = edges_equal(EdgeView([(0, 1), (1, 2), (2, 3)]), [(0, 1), (0, 3), (1, 2), (2, 3)])",
    "networkx/generators/tests/test_classic.py:211: AssertionError",
    "networkx/utils/tests/test_misc.py:183: AssertionError",
    "networkx/algorithms/isomorphism/tests/test_isomorphvf2.py:334: AssertionError"
  ],
  "message": {"test_pairwise": "assert [(0, 1), (1, 2), (2, 3)] == [(0, 1), (1, ...2, 3), (3, 0)]"},
  "comment_misses": [
    "networkx/generators/tests/test_classic.py:211: AssertionError",
    "networkx/utils/tests/test_misc.py:183: AssertionError",
    "networkx/algorithms/isomorphism/tests/test_isomorphvf2.py:334: AssertionError"
  ],
  "why": "python3-networkx 2.8.8-1 (bookworm): pairwise(cyclic=True) (utils/misc.py) drops the closing pair; 28 tests fail across generators, utils, cycles, euler and isomorphism, more failures than a 16 KiB comment has room for: each should keep its assertion and location, and test_pairwise (the root cause) its diff. The excerpts hold all; the comment shows the first 14 tests by their E lines (a bare `assert False` gives way to its `+  where` line) and leaves their locations out: each failure's assertion goes before any failure's location, and each test's quote is three excerpts (heading, E lines, location), each costing ~250 bytes of metadata in the embedded envelope"
}
EOF
}

case_deb-networkx-pytest-xdist() {
	local d=$WORK/networkx-xdist
	debx $NETWORKX "$d"
	local lib=$d/usr/lib/python3/dist-packages
	# A directed Eulerian path starts at the node with more edges out than in.
	replace "$lib/networkx/algorithms/euler.py" 'if G.out_degree(v1) > G.in_degree(v1):' 'if G.out_degree(v1) < G.in_degree(v1):'
	# As CI runs a large suite: two xdist workers, verbose.
	capture deb-networkx-pytest-xdist "$lib" /usr/bin/python3 -m pytest -p no:cacheprovider -n 2 -v networkx/generators \
		networkx/algorithms/tests/test_euler.py networkx/algorithms/tests/test_cycles.py
	cat >"$CORPUS/deb-networkx-pytest-xdist/want.json" <<'EOF'
{
  "runner": "pytest -n 2 -v",
  "must": [
    "TestFindPathStart.testfind_path_start ____",
    "E       assert 5 == 0",
    "networkx/algorithms/tests/test_euler.py:168: AssertionError",
    "TestEulerianPath.test_eulerian_path_multigraph ____",
    "E       assert [(2, 1), (1, ..., (3, 4), ...] == [(2, 1), (1, ...2, 1), (1, 2)]",
    "networkx/algorithms/tests/test_euler.py:200: AssertionError",
    "TestEulerianPath.test_eulerian_path_straight_link ____",
    "E       assert [(1, 2), (2, ...3, 4), (4, 5)] == []",
    "networkx/algorithms/tests/test_euler.py:187: AssertionError"
  ],
  "message": {"testfind_path_start": "assert 5 == 0", "test_eulerian_path_straight_link": "assert [(1, 2), (2, ...3, 4), (4, 5)] == []"},
  "why": "python3-networkx 2.8.8-1 (bookworm): _find_path_start (algorithms/euler.py) starts a directed Eulerian path at the node with more edges in than out; three tests fail among ~450 run by two pytest-xdist workers with -v ([gw0] [ 40%] PASSED lines, workers finishing out of order)"
}
EOF
}

case_deb-toolz-pytest-native() {
	local d=$WORK/toolz-native
	debx $TOOLZ "$d"
	local lib=$d/usr/lib/python3/dist-packages
	# get with a list of one index returns the item, not a 1-tuple.
	replace "$lib/toolz/itertoolz.py" 'return seq[ind[0]],' 'return seq[ind[0]]'
	capture deb-toolz-pytest-native "$lib" /usr/bin/python3 -m pytest -p no:cacheprovider -v --tb=native toolz
	cat >"$CORPUS/deb-toolz-pytest-native/want.json" <<'EOF'
{
  "runner": "pytest -v --tb=native",
  "must": [
    "test_get ____",
    "toolz/tests/test_itertoolz.py\", line 188, in test_get",
    "assert get([0], 'AB') == ('A',)",
    "AssertionError: assert 'A' == ('A',)",
    " +  where 'A' = get([0], 'AB')"
  ],
  "message": {"test_get": "AssertionError: assert 'A' == ('A',)"},
  "why": "python3-toolz 0.12.0-1 (bookworm): get (toolz/itertoolz.py) returns the item bare for a list of one index instead of a 1-tuple; test_get fails among 180 tests (-v: one line each). --tb=native prints Python's own traceback (File \"...\", line N) and the exception line, no E lines, and the short summary cuts the message"
}
EOF
}

case_deb-hashie-rspec() {
	local d=$WORK/hashie
	debsrc $HASHIE "$d"
	# deep_find_all answers [] instead of nil when nothing matches.
	replace "$d/lib/hashie/extensions/deep_find.rb" 'matches.empty? ? nil : matches' 'matches.empty? ? [] : matches'
	# As debian/ruby-tests.rake runs it (CI unset: no simplecov), its unit
	# specs with the project's .rspec (documentation format).
	(unset CI; capture deb-hashie-rspec "$d" rspec -I lib spec/hashie_spec.rb spec/hashie)
	cat >"$CORPUS/deb-hashie-rspec/want.json" <<'EOF'
{
  "runner": "rspec",
  "must": [
    "1) Hashie::Extensions::DeepFind#deep_find_all returns nil if it does not find any matches",
    "Failure/Error: expect(instance.deep_find_all(:wahoo)).to be_nil",
    "got: []",
    "# ./spec/hashie/extensions/deep_find_spec.rb:43:in",
    "# ./spec/hashie/extensions/deep_find_spec.rb:103:in"
  ],
  "message": {"Hashie::Extensions::DeepFind#deep_find_all returns nil if it does not find any matches": "expected: nil got: []"},
  "why": "ruby-hashie 5.0.0-2 (bookworm, Debian's patches applied; ruby-rspec 3.12): DeepFind#deep_find_all (lib/hashie/extensions/deep_find.rb) returns [] for no match; two of 700 examples fail, in a documentation-format log of 1100 lines"
}
EOF
}

case_deb-toolz-pytest() {
	local d=$WORK/toolz
	debx $TOOLZ "$d"
	local lib=$d/usr/lib/python3/dist-packages
	# partition_all catches AttributeError where len() of an iterator raises
	# TypeError: the fallback for sequences without a length is never reached.
	replace "$lib/toolz/itertoolz.py" $'yield prev[:len(seq) % n]\n        except TypeError:' $'yield prev[:len(seq) % n]\n        except AttributeError:'
	capture deb-toolz-pytest "$lib" /usr/bin/python3 -m pytest -p no:cacheprovider toolz
	cat >"$CORPUS/deb-toolz-pytest/want.json" <<'EOF'
{
  "runner": "pytest",
  "must": [
    "test_partition_all ____",
    ">       assert list(partition_all(4, iter([obj]*7))) == result",
    "toolz/tests/test_itertoolz.py:331: ",
    ">               yield prev[:len(seq) % n]",
    "E               TypeError: object of type 'list_iterator' has no len()",
    "toolz/itertoolz.py:735: TypeError"
  ],
  "message": {"test_partition_all": "TypeError: object of type 'list_iterator' has no len()"},
  "why": "python3-toolz 0.12.0-1 (bookworm, the binary package carries its tests): partition_all (toolz/itertoolz.py) catches AttributeError instead of TypeError, so len() of an iterator escapes; test_partition_all fails with a traceback through the library (test frame, then the library frame with the E line) among 180 tests"
}
EOF
}

case_deb-strsim-cargo() {
	local d=$WORK/strsim
	debx $STRSIM "$WORK/strsim-deb"
	cp -r "$WORK"/strsim-deb/usr/share/cargo/registry/strsim-* "$d"
	# osa_distance sizes its rows one short: indexing the last column panics.
	replace "$d/src/lib.rs" $'    for i in 0..(b_len + 1) {\n        prev_two_distances.push(i);' $'    for i in 0..b_len {\n        prev_two_distances.push(i);'
	# Build first, so that the captured run is the tests, not the compiler's progress.
	(cd "$d" && cargo test --offline --no-run >/dev/null 2>&1)
	RUST_BACKTRACE=1 capture deb-strsim-cargo "$d" cargo test --offline
	cat >"$CORPUS/deb-strsim-cargo/want.json" <<'EOF'
{
  "runner": "cargo test",
  "must": [
    "---- tests::osa_distance_beginning_transposition stdout ----",
    "panicked at src/lib.rs:293:59:",
    "index out of bounds: the len is 6 but the index is 6",
    "at ./src/lib.rs:831:23",
    "---- tests::osa_distance_restricted_edit stdout ----",
    "index out of bounds: the len is 7 but the index is 7",
    "at ./src/lib.rs:841:23"
  ],
  "message": {"tests::osa_distance_diff": "index out of bounds: the len is 3 but the index is 3"},
  "comment_misses": [
    "---- tests::osa_distance_beginning_transposition stdout ----",
    "at ./src/lib.rs:831:23",
    "---- tests::osa_distance_restricted_edit stdout ----",
    "at ./src/lib.rs:841:23"
  ],
  "why": "librust-strsim-dev 0.10.0-1 (bookworm, the crate as Debian ships it, no dependencies): osa_distance (src/lib.rs) allocates its rows one column short; 12 unit tests of the lib target panic with an index out of bounds inside the library, each with a RUST_BACKTRACE=1 backtrace (std frames, then strsim::osa_distance, then the test), and cargo stops before the integration tests. The excerpts hold every line (each test: heading, panic and message, then its strsim frames as a second excerpt); the 16 KiB comment keeps every test's first excerpt cut to its message (index out of bounds), most with their panicked-at line, none with its ---- heading (the excerpt's label names the test), and leaves out all twelve frame excerpts, which hold the tests' own locations (src/lib.rs:831, :841)"
}
EOF
}

case_deb-dot-prop-ava() {
	local d=$WORK/dot-prop
	upstream "$DOTPROP" "$d"
	(cd "$WORK" && echo '{"private":true}' >package.json && npm install --silent --ignore-scripts --save-exact "${DOTPROP_DEPS[@]}" >/dev/null)
	# A `.` after an index (`[0].foo`) is refused instead of starting the next property.
	replace "$d/index.js" $'if (currentPart === \'indexEnd\') {\n\t\t\t\t\tcurrentPart = \'property\';\n\t\t\t\t\tbreak;' $'if (currentPart === \'indexEnd\') {\n\t\t\t\t\tthrow new Error(\'Invalid character after an index\');'
	capture deb-dot-prop-ava "$d" ../node_modules/.bin/ava
	cat >"$CORPUS/deb-dot-prop-ava/want.json" <<'EOF'
{
  "runner": "ava",
  "must": [
    "✖ getProperty - with array indexes Error thrown in test",
    "message: 'Invalid character after an index',",
    "› getPathSegments (file://index.js:45:12)",
    "› file://test.js:72:9",
    "✖ hasProperty Error thrown in test",
    "› hasProperty (file://index.js:263:20)",
    "› file://test.js:375:10"
  ],
  "why": "node-dot-prop 7.2.0 (bookworm's upstream tarball; ava 4.0.1 from npm): getPathSegments (index.js) throws on a '.' after an index; four of nine ava tests fail with an error thrown inside the library, ava's own report (a code frame, the Error object, › stack lines), read by report/runners/ava.go"
}
EOF
}

case_deb-builder-minitest() {
	local d=$WORK/builder
	upstream "$BUILDER" "$d"
	# Attribute values escape a double quote as &#34; instead of &quot;.
	replace "$d/lib/builder/xmlbase.rb" "gsub(%r{\"}, '&quot;') # \" WART" "gsub(%r{\"}, '&#34;') # \" WART"
	# Its Rakefile's test_units task (test/test*.rb, libs . and test) with a
	# fixed seed. Not the regression: TestBlankSlate's
	# test_late_included_module_in_kernel_is_ok fails on ruby 3.1 as
	# shipped, so it is filtered out.
	capture deb-builder-minitest "$d" ruby -Ilib -I. -Itest -e 'Dir["test/test*.rb"].sort.each { |f| require "./#{f}" }' -- \
		--seed 4242 -n '/^(?!.*#?test_late_included_module_in_kernel_is_ok$)/'
	cat >"$CORPUS/deb-builder-minitest/want.json" <<'EOF'
{
  "runner": "minitest",
  "must": [
    "TestAttributeEscaping#test_attr_quot [",
    "test/test_markupbuilder.rb:247]:",
    "Expected: \"<a title=\\\"&quot;x&quot;\\\"/>\"",
    "Actual: \"<a title=\\\"&#34;x&#34;\\\"/>\"",
    "TestMarkup#test_attributes_escaping_can_be_turned_on [",
    "test/test_markupbuilder.rb:91]:",
    "+\"<ref id=\\\"&lt;H&amp;R &#34;block&#34;&gt;\\\"/>\""
  ],
  "message": {"test_attr_quot": "Expected: \"<a title=\\\"&quot;x&quot;\\\"/>\""},
  "why": "ruby-builder 3.2.4 (bookworm's upstream tarball; ruby 3.1's minitest 5.15): XmlBase#_escape_attribute (lib/builder/xmlbase.rb) writes &#34; for a double quote; test_attr_quot fails with an Expected:/Actual: pair and test_attributes_escaping_can_be_turned_on with a --- expected/+++ actual diff, among 112 tests"
}
EOF
}

case_deb-parsedown-phpunit() {
	local d=$WORK/parsedown
	debsrc $PARSEDOWN "$d"
	# escape() swaps its flags: attribute values keep their quotes (an XSS),
	# text escapes them.
	replace "$d/Parsedown.php" '$allowQuotes ? ENT_NOQUOTES : ENT_QUOTES' '$allowQuotes ? ENT_QUOTES : ENT_NOQUOTES'
	# What debian/rules builds with phpab (not installed here) before it runs
	# phpunit: vendor/autoload.php loading Parsedown and the test classes.
	mkdir -p "$d/vendor"
	cat >"$d/vendor/autoload.php" <<'EOF'
<?php
require_once __DIR__ . '/../Parsedown.php';
spl_autoload_register(function ($class) {
    $file = __DIR__ . '/../test/' . $class . '.php';
    if (is_file($file)) {
        require_once $file;
    }
});
EOF
	# As debian/rules' dh_auto_test: phpunit with the project's phpunit.xml.dist.
	capture deb-parsedown-phpunit "$d" phpunit
	cat >"$CORPUS/deb-parsedown-phpunit/want.json" <<'EOF'
{
  "runner": "phpunit",
  "must": [
    "1) ParsedownTest::test_ with data set #5 ('tab-indented_code_block'",
    "+$message = &#039;Hello World!&#039;;\\n",
    "/tmp/runledger-corpus-deb/parsedown/test/ParsedownTest.php:57",
    "4) ParsedownTest::test_ with data set #40 ('xss_attribute_encoding'",
    "+'<p><a href=\"https://www.example.com\"\">xss</a></p>\\n",
    "Tests: 60, Assertions: 66, Failures: 4."
  ],
  "message": {"test_ with data set #40": "Failed asserting that two strings are equal."},
  "why": "php-parsedown 1.7.4-1 (bookworm, Debian's patches applied; phpunit 9.6.7): Parsedown::escape (Parsedown.php) swaps ENT_QUOTES and ENT_NOQUOTES, so attribute values keep raw quotes (an XSS) and code blocks escape theirs; four data sets of ParsedownTest::test_ fail with --- Expected/+++ Actual diffs, after phpunit's warning that phpunit.xml.dist does not validate"
}
EOF
}

case_deb-marked-jasmine() {
	local d=$WORK/marked
	# This mirror lacks one of its component tarballs (types-marked), so
	# apt-get source errs; the main upstream tarball has the tests.
	upstream "$MARKED" "$d"
	(cd "$WORK" && echo '{"private":true}' >package.json && npm install --silent --ignore-scripts --save-exact "${MARKED_DEPS[@]}" >/dev/null)
	# The Slugger numbers a repeated heading id with "_" instead of "-".
	replace "$d/src/Slugger.js" "slug = originalSlug + '-' + occurenceAccumulator;" "slug = originalSlug + '_' + occurenceAccumulator;"
	# Its npm test (and debian/tests/pkg-js/test): jasmine --config=jasmine.json,
	# random order with a fixed seed.
	capture deb-marked-jasmine "$d" ../node_modules/.bin/jasmine --config=jasmine.json --seed=4242
	cat >"$CORPUS/deb-marked-jasmine/want.json" <<'EOF'
{
  "runner": "jasmine",
  "must": [
    "1) Test slugger functionality should be unique when slug ends with number",
    "Expected 'test_1' to be 'test-2'.",
    "(file:///tmp/runledger-corpus-deb/marked/test/unit/marked-spec.js:35:34)",
    "6) New pedantic_heading should pass",
    "Actual: <h1 id=\"h1\">h1</h1><h1 id=\"h1_1\">h1</h1>",
    "8) New heading_following_list should pass",
    "Actual: li>foo2=bar2</li></ul><h3 id=\"level3_1\">level3</h3>",
    "1605 specs, 8 failures"
  ],
  "why": "node-marked 4.2.3 (bookworm's upstream tarball; jasmine 4.5.0 and its helpers' dependencies at its package-lock versions from npm): Slugger.getNextSafeSlug (src/Slugger.js) joins a repeated id with _; five Slugger unit specs (several Message: blocks each) and three heading specs fail among 1605, after the CommonMark/GFM completion tables its spec runner prints; jasmine's summary is declared in report/runners/declare_jasmine.go"
}
EOF
}

case_deb-toolz-doctest() {
	local d=$WORK/toolz-doctest
	debx $TOOLZ "$d"
	local lib=$d/usr/lib/python3/dist-packages
	# interpose no longer drops the separator it starts with.
	replace "$lib/toolz/itertoolz.py" $'    inposed = concat(zip(itertools.repeat(el), seq))\n    next(inposed)\n' $'    inposed = concat(zip(itertools.repeat(el), seq))\n'
	# As toolz's own CI runs it: the tests and the docstrings' examples.
	capture deb-toolz-doctest "$lib" /usr/bin/python3 -m pytest -p no:cacheprovider --doctest-modules toolz
	cat >"$CORPUS/deb-toolz-doctest/want.json" <<'EOF'
{
  "runner": "pytest",
  "must": [
    "[doctest] toolz.itertoolz.interpose ____",
    "Expected:",
    "    ['a', 1, 'a', 2, 'a', 3]",
    "toolz/itertoolz.py:529: DocTestFailure",
    ">       assert \"a\" == first(rest(interpose(\"a\", range(1000000000))))",
    "E       AssertionError: assert 'a' == 0",
    "toolz/tests/test_itertoolz.py:227: AssertionError"
  ],
  "message": {"test_interpose": "AssertionError: assert 'a' == 0", "toolz.itertoolz.interpose": "Expected: [1, 'a', 2, 'a', 3] Got: ['a', 1, 'a', 2, 'a', 3]"},
  "why": "python3-toolz 0.12.0-1 (bookworm): interpose (toolz/itertoolz.py) keeps the leading separator; under pytest --doctest-modules its docstring example fails as a DocTestFailure (source listing, Expected:/Got:) and test_interpose with an assertion and its where-lines, among 256 tests"
}
EOF
}

case_deb-commons-codec-surefire() {
	local d=$WORK/commons-codec
	debsrc $CODEC "$d"
	# Hex.encodeHex masks the low nibble with 0x0E: every odd digit loses 1.
	replace "$d/src/main/java/org/apache/commons/codec/binary/Hex.java" 'out[j++] = toDigits[0x0F & data[i]];' 'out[j++] = toDigits[0x0E & data[i]];'
	# Its pom.xml needs commons-parent's plugins (rat, jacoco, ...), which
	# Debian leaves out; this one builds the same sources and tests offline
	# against Debian's maven repo (surefire 2.22.3, JUnit 4, commons-lang3),
	# excluding what the project's surefire configuration excludes.
	cat >"$d/pom-runledger.xml" <<'EOF'
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>commons-codec</groupId>
  <artifactId>commons-codec</artifactId>
  <version>1.15</version>
  <properties>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
    <maven.compiler.source>1.8</maven.compiler.source>
    <maven.compiler.target>1.8</maven.compiler.target>
  </properties>
  <dependencies>
    <dependency><groupId>junit</groupId><artifactId>junit</artifactId><version>4.x</version><scope>test</scope></dependency>
    <dependency><groupId>org.apache.commons</groupId><artifactId>commons-lang3</artifactId><version>3.x</version><scope>test</scope></dependency>
  </dependencies>
  <build>
    <plugins>
      <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-resources-plugin</artifactId><version>3.3.0</version></plugin>
      <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-compiler-plugin</artifactId><version>3.10.1</version></plugin>
      <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-surefire-plugin</artifactId><version>2.22.3</version>
        <configuration><excludes><exclude>**/*AbstractTest.java</exclude><exclude>**/*PerformanceTest.java</exclude></excludes></configuration></plugin>
    </plugins>
  </build>
</project>
EOF
	capture deb-commons-codec-surefire "$d" mvn -o -B -Dmaven.repo.local=/usr/share/maven-repo -f pom-runledger.xml test
	cat >"$CORPUS/deb-commons-codec-surefire/want.json" <<'EOF'
{
  "runner": "maven surefire",
  "must": [
    "org.junit.ComparisonFailure: expected:<800[70713463e7749b90c2dc24911e275]> but was:<800[60612463e7648b80c2cc24810e274]>"
  ],
  "message": {
    "testEncodeHexByteArrayHelloWorldLowerCaseHex": "expected:<486[56c6c6f20576f]726c64> but was:<486[46c6c6e20566e]726c64>"
  },
  "why": "libcommons-codec-java 1.15-1 (bookworm, Debian's patches applied; Maven 3.8.7, surefire 2.22.3, JUnit 4.13.2, offline against /usr/share/maven-repo): Hex.encodeHex (binary/Hex.java) masks the low nibble with 0x0E, so every odd low hex digit loses 1; 65 of 1156 tests fail (the HMAC and digest hex tests, Hex's own), each under a `test(Class)  Time elapsed: … <<< FAILURE!` heading with its ComparisonFailure and one frame, listed again under Results: (inherited ones as AllocateDirectHexTest>HexTest.test:line->HexTest.helper:line). The heading names the excerpt (its label, `testMacHexInputStream[HmacMD5](org.apache.commons.codec.digest.HmacAlgorithmsTest)`) and is not quoted; the 16 KiB comment keeps each quoted failure's assertion, not its frame (HmacAlgorithmsTest.java:206) nor the Results: list or the totals line, which the summary line restates"
}
EOF
}

# cli11_build: cli11's source with the regression, built once per WORK for
# the cases that run its tests.
cli11_build() {
	local d=$WORK/cli11
	[ -f "$d/build/.runledger-built" ] && return
	debsrc $CLI11 "$d"
	# remove_quotes drops the opening quote and keeps the closing one.
	replace "$d/include/CLI/StringTools.hpp" $'            str.pop_back();\n            str.erase(str.begin(), str.begin() + 1);' $'            str.erase(str.begin(), str.begin() + 1);'
	# As debian/rules builds it (Debian's patch makes the tests use
	# catch2's header), without the examples and docs; the build is not
	# part of the captured run. Each test file is a Catch2 program of its own.
	cmake -S "$d" -B "$d/build" -DCLI11_BUILD_EXAMPLES=OFF -DCLI11_BUILD_DOCS=OFF >/dev/null
	cmake --build "$d/build" -j2 >/dev/null
	touch "$d/build/.runledger-built"
}

case_deb-cli11-catch2() {
	cli11_build
	capture deb-cli11-catch2 "$WORK/cli11/build" ctest --output-on-failure
	cat >"$CORPUS/deb-cli11-catch2/want.json" <<'EOF'
{
  "runner": "ctest running Catch2 programs",
  "must": [
    "Test  #2: ConfigFileTest ...................***Failed",
    "tests/ConfigFileTest.cpp:117: FAILED:",
    "  CHECK( output.at(0).inputs.at(0) == \"three\" )",
    "  \"three\"\" == \"three\"",
    "tests/ConfigFileTest.cpp:1368: FAILED:",
    "  CHECK( 1 == val )",
    "test cases: 128 | 126 passed | 2 failed"
  ],
  "message": {
    "StringBased: Quotes": "CHECK( output.at(0).inputs.at(0) == \"three\" ) with expansion: \"three\"\" == \"three\"",
    "jsonLikeParsing": "CHECK( 1 == val ) with expansion: 1 == 0"
  },
  "why": "cli11 2.1.2+ds-1 (bookworm; apt-get source, Debian's patch makes its tests use the catch2 package's Catch2 v2): remove_quotes (include/CLI/StringTools.hpp) drops a value's opening quote but keeps the closing one; ctest --output-on-failure runs its 20 Catch2 programs, and ConfigFileTest fails two test cases (five CHECKs) of 128"
}
EOF
}

# codec_test DIR NAME: runs commons-codec's JUnit 4 suite as Debian's build
# does (maven-debian-helper's dh_auto_configure, then its test goal):
# Debian's plugins and dependencies linked into debian/maven-repo, the poms
# rewritten by maven.rules, Maven offline with Debian's settings. The
# forked JVM's heap is capped so that Base64Test.testCodec265, which needs
# 5 GiB free, is skipped (its Assume) on every machine alike.
codec_test() {
	/usr/share/maven-debian-helper/copy-repo.sh "$1/debian" >/dev/null 2>&1
	(cd "$1" && mh_patchpoms -plibcommons-codec-java --debian-build --keep-pom-version --maven-repo="$1/debian/maven-repo")
	capture "$2" "$1" mvn -s /etc/maven/settings-debian.xml -Ddebian.dir="$1/debian" -Dmaven.repo.local="$1/debian/maven-repo" \
		-B -DargLine=-Xmx1g test
}

case_deb-commons-codec-base64() {
	local d=$WORK/codec-base64
	debsrc $CODEC "$d"
	# Base64's URL-safe alphabet ends in '_', '-' instead of '-', '_'.
	replace "$d/src/main/java/org/apache/commons/codec/binary/Base64.java" "'8', '9', '-', '_'" "'8', '9', '_', '-'"
	codec_test "$d" deb-commons-codec-base64
	cat >"$CORPUS/deb-commons-codec-base64/want.json" <<'EOF'
{
  "runner": "mvn test (surefire)",
  "must": [
    "at org.apache.commons.codec.binary.Base64Test.testUrlSafe(Base64Test.java:1161)",
    "org.junit.ComparisonFailure: byteToString static-url-safe UUID expected:<K[_fMJwH-]Q5e0nr7tWsxwkA> but was:<K[-fMJwH_]Q5e0nr7tWsxwkA>",
    "at org.apache.commons.codec.binary.Base64Test.testByteToStringVariations(Base64Test.java:1272)",
    "java.lang.AssertionError: url-safe encode uuid"
  ],
  "message": {"testUrlSafe": "java.lang.AssertionError: url-safe i=", "testByteToStringVariations": "org.junit.ComparisonFailure: byteToString static-url-safe UUID expected:<K[_fMJwH-]Q5e0nr7tWsxwkA> but was:<K[-fMJwH_]Q5e0nr7tWsxwkA>"},
  "why": "libcommons-codec-java 1.15-1 (bookworm, Debian's patches applied; Maven 3.8.7, Surefire 2.22.3, JUnit 4.13.2, offline against Debian's maven-repo as maven-debian-helper builds it): Base64's URL_SAFE_ENCODE_TABLE (Base64.java) ends in '_', '-'; four Base64Test tests fail among 1156, one with a ComparisonFailure over a 1400-character line (testUrlSafe encodes random bytes: its `url-safe i=6` differs from run to run); Surefire's report is read by report/runners/surefire.go"
}
EOF
}

# cmake_build DIR TARGET FLAG...: configures DIR's CMake project in
# DIR/build and builds TARGET, as its debian/rules does but for the tests;
# the build is not captured.
cmake_build() {
	local d=$1 target=$2
	shift 2
	cmake -S "$d" -B "$d/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >"$WORK/cmake.log" 2>&1 ||
		{ tail -20 "$WORK/cmake.log" >&2; return 1; }
	cmake --build "$d/build" -j"$(nproc)" --target "$target" >"$WORK/build.log" 2>&1 ||
		{ tail -40 "$WORK/build.log" >&2; return 1; }
}

case_deb-snappy-gtest() {
	local d=$WORK/snappy
	debsrc $SNAPPY "$d"
	# The decompression validator no longer rejects a copy at offset 0 (its
	# "offset - 1u" trick dropped): IsValidCompressedBuffer accepts a buffer
	# that Uncompress refuses.
	replace "$d/snappy.cc" '    if (*produced <= offset - 1u) return false;' '    if (*produced < offset) return false;'
	# As debian/rules configures it, against the system's GoogleTest; no
	# benchmarks (they need libbenchmark-dev, the tests do not).
	cmake_build "$d" snappy_unittest -DSNAPPY_BUILD_BENCHMARKS=OFF -DSNAPPY_USE_BUNDLED_GTEST=OFF
	# Its ctest test runs the binary in the source directory (testdata/).
	capture deb-snappy-gtest "$d" "$d/build/snappy_unittest"
	cat >"$CORPUS/deb-snappy-gtest/want.json" <<'EOF'
{
  "runner": "gtest",
  "must": [
    "/tmp/runledger-corpus-deb/snappy/snappy_unittest.cc:733: Failure",
    "Value of: snappy::IsValidCompressedBuffer(compressed, 4)",
    "  Actual: true",
    "Expected: false"
  ],
  "message": {
    "Snappy.ZeroOffsetCopyValidation": "Value of: snappy::IsValidCompressedBuffer(compressed, 4) Actual: true Expected: false"
  },
  "why": "snappy 1.1.9-3 (bookworm), built against Debian's GoogleTest: SnappyDecompressionValidator::AppendFromSelf (snappy.cc) accepts a copy at offset 0; snappy_unittest run directly, as plain gtest output: Snappy.ZeroOffsetCopyValidation fails among 20 tests"
}
EOF
}

# eex_build: Elixir's source with the regression in EEx, and EEx compiled
# from it by bookworm's elixir (-pa puts it before the installed one),
# once per WORK. The build is not captured.
eex_build() {
	local d=$WORK/elixir eex=$WORK/elixir/lib/eex
	[ -d "$eex/ebin" ] && return
	debsrc $ELIXIR "$d"
	# trim_left drops the newline trim mode keeps after a tag.
	replace "$eex/lib/eex/compiler.ex" $'      _ when count > 0 -> [?\\n | buffer]\n' $'      _ when count > 0 -> buffer\n'
	mkdir -p "$eex/ebin"
	(cd "$eex" && elixirc --ignore-module-conflict lib -o ebin >/dev/null)
}

case_deb-elixir-eex-exunit() {
	eex_build
	# Elixir's own EEx tests, as its Makefile's test_eex runs them; the seed fixed.
	capture deb-elixir-eex-exunit "$WORK/elixir/lib/eex" elixir -pa ebin -r test/test_helper.exs -e 'ExUnit.configure(seed: 0)' -pr 'test/**/*_test.exs'
	cat >"$CORPUS/deb-elixir-eex-exunit/want.json" <<'EOF'
{
  "runner": "ExUnit (Elixir's own EEx suite)",
  "must": [
    "2) test trim mode with CRLF (EEx.TokenizerTest)",
    "test/eex/tokenizer_test.exs:351: (test)",
    "3) test evaluates trim mode (EExTest)",
    "left:  \"123789\"",
    "right: \"123\\n789\"",
    "test/eex_test.exs:84: (test)",
    "7 doctests, 101 tests, 6 failures"
  ],
  "message": {
    "test evaluates trim mode": "Assertion with == failed; code: assert result == expected; left: \"123789\"; right: \"123\\n789\"",
    "test trim mode with CRLF": "Assertion with == failed; code: assert EEx.tokenize("
  },
  "why": "elixir-lang 1.14.0.dfsg-2 (bookworm; apt-get source): trim_left (lib/eex/lib/eex/compiler.ex) drops the newline trim mode keeps after a tag; Elixir's own EEx tests, run as its Makefile's test_eex runs them against EEx compiled from the changed source by bookworm's elixir, fail six of 108 (7 doctests, 101 tests) on their assertions"
}
EOF
}

case_deb-yaml-cpp-ctest() {
	local d=$WORK/yaml-cpp
	debsrc $YAMLCPP "$d"
	# A double-quoted string's newline is escaped as \r.
	replace "$d/src/emitterutils.cpp" $'      case \'\\n\':\n        out << "\\\\n";' $'      case \'\\n\':\n        out << "\\\\r";'
	# As debian/rules configures it (its patch builds /usr/src/googletest,
	# Debian's GoogleTest sources, into the tests), without the tools.
	cmake_build "$d" yaml-cpp-tests -DYAML_CPP_BUILD_TESTS=ON -DYAML_CPP_BUILD_TOOLS=OFF -DINSTALL_GTEST=OFF
	capture deb-yaml-cpp-ctest "$d/build" ctest --output-on-failure
	cat >"$CORPUS/deb-yaml-cpp-ctest/want.json" <<'EOF'
{
  "runner": "ctest --output-on-failure + gtest",
  "must": [
    "    Which is: \"\\\"\\\\\\\" \\\\\\\\ \\\\r \\\\t \\\\r \\\\b \\\\x15 \\\\ufeff $\\\"\"",
    "    Which is: \"\\\"Hello\\\\rWorld\\\"\"",
    "           Actual: \"foo\\r\""
  ],
  "message": {
    "EmitterTest.ForceSingleQuotedToDouble": "Expected equality of these values: expected Which is: \"\\\"Hello\\\\nWorld\\\"\" / out.c_str() Which is: \"\\\"Hello\\\\rWorld\\\"\"",
    "GenEmitterTest.test718fa11b9bfa9dfc6632": "Unexpected mock function call - returning directly. Function call: OnScalar("
  },
  "why": "yaml-cpp 0.7.0+dfsg-8 (bookworm), its tests built with Debian's GoogleTest sources: WriteDoubleQuotedString (src/emitterutils.cpp) escapes a newline as \\r; under ctest --output-on-failure its one ctest test's gtest run of 980 tests prints 20 failures, gtest's EXPECT_EQ with its string diff and gMock's unexpected calls and unsatisfied expectations, which name the failing tests instead of the ctest test"
}
EOF
}

case_deb-cli11-catch2-s() {
	cli11_build
	# One of its programs with -s, as a developer reruns a failing one:
	# every passing assertion is printed too, under its test case's header.
	capture deb-cli11-catch2-s "$WORK/cli11/build/tests" ./ConfigFileTest -s
	cat >"$CORPUS/deb-cli11-catch2-s/want.json" <<'EOF'
{
  "runner": "Catch2 -s",
  "must": [
    "tests/ConfigFileTest.cpp:117: FAILED:",
    "  CHECK( output.at(0).inputs.at(0) == \"three\" )",
    "  \"three\"\" == \"three\"",
    "tests/ConfigFileTest.cpp:1368: FAILED:",
    "  CHECK( 1 == val )"
  ],
  "message": {
    "StringBased: Quotes": "CHECK( output.at(0).inputs.at(0) == \"three\" ) with expansion: \"three\"\" == \"three\"",
    "jsonLikeParsing": "CHECK( 1 == val ) with expansion: 1 == 0"
  },
  "why": "cli11 2.1.2+ds-1 (bookworm) with remove_quotes broken, as deb-cli11-catch2: its ConfigFileTest program alone with -s, which prints all 453 assertions (448 passing) under their test cases' headers; two test cases of 128 fail"
}
EOF
}

case_deb-elixir-eex-exunit-trace() {
	eex_build
	# Its test helper turns ExUnit's --trace on when TRACE is set.
	CAPTURE_ENV=TRACE=1 capture deb-elixir-eex-exunit-trace "$WORK/elixir/lib/eex" elixir -pa ebin -r test/test_helper.exs -e 'ExUnit.configure(seed: 0)' -pr 'test/**/*_test.exs'
	cat >"$CORPUS/deb-elixir-eex-exunit-trace/want.json" <<'EOF'
{
  "runner": "ExUnit --trace (Elixir's own EEx suite)",
  "must": [
    "1) test evaluates trim mode (EExTest)",
    "left:  \"123789\"",
    "right: \"123\\n789\"",
    "test/eex_test.exs:84: (test)",
    "6) test trim mode with CRLF (EEx.TokenizerTest)",
    "test/eex/tokenizer_test.exs:351: (test)"
  ],
  "message": {
    "test evaluates trim mode": "Assertion with == failed; code: assert result == expected; left: \"123789\"; right: \"123\\n789\"",
    "test trim mode with CRLF": "Assertion with == failed; code: assert EEx.tokenize("
  },
  "why": "elixir-lang 1.14.0.dfsg-2 (bookworm) with trim_left broken, as deb-elixir-eex-exunit, under ExUnit's --trace (its test helper's TRACE=1): every test is named as it runs, under its module, the six failures among them"
}
EOF
}

run_cases "${DEB_KEEP:-0}"
