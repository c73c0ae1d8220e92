package report

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runledger/runledger/internal/golden"
)

// TestFormatGolden reads each sample under testdata/reports (gotest, mocha,
// jest, rspec and node-junit made by the real tools; the .NET, CTRF, Dart
// and Surefire ones written by hand in the shape those tools write, the
// tools not being on this machine) and checks what it yields against its
// golden file: the format, the counts, the failures and every test's
// identity and outcome.
func TestFormatGolden(t *testing.T) {
	samples, err := filepath.Glob(filepath.Join("testdata", "reports", "*"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"gotest.json": FormatGoJSON, "mocha.json": FormatMocha, "jest.json": FormatJest,
		"rspec.json": FormatRSpec, "node-junit.xml": FormatJUnit, "surefire-rerun.xml": FormatJUnit, "nunit2.xml": FormatNUnit,
		"nunit3.xml": FormatNUnit, "xunit2.xml": FormatXUnit, "vstest.trx": FormatTRX, "ctrf.json": FormatCTRF, "dart.json": FormatDart}
	for _, path := range samples {
		name := filepath.Base(path)
		if strings.HasSuffix(name, ".golden.json") {
			continue
		}
		t.Run(name, func(t *testing.T) {
			// Detection is by content: the sample is read under a neutral name.
			neutral := filepath.Join(t.TempDir(), "report.out")
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			os.WriteFile(neutral, data, 0o644)
			rr := readReports([]string{neutral})
			if rr.summary.Source != want[name] {
				t.Fatalf("source %q, want %q (warnings %v)", rr.summary.Source, want[name], rr.warnings)
			}
			if len(rr.warnings) > 0 {
				t.Fatalf("warnings: %v", rr.warnings)
			}
			golden.Check(t, filepath.Join("testdata", "reports", name+".golden.json"), formatView(t, rr))
		})
	}
}

type testView struct {
	ID      TestID `json:"id"`
	Outcome string `json:"outcome"`
	Flaky   bool   `json:"flaky,omitempty"`
}

func formatView(t *testing.T, rr reportRead) []byte {
	t.Helper()
	v := struct {
		Summary Summary    `json:"summary"`
		Flaky   []TestRef  `json:"flaky,omitempty"`
		Tests   []testView `json:"tests"`
	}{Summary: rr.summary, Flaky: rr.flaky}
	rr.tally.each(func(id TestID, outcome string, flaky bool) {
		v.Tests = append(v.Tests, testView{id, outcome, flaky})
	})
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

// TestTruncatedReports: each sample cut short, mid-line or at the last
// line end before its middle, is never read as a whole report: it is
// unreadable (no counts) or read with a warning that keeps it unverified.
func TestTruncatedReports(t *testing.T) {
	samples, _ := filepath.Glob(filepath.Join("testdata", "reports", "*"))
	for _, path := range samples {
		if strings.HasSuffix(path, ".golden.json") {
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		half := len(data) / 2
		cuts := map[string][]byte{"mid-line": data[:half]}
		if i := strings.LastIndexByte(string(data[:half]), '\n'); i > 0 {
			cuts["at a line end"] = data[:i+1]
		}
		for how, cut := range cuts {
			t.Run(filepath.Base(path)+" "+how, func(t *testing.T) {
				p := filepath.Join(t.TempDir(), "report.out")
				os.WriteFile(p, cut, 0o644)
				rr := readReports([]string{p})
				if rr.read == 1 && len(rr.warnings) == 0 {
					t.Fatalf("read as whole: %d tests, source %s", *rr.summary.Tests, rr.summary.Source)
				}
				if rr.read == 0 && rr.summary.Tests != nil {
					t.Fatalf("unreadable, yet counts %d", *rr.summary.Tests)
				}
			})
		}
	}
}
