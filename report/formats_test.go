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
