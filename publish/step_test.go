package publish

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/runledger/runledger/report"
	"github.com/sethvargo/go-githubactions"
)

func envOf(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestWriteSummary(t *testing.T) {
	status := "## runledger: **failed** (exit code 1)\n"
	tests := []struct {
		name     string
		existing int
		markdown string
		wantCut  bool
	}{
		{"fits", 0, status + "details\n", false},
		{"appends to what the step wrote", 1000, status + "details\n", false},
		{"cut at a line with a note", MaxSummaryBytes - 4096, status + strings.Repeat("line of log é\n", 2000), true},
		{"larger than the cap alone", 0, status + strings.Repeat("x\n", MaxSummaryBytes), true},
		{"no room left", MaxSummaryBytes - 10, status, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "summary.md")
			if err := os.WriteFile(path, bytes.Repeat([]byte("p"), tt.existing), 0o644); err != nil {
				t.Fatal(err)
			}
			s := NewStep(&bytes.Buffer{}, envOf(map[string]string{"GITHUB_STEP_SUMMARY": path}))
			cut, err := s.WriteSummary(tt.markdown)
			if err != nil || cut != tt.wantCut {
				t.Fatalf("WriteSummary = %v, %v; want cut %v", cut, err, tt.wantCut)
			}
			got := readFile(t, path)
			if len(got) > MaxSummaryBytes {
				t.Fatalf("summary is %d bytes, over GitHub's %d", len(got), MaxSummaryBytes)
			}
			added := got[tt.existing:]
			if !utf8.ValidString(added) {
				t.Errorf("cut inside a character")
			}
			switch {
			case !tt.wantCut && added != tt.markdown+githubactions.EOF:
				t.Errorf("summary not appended whole")
			case tt.wantCut && added == "" && tt.name != "no room left":
				t.Errorf("nothing appended, though there was room")
			case tt.wantCut && added != "" && (!strings.HasPrefix(added, status) || !strings.Contains(added, "1 MiB job-summary limit")):
				t.Errorf("cut summary lost its status or its note:\n%.200s", added)
			}
		})
	}
	s := NewStep(&bytes.Buffer{}, envOf(nil))
	if _, err := s.WriteSummary("x"); err == nil {
		t.Error("no error without GITHUB_STEP_SUMMARY")
	}
}

func TestWriteOutputs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "output")
	s := NewStep(&bytes.Buffer{}, envOf(map[string]string{"GITHUB_OUTPUT": path}))
	err := s.WriteOutputs(Outputs{Status: "timed_out", TimedOut: true, ReportJSON: ".runledger/report.json",
		CommentURL: "https://ghes.example/o/r/pull/2#issuecomment-1", ArtifactID: "42", ArtifactURL: "https://ghes.example/o/r/actions/runs/1/artifacts/42"})
	if err != nil {
		t.Fatal(err)
	}
	got := parseOutputFile(t, readFile(t, path))
	want := map[string]string{"status": "timed_out", "exit-code": "", "timed-out": "true", "report-json": ".runledger/report.json",
		"comment-url": "https://ghes.example/o/r/pull/2#issuecomment-1", "artifact-id": "42", "artifact-url": "https://ghes.example/o/r/actions/runs/1/artifacts/42", "regressions": ""}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("outputs %v\nwant    %v", got, want)
	}
	one := 1
	if err := s.WriteOutputs(Outputs{Status: "failed", ExitCode: &one}); err != nil {
		t.Fatal(err)
	}
	if got := parseOutputFile(t, readFile(t, path)); got["exit-code"] != "1" || got["status"] != "failed" {
		t.Errorf("second write: %v", got)
	}
	forged := "x\n" + outputDelimiter + "\nstatus<<EOF\npassed\nEOF"
	if err := s.WriteOutputs(Outputs{Status: "failed", ReportJSON: forged}); err == nil {
		t.Error("a value holding the delimiter was written")
	}
	if err := NewStep(&bytes.Buffer{}, envOf(nil)).WriteOutputs(Outputs{}); err == nil {
		t.Error("no error without GITHUB_OUTPUT")
	}
}

