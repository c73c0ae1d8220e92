#!/usr/bin/env bash
# Regenerates the `real` group of the runner-output corpus: real open-source
# projects' OWN test suites at pinned versions, each with one regression
# injected into the library code (never into the tests), run under runledger.
#
#   report/testdata/corpus/gen/real.sh               # all cases
#   report/testdata/corpus/gen/real.sh real-pflag    # only the named cases
#   report/testdata/corpus/gen/real.sh --check       # only check the stored cases
#
# Env: RUNLEDGER  a runledger binary (default: built from this checkout)
#      REAL_KEEP=1  keep /tmp/runledger-corpus-real afterwards
#
# Needs go 1.26 with the Go module proxy reachable (go mod download) and node 20
# + npm with the npm registry reachable. Sources come from `go mod download` /
# `npm pack` and are copied to the fixed directory /tmp/runledger-corpus-real
# (wiped at start and end) so that absolute paths in the logs (testify's Error
# Trace, tape's `at:` lines) are the same on every regeneration. Each regression
# is an exact literal replacement that must match exactly once, else the script
# stops. want.json files are written by this script; after each run every
# "must" string is checked with grep -F against stdout.log / stderr.log.
set -euo pipefail

GEN=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CORPUS=$(dirname "$GEN")
ROOT=$(cd "$CORPUS/../../.." && pwd)
WORK=/tmp/runledger-corpus-real
. "$GEN/lib.sh"
CHECK_ONLY=0
if [ "${1:-}" = --check ]; then
	CHECK_ONLY=1
	shift
fi

ALL=(real-pflag real-uuid real-go-toml real-burntsushi-toml real-testify real-mux-json real-qs-tape
	real-cobra-json real-go-cmp-panic real-numeral-mocha real-retryablehttp-v real-go-cmp-build-v
	real-cobra-json-panic real-cast-quicktest real-fastify-error-node-test real-objx-timeout-v
	real-cast-quicktest-json real-cast-vet-v)
