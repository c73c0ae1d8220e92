// Package mcptools serves the run store to coding agents over the Model
// Context Protocol: run a command through capture, read the report, and
// read cited byte ranges back, verified. Every result keeps runledger's
// promise in a context window: status first, a focused excerpt, pointers
// for the rest, and never more than a fixed number of bytes, with a marker
// naming what was left out and the call that fetches it.
package mcptools

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/runledger/runledger/report/render"
	"github.com/runledger/runledger/store"
)

// DefaultMaxResultBytes bounds a tool result unless Options say otherwise.
const DefaultMaxResultBytes = render.AgentBudget

// MinResultBytes is the least bound that still holds a status and its
// pointers; a smaller bound could only be met by dropping the status.
const MinResultBytes = 1 << 10

// Options configure the server.
type Options struct {
	// StoreDir is the run store (".runledger" by default).
	StoreDir string
	// CompactStore is where `runledger compact` kept collapsed texts, for
	// the expand tool; "" means StoreDir/.cg, compact's default.
	CompactStore string
	// WorkDir confines the run tool's dir argument; "" is the process's
	// working directory.
	WorkDir string
	// AllowRun registers the run tool, which executes commands.
	AllowRun bool
	// MaxResultBytes bounds each result: its text rendering plus its
	// structured content (JSON). 0 means DefaultMaxResultBytes.
	MaxResultBytes int
	// Getenv reads GITHUB_TOKEN, GH_TOKEN and GITHUB_API_URL for artifact
	// reads, and the CI context for runs. nil means os.Getenv.
	Getenv func(string) string
	// HTTPClient reads artifacts; nil means http.DefaultClient.
	HTTPClient *http.Client
	// Version is reported to clients and stamped into run records.
	Version string
}

// tools holds what every handler needs, resolved once.
type tools struct {
	opts    Options
	store   *store.Store
	workDir string // absolute, symlinks resolved
	budget  int
}

// NewServer returns an MCP server with runledger's tools registered; run it
// with (*mcp.Server).Run on a transport.
func NewServer(o Options) (*mcp.Server, error) {
	t, err := newTools(o)
	if err != nil {
		return nil, err
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "runledger", Version: o.Version},
		&mcp.ServerOptions{Instructions: instructions})
	if o.AllowRun {
		mcp.AddTool(s, &mcp.Tool{Name: "run", Description: runDescription}, t.run)
	}
	mcp.AddTool(s, &mcp.Tool{Name: "report", Description: reportDescription}, t.report)
	mcp.AddTool(s, &mcp.Tool{Name: "show", Description: showDescription}, t.show)
	mcp.AddTool(s, &mcp.Tool{Name: "grep", Description: grepDescription}, t.grep)
	mcp.AddTool(s, &mcp.Tool{Name: "expand", Description: expandDescription}, t.expand)
	return s, nil
}

func newTools(o Options) (*tools, error) {
	if o.MaxResultBytes == 0 {
		o.MaxResultBytes = DefaultMaxResultBytes
	}
	if o.MaxResultBytes < MinResultBytes {
		return nil, fmt.Errorf("max result bytes %d: want at least %d", o.MaxResultBytes, MinResultBytes)
	}
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.StoreDir == "" {
		o.StoreDir = store.DefaultDir
	}
	st, err := store.Open(o.StoreDir)
	if err != nil {
		return nil, err
	}
	wd, err := workDir(o.WorkDir)
	if err != nil {
		return nil, err
	}
	return &tools{opts: o, store: st, workDir: wd, budget: o.MaxResultBytes}, nil
}

func workDir(dir string) (string, error) {
	if dir == "" {
		var err error
		if dir, err = os.Getwd(); err != nil {
			return "", fmt.Errorf("working directory: %w", err)
		}
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("working directory %s: %w", dir, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", fmt.Errorf("working directory %s: %w", dir, err)
	}
	return real, nil
}

const instructions = `runledger records test and build runs and reports them honestly.
Read "status" first: only "passed" is a success. Excerpts cite byte ranges
and sha256 hashes of the raw log; fetch more with show (range "A:B", B
exclusive) or grep. Results are bounded; a marker "…[… left out: call …]"
names the call that fetches what was left out.`

const runDescription = `Run a command (sh -c COMMAND, or ARGV) in the project, record it in the run store, and return its report entry: status, exit code or timeout, termination, truncation, test summary with provenance, and excerpts with byte ranges and hashes.`

const reportDescription = `The runledger.report/v1 envelope for the run store: overall status, the latest attempt of each run name, earlier attempts collapsed to a pointer and a <<cg:HASH>> marker.`

const showDescription = `A byte range (original stream offsets, B exclusive) or line range of a run's stdout, stderr or output, hash-checked against the run record. Reads the local store, or a GitHub Actions artifact when repo and artifact_id are given.`

const grepDescription = `Search a run's log with a regular expression (Go RE2 syntax); matching lines with line numbers and byte offsets. Reads the local store, or a GitHub Actions artifact when repo and artifact_id are given.`

const expandDescription = `The original text behind a <<cg:HASH>> marker (a superseded run's output, or text runledger compact collapsed), verified against its hash.`
