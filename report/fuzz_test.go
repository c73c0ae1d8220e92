package report

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/runledger/runledger/record"
	"github.com/runledger/runledger/store"
)

// FuzzRecordVerdict feeds arbitrary record.json bytes to the report: a
// record that decodes, however odd, never yields "passed" unless it is a
// pass by the record's own definition.
func FuzzRecordVerdict(f *testing.F) {
	f.Add([]byte(`{"schema":"runledger.run/v1","id":"x","name":"n","attempt":1,"status":"passed","exit_code":0,"termination":"exited","streams":{}}`))
	f.Add([]byte(`{"schema":"runledger.run/v1","id":"x","name":"n","attempt":1,"status":"passed","exit_code":1,"termination":"exited"}`))
	f.Add([]byte(`{"schema":"runledger.run/v1","status":"timed_out","exit_code":0,"timed_out":true}`))
	f.Add([]byte(`{"schema":"runledger.run/v1","status":"running","wrapper":{"pid":1}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		run := filepath.Join(dir, "20260101T000000000Z-00000000")
		os.Mkdir(run, 0o755)
		os.WriteFile(filepath.Join(run, record.FileName), data, 0o644)
		for _, name := range record.StreamNames {
			os.WriteFile(filepath.Join(run, name+".log"), nil, 0o644)
		}
		env, err := Build(&store.Store{Dir: dir}, Options{})
		if err != nil {
			return
		}
		if env.Status != "passed" {
			return
		}
		r, err := record.Read(run)
		if err != nil || !r.Passed() {
			t.Fatalf("status passed for a record that did not pass: %s", data)
		}
	})
}
