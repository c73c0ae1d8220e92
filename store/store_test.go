package store

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/runledger/runledger/record"
)

func begin(t *testing.T, st *Store, name string) *record.Record {
	t.Helper()
	_, r, err := st.Begin(name, func(id string, n int) *record.Record {
		return &record.Record{Schema: record.Schema, ID: id, Name: name, Attempt: n,
			StartedAt: time.Now().UTC(), Status: record.StatusFailed}
	})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestFind(t *testing.T) {
	st, _ := Open(t.TempDir())
	a1, b1, a2 := begin(t, st, "unit"), begin(t, st, "lint"), begin(t, st, "unit")
	tests := []struct {
		ref, want, err string
	}{
		{a1.ID, a1.ID, ""},
		{b1.ID[:len(b1.ID)-2], b1.ID, ""},
		{"unit", a2.ID, ""},
		{"lint", b1.ID, ""},
		{"2", "", "ambiguous"},
		{"nothing", "", "no run with that id or name"},
	}
	for _, tc := range tests {
		r, dir, err := st.Find(tc.ref)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Find(%q): %v, want %q", tc.ref, err, tc.err)
			}
			continue
		}
		if err != nil || r.ID != tc.want || dir != filepath.Join(st.Dir, tc.want) {
			t.Errorf("Find(%q) = %v %s %v, want %s", tc.ref, r, dir, err, tc.want)
		}
	}
	if a2.Attempt != 2 || b1.Attempt != 1 {
		t.Errorf("attempts: unit %d, lint %d", a2.Attempt, b1.Attempt)
	}
}

func TestRunDirConfined(t *testing.T) {
	st, _ := Open(t.TempDir())
	for _, bad := range []string{"", "..", "../x", "a/b", ".lock", "/etc"} {
		if _, err := st.RunDir(bad); err == nil {
			t.Errorf("RunDir(%q) accepted", bad)
		}
	}
}

func TestListReportsUnreadable(t *testing.T) {
	st, _ := Open(t.TempDir())
	begin(t, st, "ok")
	os.Mkdir(filepath.Join(st.Dir, "broken"), 0o755)
	os.WriteFile(filepath.Join(st.Dir, "broken", record.FileName), []byte(`{"schema":"other"}`), 0o644)
	recs, problems, err := st.List()
	if err != nil || len(recs) != 1 || len(problems) != 1 || !strings.Contains(problems[0].Error(), "broken") {
		t.Fatalf("recs %d problems %v err %v", len(recs), problems, err)
	}
}

// TestListRefusesForeignID: a record whose id is not its directory's name
// ("../outside") is a problem, never a run whose paths lead out of the store.
func TestListRefusesForeignID(t *testing.T) {
	st, _ := Open(t.TempDir())
	r := *begin(t, st, "unit")
	r.ID, r.Attempt = "../outside", 9 // a later attempt: Find would pick it
	data, _ := json.Marshal(r)
	os.Mkdir(filepath.Join(st.Dir, "moved"), 0o755)
	os.WriteFile(filepath.Join(st.Dir, "moved", record.FileName), data, 0o644)
	recs, problems, err := st.List()
	if err != nil || len(recs) != 1 || len(problems) != 1 || !strings.Contains(problems[0].Error(), `id "../outside"`) {
		t.Fatalf("recs %d problems %v err %v", len(recs), problems, err)
	}
	if _, dir, err := st.Find("unit"); err != nil || filepath.Dir(dir) != st.Dir {
		t.Errorf("Find(unit) = %s, %v; want the run inside the store", dir, err)
	}
}

func TestEffective(t *testing.T) {
	host, _ := os.Hostname()
	self := record.Wrapper{PID: os.Getpid(), Host: host, BootID: BootID(), ProcStart: ProcStart(os.Getpid())}
	tests := []struct {
		name string
		w    func(record.Wrapper) record.Wrapper
		want record.Status
	}{
		{"live wrapper", func(w record.Wrapper) record.Wrapper { return w }, record.StatusRunning},
		{"dead pid", func(w record.Wrapper) record.Wrapper { w.PID = 1 << 30; return w }, record.StatusIncomplete},
		{"pid reused", func(w record.Wrapper) record.Wrapper { w.ProcStart = "1"; return w }, record.StatusIncomplete},
		{"other boot", func(w record.Wrapper) record.Wrapper { w.BootID = "x"; return w }, record.StatusIncomplete},
		{"other host", func(w record.Wrapper) record.Wrapper { w.Host = "elsewhere"; return w }, record.StatusIncomplete},
	}
	for _, tc := range tests {
		r := &record.Record{Status: record.StatusRunning, Wrapper: tc.w(self)}
		if got := Effective(r); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
	if Effective(&record.Record{Status: record.StatusFailed}) != record.StatusFailed {
		t.Error("a finished record's status must be kept")
	}
}