CASES=("$@")
[ ${#CASES[@]} -gt 0 ] || CASES=("${ALL[@]}")

# Pinned versions.
PFLAG=github.com/spf13/pflag@v1.0.6
UUID=github.com/google/uuid@v1.6.0
GOTOML=github.com/pelletier/go-toml/v2@v2.2.3
BSTOML=github.com/BurntSushi/toml@v1.4.0
TESTIFY=github.com/stretchr/testify@v1.10.0
MUX=github.com/gorilla/mux@v1.8.1
QS=qs@6.13.0
COBRA=github.com/spf13/cobra@v1.10.1
GOCMP=github.com/google/go-cmp@v0.7.0
RETRYABLEHTTP=github.com/hashicorp/go-retryablehttp@v0.7.7
NUMERAL=numeral@2.0.6
CAST=github.com/spf13/cast@v1.5.1
OBJX=github.com/stretchr/objx@v0.5.2
FASTIFYERROR=@fastify/error@4.2.0
# numeral's tests need mocha and chai (its Gruntfile runs them with grunt-mocha-test).
NUMERAL_DEPS=(mocha@10.8.2 chai@3.5.0)
# qs's test-time dependencies (subset of its devDependencies that test/*.js
# require, plus its one runtime dependency), exact versions.
QS_DEPS=(tape@5.10.2 es-value-fixtures@1.7.1 for-each@0.3.5 has-override-mistake@1.0.1
	has-property-descriptors@1.0.2 has-symbols@1.1.0 iconv-lite@0.5.2 mock-property@1.1.2
	object-inspect@1.14.0 safer-buffer@2.1.2 side-channel@1.1.1)

RL=${RUNLEDGER:-}
if [ -z "$RL" ] && [ $CHECK_ONLY = 0 ]; then
	RL=/tmp/rl-real
	(cd "$ROOT" && go build -o "$RL" ./cmd/runledger)
fi

# go test caches nothing: every capture runs the tests.
CAPTURE_ENV=GOFLAGS=-count=1
export NO_COLOR=1 CI=1 FORCE_COLOR=0 NO_UPDATE_NOTIFIER=1 npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false

# gomod MODULE@VERSION DEST: copies the module's source (tests included) out of
# the module cache into DEST, writable.
gomod() {
	local dir
	dir=$(GOFLAGS= go mod download -json "$1" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
	[ -n "$dir" ] && [ -d "$dir" ] || { echo "go mod download $1 failed" >&2; exit 1; }
	rm -rf "$2"
	cp -r "$dir" "$2"
	chmod -R u+w "$2"
}

case_real-pflag() {
	local d=$WORK/pflag
	gomod $PFLAG "$d"
	# Set on an already-set string slice replaces instead of appending.
	replace "$d/string_slice.go" $'\t\t*s.value = append(*s.value, v...)' $'\t\t*s.value = v'
	capture real-pflag "$d" go test -v ./...
	cat >"$CORPUS/real-pflag/want.json" <<'EOF'
{
  "runner": "go test -v",
  "must": [
    "string_slice_test.go:155: expected number of ss to be 3 but got: 1",
    "string_slice_test.go:194: expected number of ss to be 4 but got: 2",
    "string_slice_test.go:232: expected number of ss to be 2 but got: 1"
  ],
  "why": "spf13/pflag v1.0.6: stringSliceValue.Set (string_slice.go) replaces the slice on a repeated flag instead of appending; TestSSCalledTwice, TestSSWithComma, TestSSWithSquareBrackets fail"
}
EOF
}

case_real-uuid() {
	local d=$WORK/uuid
	gomod $UUID "$d"
	# Name-based (MD5/SHA1) UUIDs get variant bits 110 instead of 10.
	replace "$d/hash.go" 'uuid[8] = (uuid[8] & 0x3f) | 0x80 // RFC 4122 variant' 'uuid[8] = (uuid[8] & 0x3f) | 0xc0 // RFC 4122 variant'
	capture real-uuid "$d" go test ./...
	cat >"$CORPUS/real-uuid/want.json" <<'EOF'
{
  "runner": "go test",
  "must": [
    "uuid_test.go:413: MD5: got \"6fa459ea-ee8a-3ca4-c94e-db77e160355e\" expected \"6fa459ea-ee8a-3ca4-894e-db77e160355e\"",
    "uuid_test.go:421: SHA1: got \"886313e1-3b8a-5372-db90-0c9aee199e5d\" expected \"886313e1-3b8a-5372-9b90-0c9aee199e5d\""
  ],
  "why": "google/uuid v1.6.0: NewHash (hash.go) sets the variant byte with | 0xc0 instead of | 0x80; TestMD5 and TestSHA1 get the wrong 17th hex digit"
}
EOF
}

case_real-go-toml() {
	local d=$WORK/go-toml
	gomod $GOTOML "$d"
	# Commented-out values are prefixed "#" instead of "# ".
	replace "$d/marshaler.go" 'return append(b, "# "...)' 'return append(b, "#"...)'
	capture real-go-toml "$d" go test -v ./...
	cat >"$CORPUS/real-go-toml/want.json" <<'EOF'
{
  "runner": "go test -v",
  "must": [
    "Error Trace:\t/tmp/runledger-corpus-real/go-toml/marshaler_test.go:1555",
    "actual  : \"#Int = 42\\n#String = 'root'\\n\\n[C1]\\n#Int = 11",
    "Error Trace:\t/tmp/runledger-corpus-real/go-toml/marshaler_test.go:1774",
    "+#[TLS]"
  ],
  "why": "pelletier/go-toml/v2 v2.2.3: Encoder.commented (marshaler.go) emits \"#\" instead of \"# \"; testify Equal fails in TestMarshalCommented and TestReadmeComments (mid-log), and ExampleMarshal_commented's got/want differs"
}
EOF
}

case_real-burntsushi-toml() {
	local d=$WORK/burntsushi-toml
	gomod $BSTOML "$d"
	# The \f escape decodes to a vertical tab (0x0b) instead of a form feed (0x0c).
	replace "$d/parse.go" $'case \'f\':\n\t\t\tb.WriteByte(0x0c)' $'case \'f\':\n\t\t\tb.WriteByte(0x0b)'
	capture real-burntsushi-toml "$d" go test -v ./...
	cat >"$CORPUS/real-burntsushi-toml/want.json" <<'EOF'
{
  "runner": "go test -v",
  "must": [
    "Values for key \"formfeed\" don't match:",
    "Could not find key \"\\b \\f A \\x7f",
    "valid: passed 177; failed 1"
  ],
  "message": {"TestToml/decode/valid/string/escapes": "Values for key \"formfeed\" don't match: Expected:"},
  "why": "BurntSushi/toml v1.4.0: the \\f escape in parser.replaceEscapes (parse.go) writes 0x0b instead of 0x0c; toml-test valid/string/escapes (decode) and valid/key|string/quoted-unicode (encode) fail under TestToml, TestTomlNext, TestTomlNextFails"
}
EOF
}

case_real-testify() {
	local d=$WORK/testify
	gomod $TESTIFY "$d"
	# Not the regression: the module zip lacks _codegen/, which assert's
	# TestDirExists expects to exist; recreate it so the pristine suite passes.
	mkdir -p "$d/_codegen"
	# Call.Twice() expects three calls.
	replace "$d/mock/mock.go" $'func (c *Call) Twice() *Call {\n\treturn c.Times(2)' $'func (c *Call) Twice() *Call {\n\treturn c.Times(3)'
	capture real-testify "$d" go test -v ./...
	cat >"$CORPUS/real-testify/want.json" <<'EOF'
{
  "runner": "go test -v",
  "must": [
    "Error Trace:\t/tmp/runledger-corpus-real/testify/mock/mock_test.go:882",
    "actual  : 3",
    "Error Trace:\t/tmp/runledger-corpus-real/testify/mock/mock_test.go:1598"
  ],
  "why": "stretchr/testify v1.10.0: mock.Call.Twice (mock/mock.go) sets Times(3); Test_Mock_Return_Twice (expected: 2, actual: 3) and Test_Mock_AssertExpectations_With_Repeatability (Should be true) fail in mock, while the passing suite package prints many expected inner --- FAIL lines"
}
EOF
}

case_real-mux-json() {
	local d=$WORK/mux
	gomod $MUX "$d"
	# cleanPath no longer keeps the trailing slash.
	replace "$d/mux.go" $'\t// path.Clean removes trailing slash except for root;\n\t// put the trailing slash back if necessary.\n\tif p[len(p)-1] == \'/\' && np != "/" {\n\t\tnp += "/"\n\t}\n' ''
	capture real-mux-json "$d" go test -json ./...
	cat >"$CORPUS/real-mux-json/want.json" <<'EOF'
{
  "runner": "go test -json",
  "must": [
    "mux_test.go:1981: Should have complete URL with query string",
    "mux_test.go:2495: (match POST handler) Expected \\\"POST\\\" handler to be called, but \\\"\\\" handler was called"
  ],
  "why": "gorilla/mux v1.8.1: cleanPath (mux.go) drops the trailing slash that path.Clean removed; Test301Redirect and TestMethodsSubrouterStrictSlash/match_POST_handler fail (messages are inside JSON Output fields)"
}
EOF
}

case_real-qs-tape() {
	local d=$WORK/qs
	mkdir -p "$d"
	(cd "$WORK" && npm pack --silent "$QS" >/dev/null && tar xzf "qs-${QS#qs@}.tgz" -C "$d" --strip-components=1)
	# Test dependencies go to $WORK/node_modules (found by Node from $WORK/qs).
	(cd "$WORK" && echo '{"private":true}' >package.json && npm install --silent --ignore-scripts --save-exact "${QS_DEPS[@]}" >/dev/null)
	# commaRoundTrip adds "[]" for empty arrays instead of single-item ones.
	replace "$d/lib/stringify.js" 'commaRoundTrip && isArray(obj) && obj.length === 1 ?' 'commaRoundTrip && isArray(obj) && obj.length === 0 ?'
	capture real-qs-tape "$d" node ../node_modules/tape/bin/tape 'test/**/*.js'
	cat >"$CORPUS/real-qs-tape/want.json" <<'EOF'
{
  "runner": "tape",
  "must": [
    "expected: 'a[]=c'",
    "actual:   'a=c'",
    "at: Test.<anonymous> (/tmp/runledger-corpus-real/qs/test/stringify.js:344:17)",
    "at: Test.<anonymous> (/tmp/runledger-corpus-real/qs/test/stringify.js:637:12)"
  ],
  "message": {"should be strictly equal": "expected: 'a[]=c'; actual: 'a=c'"},
  "why": "qs 6.13.0: stringify (lib/stringify.js) appends [] under commaRoundTrip for length === 0 instead of === 1; 4 of 739 tape assertions in test/stringify.js fail"
}
EOF
}

case_real-cobra-json() {
	local d=$WORK/cobra
	gomod $COBRA "$d"
	# The mutually-exclusive flags error says "can be set" instead of "can be".
	replace "$d/flag_groups.go" 'are set none of the others can be; %v were all set' 'are set none of the others can be set; %v were all set'
	# Not the regression: TestFailGenFishCompletionFile expects a read-only
	# file to be unwritable, which root can write (it then panics on a nil error).
	capture real-cobra-json "$d" go test -json -skip '^TestFailGen' ./...
	cat >"$CORPUS/real-cobra-json/want.json" <<'EOF'
{
  "runner": "go test -json",
  "must": [
    "flag_groups_test.go:191: Expected error \\\"if any flags in the group [a b c] are set none of the others can be; [a b] were all set\\\" but got",
    "--- FAIL: TestValidateFlagGroups/Exclusive_flag_group_not_satisfied",
    "flag_groups_test.go:191: Expected error \\\"if any flags in the group [e subonly] are set none of the others can be; [e subonly] were all set\\\" but got"
  ],
  "message": {"TestValidateFlagGroups/Exclusive_flag_group_not_satisfied": "Expected error \"if any flags in the group [a b c] are set none of the others can be; [a b] were all set\" but got"},
  "why": "spf13/cobra v1.10.1: validateExclusiveFlagGroups (flag_groups.go) words its error differently; the five subtests of TestValidateFlagGroups that expect it fail, their messages inside go test -json Output fields among 350 passing tests"
}
EOF
}

case_real-go-cmp-panic() {
	local d=$WORK/go-cmp
	gomod $GOCMP "$d"
	# isLess on array keys reads one element past the end: reflect panics.
	replace "$d/cmp/internal/value/sort.go" $'case reflect.Array:\n\t\tfor i := 0; i < x.Len(); i++' $'case reflect.Array:\n\t\tfor i := 0; i <= x.Len(); i++'
	capture real-go-cmp-panic "$d" go test ./...
	cat >"$CORPUS/real-go-cmp-panic/want.json" <<'EOF'
{
  "runner": "go test",
  "must": [
    "--- FAIL: TestSortKeys",
    "panic: reflect: array index out of range",
    "/tmp/runledger-corpus-real/go-cmp/cmp/internal/value/sort.go:62",
    "FAIL\tgithub.com/google/go-cmp/cmp/internal/value"
  ],
  "message": {"TestSortKeys": "panic: reflect: array index out of range"},
  "why": "google/go-cmp v0.7.0: isLess (cmp/internal/value/sort.go) loops to i <= x.Len() on arrays; TestSortKeys panics in one of six packages run, the others pass"
}
EOF
}

case_real-numeral-mocha() {
	local d=$WORK/numeral
	mkdir -p "$d"
	(cd "$WORK" && npm pack --silent "$NUMERAL" >/dev/null && tar xzf "numeral-${NUMERAL#numeral@}.tgz" -C "$d" --strip-components=1)
	(cd "$WORK" && echo '{"private":true}' >package.json && npm install --silent --ignore-scripts --save-exact "${NUMERAL_DEPS[@]}" >/dev/null)
	# English ordinals of numbers ending in 2 become "rd".
	replace "$d/numeral.js" "(b === 2) ? 'nd' :" "(b === 2) ? 'rd' :"
	# The files its Gruntfile's mochaTest task runs.
	capture real-numeral-mocha "$d" ../node_modules/.bin/mocha tests/numeral.js 'tests/formats/*.js' 'tests/locales/*.js'
	cat >"$CORPUS/real-numeral-mocha/want.json" <<'EOF'
{
  "runner": "mocha",
  "must": [
    "should format to an ordinal:",
    "AssertionError: expected '52 rd' to equal '52 nd'",
    "at Context.<anonymous> (tests/formats/ordinal.js:29:31)"
  ],
  "message": {"should format to an ordinal": "expected '52 rd' to equal '52 nd'"},
  "why": "numeral 2.0.6: the en locale's ordinal (numeral.js) gives 'rd' for numbers ending in 2; Ordinal's one test fails among 174 mocha tests of 41 files"
}
EOF
}

case_real-retryablehttp-v() {
	local d=$WORK/retryablehttp
	gomod $RETRYABLEHTTP "$d"
	# DefaultBackoff waits twice as long: 2^(n+1) * min instead of 2^n * min.
	replace "$d/client.go" 'mult := math.Pow(2, float64(attemptNum)) * float64(min)' 'mult := math.Pow(2, float64(attemptNum+1)) * float64(min)'
	capture real-retryablehttp-v "$d" go test -v ./...
	cat >"$CORPUS/real-retryablehttp-v/want.json" <<'EOF'
{
  "runner": "go test -v",
  "must": [
    "client_test.go:1181: bad: retryablehttp.tcase{min:1000000000, max:300000000000, i:0, expect:1000000000} -> 2s",
    "--- FAIL: TestBackoff"
  ],
  "message": {"TestBackoff": "bad: retryablehttp.tcase{min:1000000000, max:300000000000, i:0, expect:1000000000} -> 2s"},
  "why": "hashicorp/go-retryablehttp v0.7.7: DefaultBackoff (client.go) doubles every wait; TestBackoff fails while the passing tests' client logs hundreds of [DEBUG] and [ERR] request failed lines"
}
EOF
}

case_real-go-cmp-build-v() {
	local d=$WORK/go-cmp-build
	gomod $GOCMP "$d"
	# A type error in an internal package: the two packages that import it do not build.
	replace "$d/cmp/internal/value/sort.go" $'\tvs2 := vs[:1]\n' $'\tvs2 := vs[1]\n'
	capture real-go-cmp-build-v "$d" go test -v ./...
	cat >"$CORPUS/real-go-cmp-build-v/want.json" <<'EOF'
{
  "runner": "go test -v",
  "must": [
    "cmp/internal/value/sort.go:27:16: cannot index vs2 (variable of struct type reflect.Value)",
    "FAIL\tgithub.com/google/go-cmp/cmp [build failed]",
    "FAIL\tgithub.com/google/go-cmp/cmp/cmpopts [build failed]",
    "FAIL\tgithub.com/google/go-cmp/cmp/internal/value [build failed]"
  ],
  "why": "google/go-cmp v0.7.0: SortKeys (cmp/internal/value/sort.go) takes vs[1] for vs[:1]; three packages fail to build while the others run their tests verbosely"
}
EOF
}

case_real-cobra-json-panic() {
	local d=$WORK/cobra-panic
	gomod $COBRA "$d"
	# No regression injected: run as root, TestFailGenFishCompletionFile finds
	# its read-only file writable, gets a nil error and dereferences it. The
	# panic ends the package's test binary; the other packages pass.
	capture real-cobra-json-panic "$d" go test -json ./...
	cat >"$CORPUS/real-cobra-json-panic/want.json" <<'EOF'
{
  "runner": "go test -json",
  "must": [
    "--- FAIL: TestFailGenFishCompletionFile",
    "panic: runtime error: invalid memory address or nil pointer dereference",
    "fish_completions_test.go:141"
  ],
  "message": {"TestFailGenFishCompletionFile": "panic: runtime error: invalid memory address or nil pointer dereference"},
  "why": "spf13/cobra v1.10.1 as root (nothing injected): TestFailGenFishCompletionFile expects a read-only file to be unwritable, gets a nil error and panics on it; go test -json of three packages, the panic inside Output fields"
}
EOF
}

case_real-cast-quicktest() {
	local d=$WORK/cast
	gomod $CAST "$d"
	# ToStringE formats a float32 with 64-bit precision: 8.31 becomes "8.3100004196167".
	replace "$d/caste.go" $'return strconv.FormatFloat(float64(s), \'f\', -1, 32), nil' $'return strconv.FormatFloat(float64(s), \'f\', -1, 64), nil'
	capture real-cast-quicktest "$d" go test ./...
	cat >"$CORPUS/real-cast-quicktest/want.json" <<'EOF'
{
  "runner": "go test",
  "must": [
    "--- FAIL: TestToStringE",
    "values are not equal",
    "\"8.3100004196167\"",
    "/tmp/runledger-corpus-real/cast/cast_test.go:284",
    "--- FAIL: TestToStringSliceE",
    "values are not deep equal",
    "- \t\"1.0099999904632568\",",
    "/tmp/runledger-corpus-real/cast/cast_test.go:741"
  ],
  "message": {"TestToStringE": "values are not equal"},
  "why": "spf13/cast v1.5.1: ToStringE (caste.go) formats float32 with 64-bit precision; TestToStringE and TestToStringSliceE fail with frankban/quicktest's multi-line reports (error:, comment:, got:, want:, a diff (-got +want): block, stack:) under a bare cast_test.go:N: line"
}
EOF
}

case_real-fastify-error-node-test() {
	local d=$WORK/fastify-error
	mkdir -p "$d"
	(cd "$WORK" && npm pack --silent "$FASTIFYERROR" >/dev/null && tar xzf fastify-error-4.2.0.tgz -C "$d" --strip-components=1)
	# toString drops the colon after the code.
	replace "$d/index.js" 'return `${this.name} [${this.code}]: ${this.message}`' 'return `${this.name} [${this.code}] ${this.message}`'
	# Its test:unit script without c8's coverage wrapper: node's own runner
	# (TAP, as node 20 reports when stdout is not a terminal).
	capture real-fastify-error-node-test "$d" node --test
	cat >"$CORPUS/real-fastify-error-node-test/want.json" <<'EOF'
{
  "runner": "node:test",
  "must": [
    "not ok 15 - FastifyError.toString returns code",
    "error: \"'FastifyError [CODE] foo' == 'FastifyError [CODE]: foo'\"",
    "TestContext.<anonymous> (/tmp/runledger-corpus-real/fastify-error/test/index.test.js:176:12)"
  ],
  "message": {"FastifyError.toString returns code": "'FastifyError [CODE] foo' == 'FastifyError [CODE]: foo'"},
  "why": "@fastify/error 4.2.0 (npm, its own node:test suite): toString (index.js) omits the colon after the code; one of 29 tests fails, its YAML diagnostic (error, expected, actual, stack) in node 20's TAP output"
}
EOF
}

case_real-objx-timeout-v() {
	local d=$WORK/objx
	gomod $OBJX "$d"
	# access's loop over a selector's [index] parts goes on instead of
	# stopping when one does not parse: a selector like "names[0][x]"... spins.
	replace "$d/accessors.go" $'\t\tif prevSel == thisSel {\n\t\t\tbreak\n' $'\t\tif prevSel == thisSel {\n\t\t\tcontinue\n'
	capture real-objx-timeout-v "$d" go test -v -timeout 10s ./...
	cat >"$CORPUS/real-objx-timeout-v/want.json" <<'EOF'
{
  "runner": "go test -v",
  "must": [
    "panic: test timed out after 10s",
    "TestAccessorsAccessGetInsideArray (10s)",
    "github.com/stretchr/objx.Map.Get(...)",
    "/tmp/runledger-corpus-real/objx/accessors.go:46",
    "/tmp/runledger-corpus-real/objx/accessors_test.go:97",
    "FAIL\tgithub.com/stretchr/objx"
  ],
  "message": {"TestAccessorsAccessGetInsideArray": "panic: test timed out after 10s"},
  "why": "stretchr/objx v0.5.2: access (accessors.go) continues instead of breaking out of its loop over [index] parts when one does not parse; TestAccessorsAccessGetInsideArray spins until go test -timeout 10s panics with its running-tests list and every goroutine's stack (the spinning one in objx.access, called from accessors_test.go:97), after go test -v's RUN/PASS lines of the tests before it"
}
EOF
}

case_real-cast-quicktest-json() {
	local d=$WORK/cast-json
	gomod $CAST "$d"
	# As real-cast-quicktest, under go test -json: quicktest's report is one
	# Output event a line, its message on the events after the bare file:line.
	replace "$d/caste.go" $'return strconv.FormatFloat(float64(s), \'f\', -1, 32), nil' $'return strconv.FormatFloat(float64(s), \'f\', -1, 64), nil'
	capture real-cast-quicktest-json "$d" go test -json ./...
	cat >"$CORPUS/real-cast-quicktest-json/want.json" <<'EOF'
{
  "runner": "go test -json",
  "must": [
    "\"Output\":\"--- FAIL: TestToStringE",
    "values are not equal",
    "\\\"8.3100004196167\\\"",
    "/tmp/runledger-corpus-real/cast-json/cast_test.go:284",
    "\"Output\":\"--- FAIL: TestToStringSliceE",
    "values are not deep equal",
    "/tmp/runledger-corpus-real/cast-json/cast_test.go:741"
  ],
  "message": {"TestToStringE": "values are not equal got: \"8.3100004196167\" want: \"8.31\"", "TestToStringSliceE": "values are not deep equal"},
  "why": "spf13/cast v1.5.1 under go test -json: ToStringE (caste.go) formats float32 with 64-bit precision; quicktest's multi-line reports of TestToStringE and TestToStringSliceE arrive one Output event a line, the message on the events after a bare cast_test.go:N: line"
}
EOF
}

case_real-cast-vet-v() {
	local d=$WORK/cast-vet
	gomod $CAST "$d"
	# ToDurationE's error drops the argument of its %T: go test's vet check fails the build.
	replace "$d/caste.go" 'err = fmt.Errorf("unable to cast %#v of type %T to Duration", i, i)' 'err = fmt.Errorf("unable to cast %#v of type %T to Duration", i)'
	capture real-cast-vet-v "$d" go test -v ./...
	cat >"$CORPUS/real-cast-vet-v/want.json" <<'EOF'
{
  "runner": "go test -v",
  "must": [
    "./caste.go:86:48: fmt.Errorf format %T reads arg #2, but call has 1 arg",
    "FAIL\tgithub.com/spf13/cast [build failed]"
  ],
  "why": "spf13/cast v1.5.1: ToDurationE (caste.go) passes one argument to a format with two verbs; the vet checks go test runs before the tests report it under a `# [github.com/spf13/cast]` heading and the package fails as [build failed] with no test run"
}
EOF
}

run_cases "${REAL_KEEP:-0}"
