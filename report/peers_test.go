package report

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/runledger/runledger/capture"
)

// peerReports holds the peers' own fixtures (dorny/test-reporter,
// EnricoMi/publish-unit-test-result-action); SOURCES.md there names each
// file's origin. They are third-party data: read in place, never copied.
func peerReports(t *testing.T) string {
	dir := os.Getenv("RUNLEDGER_PEER_REPORTS")
	if dir == "" {
		dir = "/work/shared/data/peer-reports"
	}
	if _, err := os.Stat(filepath.Join(dir, "SOURCES.md")); err != nil {
		t.Skipf("peer fixtures not here: %v", err)
	}
	return dir
}

// peerCounts are what a peer counted for a fixture: tests, passed,
// failed (failures and errors), skipped; -1 where the peer says nothing.
type peerCounts struct{ tests, passed, failed, skipped int }

// peerExpected is derived from the peers' expectation files: dorny's
// __tests__/__outputs__/*.md report tables and test assertions,
// EnricoMi's *.results.json stats (tests, tests_succ, tests_fail +
// tests_error, tests_skip). nil: the peer has no count (or could not
// parse the file), and only the no-false-pass rules are checked.
var peerExpected = []struct {
	fixture string
	want    *peerCounts
}{
	{"dorny-pr/external__go__ginkgo-junit-report.xml", nil},                                                          // no peer expectation
	{"dorny-pr/external__go__go-junit-report.xml", nil},                                                              // no peer expectation
	{"dorny-pr/external__java__playwright-report.xml", &peerCounts{60, 36, 4, 20}},                                   // dorny outputs at the PR commit
	{"dorny-pr/karma-junit-eslint.xml", &peerCounts{1, 1, 0, 0}},                                                     // dorny outputs at the PR commit
	{"dorny-pr/karma-junit.xml", &peerCounts{4, 1, 3, 0}},                                                            // dorny outputs at the PR commit
	{"dorny/dart-json.json", &peerCounts{6, 1, 4, 1}},                                                                // dart-json.md
	{"dorny/dotnet-nunit.xml", &peerCounts{9, 3, 5, 1}},                                                              // dotnet-nunit.md
	{"dorny/dotnet-trx.trx", &peerCounts{11, 5, 5, 1}},                                                               // dotnet-trx-only-failed.md
	{"dorny/dotnet-xunitv3.trx", &peerCounts{4, 1, 3, 0}},                                                            // dotnet-xunitv3.md
	{"dorny/empty__dart-json.json", &peerCounts{0, 0, 0, 0}},                                                         // dorny test: result.tests is 0
	{"dorny/empty__dotnet-trx-empty-test-definitions.trx", &peerCounts{0, 0, 0, 0}},                                  // dorny test: result.tests is 0
	{"dorny/empty__dotnet-trx.trx", &peerCounts{0, 0, 0, 0}},                                                         // dorny test: result.tests is 0
	{"dorny/empty__java-junit.xml", &peerCounts{0, 0, 0, 0}},                                                         // dorny test: result.tests is 0
	{"dorny/empty__jest-junit-empty-testsuite.xml", &peerCounts{0, 0, 0, 0}},                                         // dorny test: result.tests is 0
	{"dorny/empty__jest-junit.xml", &peerCounts{0, 0, 0, 0}},                                                         // dorny test: result.tests is 0
	{"dorny/empty__mocha-json.json", &peerCounts{0, 0, 0, 0}},                                                        // dorny test: result.tests is 0
	{"dorny/empty__phpunit-empty.xml", &peerCounts{0, 0, 0, 0}},                                                      // dorny test: result.tests is 0
	{"dorny/empty__rspec-json.json", &peerCounts{0, 0, 0, 0}},                                                        // dorny test: result.tests is 0
	{"dorny/external__FluentValidation.Tests.trx", &peerCounts{804, 803, 0, 1}},                                      // fluent-validation-test-results.md
	{"dorny/external__SilentNotes.trx", &peerCounts{79, 67, 0, 12}},                                                  // silent-notes-test-results.md
	{"dorny/external__flutter__provider-test-results.json", &peerCounts{269, 268, 1, 0}},                             // provider-test-results.md
	{"dorny/external__java__TEST-org.apache.pulsar.AddMissingPatchVersionTest.xml", &peerCounts{2, 0, 1, 1}},         // pulsar-test-results-no-merge.md
	{"dorny/external__java__empty_failures.xml", &peerCounts{-1, -1, 1, -1}},                                         // dorny test: failed 1
	{"dorny/external__java__junit4-basic.xml", &peerCounts{6, 5, 1, 0}},                                              // junit-basic.md
	{"dorny/external__java__junit4-complete.xml", &peerCounts{8, 5, 2, 1}},                                           // junit-complete.md
	{"dorny/external__java__pulsar-test-report.xml", &peerCounts{808, 793, 1, 14}},                                   // pulsar-test-results.md
	{"dorny/external__jest__jest-react-component-test-results.xml", &peerCounts{1, 1, 0, 0}},                         // jest-react-component-test-results.md
	{"dorny/external__jest__jest-test-results.xml", &peerCounts{4239, 4207, 2, 30}},                                  // jest-test-results.md
	{"dorny/external__mocha__mocha-test-results.json", &peerCounts{839, 833, 0, 6}},                                  // mocha-test-results.md
	{"dorny/external__nunit-sample.xml", nil},                                                                        // no peer expectation
	{"dorny/external__phpunit__junit-basic.xml", &peerCounts{9, 8, 1, 0}},                                            // phpunit-junit-basic-results.md
	{"dorny/external__phpunit__phpcheckstyle-phpunit.xml", &peerCounts{30, 28, 2, 0}},                                // phpunit-phpcheckstyle-results.md
	{"dorny/golang-json.json", &peerCounts{12, 5, 6, 1}},                                                             // golang-json.md
	{"dorny/jest-junit-eslint.xml", &peerCounts{1, 1, 0, 0}},                                                         // jest-junit-eslint.md
	{"dorny/jest-junit.xml", &peerCounts{6, 1, 4, 1}},                                                                // jest-junit.md
	{"dorny/junit-with-message.xml", &peerCounts{1, 0, 1, 0}},                                                        // junit-with-message.md
	{"dorny/mocha-json.json", &peerCounts{6, 1, 4, 1}},                                                               // mocha-json.md
	{"dorny/nette-tester__BootstrapFormRenderer-report.xml", &peerCounts{4, 4, 0, 0}},                                // tester-bootstrap-test-results.md
	{"dorny/nette-tester__tester-v1.7-report.xml", &peerCounts{65, 61, 1, 3}},                                        // tester-v1.7-test-results.md
	{"dorny/phpunit__phpunit-paths.xml", nil},                                                                        // no peer expectation
	{"dorny/phpunit__phpunit.xml", &peerCounts{12, 10, 2, 0}},                                                        // phpunit-test-results.md
	{"dorny/python-xunit-pytest.xml", &peerCounts{10, 6, 2, 2}},                                                      // python-xunit-pytest.md
	{"dorny/python-xunit-unittest.xml", &peerCounts{8, 4, 2, 2}},                                                     // python-xunit-unittest.md
	{"dorny/rspec-json.json", &peerCounts{3, 1, 1, 1}},                                                               // rspec-json.md
	{"dorny/swift-xunit.xml", &peerCounts{3, 2, 1, 0}},                                                               // swift-xunit.md
	{"dorny/test-errors__jest__jest-test-results.xml", &peerCounts{2, 0, 2, 0}},                                      // jest-test-errors-results.md
	{"enricomi/dart__json__tests.json", &peerCounts{20, 16, 3, 1}},                                                   // EnricoMi .results.json
	{"enricomi/json__empty.json", nil},                                                                               // no peer expectation
	{"enricomi/json__malformed-json.json", nil},                                                                      // no peer expectation
	{"enricomi/json__non-json.json", nil},                                                                            // no peer expectation
	{"enricomi/junit-xml__bazel__suite-logs.xml", &peerCounts{1, 0, 1, 0}},                                           // EnricoMi .results.json
	{"enricomi/junit-xml__empty-system-out-err.xml", &peerCounts{1, 1, 0, 0}},                                        // EnricoMi .results.json
	{"enricomi/junit-xml__jest__jest-junit.xml", &peerCounts{2, 2, 0, 0}},                                            // EnricoMi .results.json
	{"enricomi/junit-xml__junit.multiresult.xml", &peerCounts{4, 1, 2, 1}},                                           // EnricoMi .results.json
	{"enricomi/junit-xml__minimal-attributes.xml", &peerCounts{4, 1, 2, 1}},                                          // EnricoMi .results.json
	{"enricomi/junit-xml__mocha__latex-utensils.xml", &peerCounts{101, 101, 0, 0}},                                   // EnricoMi .results.json
	{"enricomi/junit-xml__no-attributes.xml", &peerCounts{4, 1, 2, 1}},                                               // EnricoMi .results.json
	{"enricomi/junit-xml__no-cases-but-tests.xml", &peerCounts{6, 3, 1, 2}},                                          // EnricoMi .results.json
	{"enricomi/junit-xml__no-cases.xml", &peerCounts{0, 0, 0, 0}},                                                    // EnricoMi .results.json
	{"enricomi/junit-xml__non-junit.xml", nil},                                                                       // EnricoMi: parse error
	{"enricomi/junit-xml__pytest__corrupt-xml.xml", nil},                                                             // no peer expectation
	{"enricomi/junit-xml__pytest__junit.fail.xml", &peerCounts{5, 3, 1, 1}},                                          // EnricoMi .results.json
	{"enricomi/junit-xml__pytest__junit.gloo.elastic.spark.tf.xml", &peerCounts{22, 20, 0, 2}},                       // EnricoMi .results.json
	{"enricomi/junit-xml__pytest__junit.gloo.elastic.spark.torch.xml", &peerCounts{22, 22, 0, 0}},                    // EnricoMi .results.json
	{"enricomi/junit-xml__pytest__junit.gloo.elastic.xml", &peerCounts{14, 10, 0, 4}},                                // EnricoMi .results.json
	{"enricomi/junit-xml__pytest__junit.gloo.standalone.xml", &peerCounts{97, 80, 0, 17}},                            // EnricoMi .results.json
	{"enricomi/junit-xml__pytest__junit.gloo.static.xml", &peerCounts{24, 12, 0, 12}},                                // EnricoMi .results.json
	{"enricomi/junit-xml__pytest__junit.mpi.integration.xml", &peerCounts{3, 3, 0, 0}},                               // EnricoMi .results.json
	{"enricomi/junit-xml__pytest__junit.mpi.standalone.xml", &peerCounts{97, 96, 0, 1}},                              // EnricoMi .results.json
	{"enricomi/junit-xml__pytest__junit.mpi.static.xml", &peerCounts{24, 24, 0, 0}},                                  // EnricoMi .results.json
	{"enricomi/junit-xml__pytest__junit.spark.integration.1.xml", &peerCounts{35, 33, 0, 2}},                         // EnricoMi .results.json
	{"enricomi/junit-xml__pytest__junit.spark.integration.2.xml", &peerCounts{35, 33, 0, 2}},                         // EnricoMi .results.json
	{"enricomi/junit-xml__scalatest__TEST-uk.co.gresearch.spark.diff.DiffOptionsSuite.xml", &peerCounts{5, 5, 0, 0}}, // EnricoMi .results.json
	{"enricomi/junit-xml__testsuite-in-testsuite.xml", &peerCounts{5, 5, 0, 0}},                                      // EnricoMi .results.json
	{"enricomi/junit-xml__testsuite-root.xml", &peerCounts{5, 5, 0, 0}},                                              // EnricoMi .results.json
	{"enricomi/junit-xml__tst__disabled.xml", &peerCounts{31, 6, 20, 5}},                                             // EnricoMi .results.json
	{"enricomi/junit-xml__unsupported-unicode.xml", &peerCounts{7, 1, 4, 2}},                                         // EnricoMi .results.json
	{"enricomi/junit-xml__with-xml-entities.xml", &peerCounts{4, 0, 2, 2}},                                           // EnricoMi .results.json
	{"enricomi/junit-xml__xunit__xunit.xml", &peerCounts{2, 2, 0, 0}},                                                // EnricoMi .results.json
	{"enricomi/mocha__tests.json", &peerCounts{5, 2, 2, 1}},                                                          // EnricoMi .results.json
	{"enricomi/nunit__mstest__clicketyclackety.xml", &peerCounts{23, 13, 10, 0}},                                     // EnricoMi .results.json
	{"enricomi/nunit__mstest__pickles.xml", &peerCounts{4, 3, 1, 0}},                                                 // EnricoMi .results.json
	{"enricomi/nunit__mstest__timewarpinc.xml", &peerCounts{1, 0, 1, 0}},                                             // EnricoMi .results.json
	{"enricomi/nunit__nunit3__jenkins__NUnit-correct.xml", &peerCounts{28, 18, 2, 8}},                                // EnricoMi .results.json
	{"enricomi/nunit__nunit3__jenkins__NUnit-correct2.xml", &peerCounts{183, 183, 0, 0}},                             // EnricoMi .results.json
	{"enricomi/nunit__nunit3__jenkins__NUnit-correct3.xml", &peerCounts{22, 22, 0, 0}},                               // EnricoMi .results.json
	{"enricomi/nunit__nunit3__jenkins__NUnit-failure.xml", &peerCounts{3, 2, 1, 0}},                                  // EnricoMi .results.json
	{"enricomi/nunit__nunit3__jenkins__NUnit-healthReport.xml", &peerCounts{10, 9, 1, 0}},                            // EnricoMi .results.json
	{"enricomi/nunit__nunit3__jenkins__NUnit-ignored.xml", &peerCounts{3, 1, 0, 2}},                                  // EnricoMi .results.json
	{"enricomi/nunit__nunit3__jenkins__NUnit-issue1077.xml", &peerCounts{6, 6, 0, 0}},                                // EnricoMi .results.json
	{"enricomi/nunit__nunit3__jenkins__NUnit-issue17521.xml", nil},                                                   // no peer expectation
	{"enricomi/nunit__nunit3__jenkins__NUnit-issue33493.xml", &peerCounts{2, 1, 0, 1}},                               // EnricoMi .results.json
	{"enricomi/nunit__nunit3__jenkins__NUnit-issue44527.xml", &peerCounts{150, 6, 144, 0}},                           // EnricoMi .results.json
	{"enricomi/nunit__nunit3__jenkins__NUnit-issue47367.xml", nil},                                                   // no peer expectation
	{"enricomi/nunit__nunit3__jenkins__NUnit-issue48478.xml", &peerCounts{3, 3, 0, 0}},                               // EnricoMi .results.json
	{"enricomi/nunit__nunit3__jenkins__NUnit-issue50162.xml", &peerCounts{6, 3, 3, 0}},                               // EnricoMi .results.json
	{"enricomi/nunit__nunit3__jenkins__NUnit-issue5674.xml", &peerCounts{9, 6, 3, 0}},                                // EnricoMi .results.json
	{"enricomi/nunit__nunit3__jenkins__NUnit-issue6353.xml", &peerCounts{3, 1, 1, 1}},                                // EnricoMi .results.json
	{"enricomi/nunit__nunit3__jenkins__NUnit-multinamespace.xml", &peerCounts{4, 4, 0, 0}},                           // EnricoMi .results.json
	{"enricomi/nunit__nunit3__jenkins__NUnit-sec1752-file.xml", &peerCounts{2, 1, 1, 0}},                             // EnricoMi .results.json
	{"enricomi/nunit__nunit3__jenkins__NUnit-sec1752-https.xml", &peerCounts{2, 1, 1, 0}},                            // EnricoMi .results.json
	{"enricomi/nunit__nunit3__jenkins__NUnit-simple.xml", &peerCounts{2, 2, 0, 0}},                                   // EnricoMi .results.json
	{"enricomi/nunit__nunit3__jenkins__NUnit.xml", &peerCounts{4, 3, 1, 0}},                                          // EnricoMi .results.json
	{"enricomi/nunit__nunit3__jenkins__NUnitUnicode.xml", &peerCounts{1, 0, 1, 0}},                                   // EnricoMi .results.json
	{"enricomi/trx__mstest__pickles.trx", &peerCounts{4, 3, 1, 0}},                                                   // EnricoMi .results.json
	{"enricomi/trx__nunit__FluentValidation.Tests.trx", &peerCounts{804, 803, 0, 1}},                                 // EnricoMi .results.json
	{"enricomi/trx__nunit__NUnit-net461-sample.trx", &peerCounts{6, 2, 3, 1}},                                        // EnricoMi .results.json
	{"enricomi/trx__nunit__NUnit-netcoreapp3.1-sample.trx", &peerCounts{6, 2, 3, 1}},                                 // EnricoMi .results.json
	{"enricomi/trx__nunit__SilentNotes.trx", &peerCounts{79, 67, 0, 12}},                                             // EnricoMi .results.json
	{"enricomi/trx__xunit__dotnet-trx.trx", &peerCounts{11, 5, 5, 1}},                                                // EnricoMi .results.json
	{"enricomi/trx__xunit__xUnit-net461-sample.trx", &peerCounts{6, 2, 3, 1}},                                        // EnricoMi .results.json
	{"enricomi/trx__xunit__xUnit-netcoreapp3.1-sample.trx", &peerCounts{6, 2, 3, 1}},                                 // EnricoMi .results.json
	{"enricomi/trx__yami_YAMILEX_2015-10-24_04_18_59.trx", &peerCounts{25, 2, 2, 21}},                                // EnricoMi .results.json
	{"enricomi/xml__empty.xml", nil},                                                                                 // no peer expectation
	{"enricomi/xml__non-xml.xml", nil},                                                                               // no peer expectation
	{"enricomi/xunit__mstest__fixie.xml", &peerCounts{5, 1, 3, 1}},                                                   // EnricoMi .results.json
	{"enricomi/xunit__mstest__jenkinsci__testcase1.xml", &peerCounts{3, 1, 1, 1}},                                    // EnricoMi .results.json
	{"enricomi/xunit__mstest__jenkinsci__testcase2.xml", &peerCounts{1, 1, 0, 0}},                                    // EnricoMi .results.json
	{"enricomi/xunit__mstest__jenkinsci__testcase3.xml", &peerCounts{3, 1, 1, 1}},                                    // EnricoMi .results.json
	{"enricomi/xunit__mstest__jenkinsci__testcase4.xml", &peerCounts{0, 0, 0, 0}},                                    // EnricoMi .results.json
	{"enricomi/xunit__mstest__jenkinsci__testcase5.xml", &peerCounts{5, 5, 0, 0}},                                    // EnricoMi .results.json
	{"enricomi/xunit__mstest__jenkinsci__testcase6.xml", &peerCounts{1, 0, 1, 0}},                                    // EnricoMi .results.json
	{"enricomi/xunit__mstest__pickles.xml", &peerCounts{3, 2, 1, 0}},                                                 // EnricoMi .results.json
}

