package testreport

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runledger/runledger/internal/golden"
	"github.com/runledger/runledger/report/testindex"
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
			rr := Read([]string{neutral})
			if rr.Source != want[name] {
				t.Fatalf("source %q, want %q (warnings %v)", rr.Source, want[name], rr.Warnings)
			}
			if len(rr.Warnings) > 0 {
				t.Fatalf("warnings: %v", rr.Warnings)
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

// summaryView is a Result as the envelope's summary shows it.
type summaryView struct {
	Source          string        `json:"source"`
	Verified        bool          `json:"verified"`
	Tests           int           `json:"tests"`
	Passed          int           `json:"passed"`
	Failed          int           `json:"failed"`
	Skipped         int           `json:"skipped"`
	Errors          int           `json:"errors"`
	Failures        []failureView `json:"failures,omitempty"`
	FailuresOmitted int           `json:"failures_omitted,omitempty"`
}

type failureView struct {
	Name      string `json:"name"`
	Classname string `json:"classname,omitempty"`
	Suite     string `json:"suite,omitempty"`
	Params    string `json:"params,omitempty"`
	File      string `json:"file,omitempty"`
	Line      int    `json:"line,omitempty"`
	Message   string `json:"message,omitempty"`
}

type refView struct {
	Name      string `json:"name"`
	Classname string `json:"classname,omitempty"`
}

var outcomeWords = map[testindex.Outcome]string{testindex.Passed: "passed", testindex.Failed: "failed",
	testindex.Errored: "error", testindex.Skipped: "skipped"}

func formatView(t *testing.T, rr Result) []byte {
	t.Helper()
	c := rr.Counts
	v := struct {
		Summary summaryView `json:"summary"`
		Flaky   []refView   `json:"flaky,omitempty"`
		Tests   []testView  `json:"tests"`
	}{Summary: summaryView{Source: rr.Source, Tests: c.Tests, Passed: c.Passed, Failed: c.Failed,
		Skipped: c.Skipped, Errors: c.Errors, FailuresOmitted: rr.FailuresOmitted}}
	for _, f := range rr.Failures {
		v.Summary.Failures = append(v.Summary.Failures, failureView(f))
	}
	for _, f := range rr.Flaky {
		v.Flaky = append(v.Flaky, refView{f.Name, f.Classname})
	}
	rr.Each(func(id TestID, outcome testindex.Outcome, flaky bool) {
		v.Tests = append(v.Tests, testView{id, outcomeWords[outcome], flaky})
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
				rr := Read([]string{p})
				if rr.Read == 1 && len(rr.Warnings) == 0 {
					t.Fatalf("read as whole: %d tests, source %s", rr.Counts.Tests, rr.Source)
				}
				if rr.Read == 0 && rr.Counts != nil {
					t.Fatalf("unreadable, yet counts %d", rr.Counts.Tests)
				}
			})
		}
	}
}

// TestRegistry walks every registered format: it has a name and exactly
// one way to be told apart (XML root elements, a first JSON line, or a
// JSON document's keys) with the reader that goes with it; an XML format
// names its test and failure elements for the excerpts; and one of the
// samples under testdata/reports is read as it.
func TestRegistry(t *testing.T) {
	samples, err := filepath.Glob(filepath.Join("testdata", "reports", "*"))
	if err != nil {
		t.Fatal(err)
	}
	sampled := map[string]string{}
	for _, path := range samples {
		if !strings.HasSuffix(path, ".golden.json") {
			sampled[Read([]string{path}).Source] = filepath.Base(path)
		}
	}
	names := map[string]bool{}
	for _, f := range formats {
		t.Run(f.Name, func(t *testing.T) {
			if f.Name == "" || names[f.Name] {
				t.Fatalf("name %q is empty or registered twice", f.Name)
			}
			names[f.Name] = true
			ways := 0
			if len(f.XMLRoots) > 0 {
				ways++
				if f.parse == nil || f.TestElement == "" || f.TestNameAttr == "" || len(f.FailureElements) == 0 {
					t.Errorf("XML format without a reader, a test element and its name attribute, or failure elements: %+v", f)
				}
				for _, r := range f.XMLRoots {
					if got := ByXMLRoot(r); got == nil || got.Name != f.Name {
						t.Errorf("<%s> is not found as %s", r, f.Name)
					}
				}
			}
			if f.FirstLine != nil {
				ways++
				if f.parse == nil {
					t.Error("event-stream format without a reader")
				}
			}
			if len(f.JSONKeys) > 0 {
				ways++
				if f.readKey == nil {
					t.Error("JSON document format without a key reader")
				}
				for _, k := range f.JSONKeys {
					if got := byJSONKey(k); got == nil || got.Name != f.Name {
						t.Errorf("key %q is not found as %s", k, f.Name)
					}
				}
			}
			if ways != 1 {
				t.Errorf("told apart %d ways, want exactly one", ways)
			}
			if sampled[f.Name] == "" {
				t.Errorf("no sample under testdata/reports is read as %s", f.Name)
			}
		})
	}
	if len(names) != len(sampled) {
		t.Errorf("samples read as %v, formats registered %v", sampled, names)
	}
}
