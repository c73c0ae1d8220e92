package evidence

import (
	"os"
	"strings"
	"testing"
)

// TestRecordAndDie: on real output (testdata/records, made by gen.sh), the
// line that says what failed, printed right above the evidence, is quoted
// with it at a budget far below the logs' size: a logging record above
// its traceback, in logging's three usual formats, and a prove file's die
// message above Test::More's note of its exit.
func TestRecordAndDie(t *testing.T) {
	tests := []struct {
		name    string
		streams []string // stored streams, in order
		want    [][]string
	}{
		{
			name:    "python logging",
			streams: []string{"python-logging.log"},
			// each group: lines that must be quoted in one piece
			want: [][]string{
				{"ERROR ingest: segment 60 could not be parsed\nTraceback (most recent call last):", "ValueError: invalid literal for int() with base 10: '12k'"},
				{"ERROR:root:cannot lock the ingest directory\nTraceback (most recent call last):", "FileNotFoundError: [Errno 2] No such file or directory: '/nonexistent/ingest.lock'"},
				{"2026-12-05 13:58:07,215 - ingest.checkpoint - CRITICAL - no checkpoint to resume from\nTraceback (most recent call last):", "KeyError: 'checkpoint'"},
				{"ERROR store: flush of /var/lib/ingest/seg-0060 failed"},
			},
		},
		{
			name:    "prove: a file that died",
			streams: []string{"prove-die.stdout.log", "prove-die.stderr.log"},
			want: [][]string{
				{"cannot open t/missing.conf: No such file or directory at t/config.t line 5.\n# Tests were run but no plan was declared", "# Looks like your test exited with 2 just after 2."},
				{"#   Failed test 'subtracts'", "#          got: '-3'"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var in []Input
			logs := map[string]string{}
			for _, name := range tt.streams {
				data, err := os.ReadFile("testdata/records/" + name)
				if err != nil {
					t.Fatal(err)
				}
				ra := strings.NewReader(string(data))
				res, err := Scan(ra, int64(len(data)), nil)
				if err != nil {
					t.Fatal(err)
				}
				logs[name] = string(data)
				in = append(in, Input{Stream: name, RA: ra, Res: res})
			}
			ps, err := Plan(in, Budget{Bytes: 2 << 10, Block: 1 << 10, Ended: true})
			if err != nil {
				t.Fatal(err)
			}
			var pieces []string
			for _, p := range ps {
				pieces = append(pieces, logs[p.Stream][p.Start:p.End])
			}
			for _, group := range tt.want {
				found := false
				for _, p := range pieces {
					if containsAll(p, group) {
						found = true
					}
				}
				if !found {
					t.Errorf("no piece holds %q; pieces:\n%s", group, strings.Join(pieces, "\n@@\n"))
				}
			}
		})
	}
}

func containsAll(s string, subs []string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}