// peerDivergent are the fixtures whose counts differ from the peer's, on
// purpose; each reason is a trade-off named in the README.
var peerDivergent = map[string]string{
	"enricomi/xunit__mstest__pickles.xml":                 "EnricoMi names xUnit tests by method: parameterised cases merge",
	"enricomi/xunit__mstest__fixie.xml":                   "EnricoMi names xUnit tests by method: parameterised cases merge",
	"enricomi/nunit__nunit3__jenkins__NUnit-correct2.xml": "EnricoMi's tests count merges repeated names; runledger counts each invocation, as dorny does",
	"enricomi/junit-xml__mocha__latex-utensils.xml":       "EnricoMi's tests count merges repeated names; runledger counts each invocation, as dorny does",
}

// TestPeerFixtures offers each fixture the way a workflow step would: the
// command writes it during the run (exit 1 when the peer saw failures)
// and the report's counts are compared with the peer's.
func TestPeerFixtures(t *testing.T) {
	dir := peerReports(t)
	if testing.Short() {
		t.Skip("runs a command per fixture")
	}
	matched := 0
	for _, pc := range peerExpected {
		t.Run(pc.fixture, func(t *testing.T) {
			src := filepath.Join(dir, pc.fixture)
			if _, err := os.Stat(src); err != nil {
				t.Skip(err)
			}
			code := "0"
			if pc.want != nil && pc.want.failed > 0 {
				code = "1"
			}
			st, work := newStore(t), t.TempDir()
			_, err := capture.Run(st, capture.Options{Name: "peer", Dir: work, KillAfter: time.Second,
				Argv:    []string{"sh", "-c", `cp "$1" report.out; exit ` + code, "sh", src},
				Reports: []string{"report.out"}})
			if err != nil {
				t.Fatal(err)
			}
			env, err := Build(st, Options{})
			if err != nil {
				t.Fatal(err)
			}
			run := env.Runs[0]
			s := run.Summary
			if run.Status == "passed" && (pc.want == nil || !s.Verified) {
				t.Errorf("status passed with an unverified or unreadable report: %+v", s)
			}
			if pc.want == nil {
				if s.Tests != nil && !s.Verified && s.Note == "" {
					t.Errorf("counts without a note saying why they are not verified")
				}
				return
			}
			if s.Tests == nil {
				t.Fatalf("no counts (source %s): %s", s.Source, s.Note)
			}
			got := peerCounts{*s.Tests, *s.Passed, *s.Failed + *s.Errors, *s.Skipped}
			if !countsMatch(got, *pc.want) {
				if why, ok := peerDivergent[pc.fixture]; ok {
					t.Logf("differs from the peer, as documented (%s): got %+v, peer %+v", why, got, *pc.want)
					return
				}
				t.Errorf("source %s: got %+v, peer %+v (%s)", s.Source, got, *pc.want, s.Note)
				return
			}
			matched++
		})
	}
	t.Logf("%d of %d fixtures with peer counts match", matched, countWith(peerExpected))
}

func countsMatch(got, want peerCounts) bool {
	eq := func(g, w int) bool { return w < 0 || g == w }
	return eq(got.tests, want.tests) && eq(got.passed, want.passed) && eq(got.failed, want.failed) && eq(got.skipped, want.skipped)
}

func countWith(cases []struct {
	fixture string
	want    *peerCounts
}) int {
	n := 0
	for _, c := range cases {
		if c.want != nil {
			n++
		}
	}
	return n
}
