#!/bin/sh
# Regenerates the committed samples of runners the tests cannot run offline:
# jest and mocha (installed from npm into a temporary directory), an npm
# workspaces run of jest, and gotestsum (GOTESTSUM=/path/to/gotestsum, from
# `go install gotest.tools/gotestsum@v1.13.0`). Needs node, npm and go.
# Usage: sh testdata/gen-samples.sh   (from report/runners)
set -eu
out=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

cat > package.json <<'JSON'
{"name": "samples", "version": "1.0.0", "private": true, "workspaces": ["pkg-a", "pkg-b"]}
JSON
# NODE_MODULES may point at an existing install of these versions.
if [ -n "${NODE_MODULES:-}" ]; then
  cp -r "$NODE_MODULES" node_modules
else
  npm install --no-audit --no-fund jest@30.5.2 mocha@12.0.3 >/dev/null 2>&1
fi

cat > calc.test.js <<'JS'
describe('calc', () => {
  test('adds', () => { expect(1 + 1).toBe(2); });
  test('subtracts wrongly', () => { expect(3 - 1).toBe(1); });
  test.skip('divides', () => {});
  test.todo('multiplies');
});
test('top level passes', () => {});
JS
cat > broken.test.js <<'JS'
const x = ;
JS
# jest colours its summary when forced; the parser must see through it.
FORCE_COLOR=1 npx jest --rootDir . calc.test.js broken.test.js > "$out/jest-fail.log" 2>&1 || true
rm broken.test.js

mkdir -p test
cat > test/calc.spec.js <<'JS'
const assert = require('assert');
describe('Array', function () {
  describe('#indexOf()', function () {
    it('returns -1 when the value is absent', function () { assert.equal([1, 2].indexOf(3), -1); });
    it('finds the value', function () { assert.equal([1, 2].indexOf(2), 0); });
    it.skip('is skipped', function () {});
  });
});
it('top level fails', function () { throw new Error('boom'); });
JS
npx mocha test/calc.spec.js > "$out/mocha-fail.log" 2>&1 || true

for w in pkg-a pkg-b; do
  mkdir -p "$w"
  printf '{"name": "%s", "version": "1.0.0", "scripts": {"test": "jest"}}\n' "$w" > "$w/package.json"
done
echo "test('a passes', () => {}); test('a fails', () => { expect(1).toBe(2); });" > pkg-a/a.test.js
echo "test('b passes', () => {}); test('b also passes', () => {});" > pkg-b/b.test.js
npm test --workspaces > "$out/jest-workspaces.log" 2>&1 || true

if [ -n "${GOTESTSUM:-}" ]; then
  mkdir -p gomod && cd gomod
  printf 'module example.com/fix\n\ngo 1.22\n' > go.mod
  cat > fix_test.go <<'GO'
package fix

import "testing"

func TestPass(t *testing.T) {}
func TestFail(t *testing.T) { t.Fatal("boom") }
func TestSkip(t *testing.T) { t.Skip("later") }
func TestSub(t *testing.T) {
	t.Run("ok", func(t *testing.T) {})
	t.Run("bad", func(t *testing.T) { t.Error("sub boom") })
}
GO
  mkdir -p broken && printf 'package broken\n\nfunc F() int { return "x" }\n' > broken/broken.go
  printf 'package broken\n\nimport "testing"\n\nfunc TestF(t *testing.T) { F() }\n' > broken/broken_test.go
  "$GOTESTSUM" --format standard-quiet -- ./... > "$out/gotestsum-fail.log" 2>&1 || true
fi