// parseOutputFile reads the runner's name<<DELIM heredoc format; later
// values win, as on the runner.
func parseOutputFile(t *testing.T, s string) map[string]string {
	t.Helper()
	out := map[string]string{}
	// The runner reads either line break; go-githubactions writes \r\n on Windows.
	lines := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		if lines[i] == "" {
			continue
		}
		name, delim, ok := strings.Cut(lines[i], "<<")
		if !ok {
			t.Fatalf("line %q is not name<<delimiter", lines[i])
		}
		var val []string
		for i++; i < len(lines) && lines[i] != delim; i++ {
			val = append(val, lines[i])
		}
		out[name] = strings.Join(val, "\n")
	}
	return out
}

func TestAnnotate(t *testing.T) {
	var fails []report.Failure
	for i := range 12 {
		fails = append(fails, report.Failure{Name: fmt.Sprintf("Test%d", i), File: "a_test.go", Line: i + 1, Message: "boom"})
	}
	fails[0] = report.Failure{Name: "Test, odd: name", Classname: "pkg", File: "dir,1/we:ird%.go", Line: 7,
		Message: strings.Repeat("é", 3000)} // 6000 bytes
	fails[1] = report.Failure{Name: "TestNoFile"}
	var out bytes.Buffer
	omitted := NewStep(&out, envOf(nil)).Annotate(fails)
	if omitted != 2 {
		t.Errorf("omitted %d, want 2", omitted)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), githubactions.EOF), githubactions.EOF)
	if len(lines) != MaxErrorAnnotations {
		t.Fatalf("%d annotations, want %d", len(lines), MaxErrorAnnotations)
	}
	wantProps := "::error file=dir%2C1/we%3Aird%25.go,line=7,title=pkg.Test%2C odd%3A name::"
	if !strings.HasPrefix(lines[0], wantProps) {
		t.Errorf("properties not escaped:\n%s\nwant prefix %s", lines[0][:120], wantProps)
	}
	if msg := strings.TrimPrefix(lines[0], wantProps); len(msg) > MaxAnnotationMessage || !utf8.ValidString(msg) || len(msg) < MaxAnnotationMessage-1 {
		t.Errorf("message is %d bytes, want cut at %d on a character boundary", len(msg), MaxAnnotationMessage)
	}
	if lines[1] != "::error title=TestNoFile::test failed" {
		t.Errorf("failure without file: %q", lines[1])
	}
}

func TestMask(t *testing.T) {
	var out bytes.Buffer
	s := NewStep(&out, envOf(nil))
	s.Mask(tokInstallation)
	s.Mask("")
	if out.String() != "::add-mask::"+tokInstallation+githubactions.EOF {
		t.Errorf("mask output %q", out.String())
	}
}

// Workflow-command properties escape % \r \n : and , (go-githubactions does
// it; this pins it), and the message keeps a '%' intact.
func ExampleStep_Annotate() {
	s := NewStep(os.Stdout, func(string) string { return "" })
	omitted := s.Annotate([]report.Failure{{
		Name: "TestParse/a:b,c", Classname: "pkg", File: "parse_test.go", Line: 42,
		Message: "want 100%\ngot 0",
	}})
	fmt.Println("omitted:", omitted)
	// Output:
	// ::error file=parse_test.go,line=42,title=pkg.TestParse/a%3Ab%2Cc::want 100%25%0Agot 0
	// omitted: 0
}

// TestWarningStaysOneCommand: a message with line breaks or % cannot end
// the command early or start another.
func TestWarningStaysOneCommand(t *testing.T) {
	var out bytes.Buffer
	s := NewStep(&out, envOf(nil))
	s.Warning("upload failed:\n::error::forged 100%")
	s.Error("two\r\nlines")
	want := "::warning::upload failed:%0A::error::forged 100%25" + githubactions.EOF + "::error::two%0D%0Alines" + githubactions.EOF
	if out.String() != want {
		t.Errorf("got %q, want %q", out.String(), want)
	}
}
