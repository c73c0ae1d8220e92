package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/runledger/runledger/baseline"
	"github.com/runledger/runledger/capture"
	"github.com/runledger/runledger/report"
	"github.com/runledger/runledger/report/history"
	"github.com/runledger/runledger/report/render"
	"github.com/runledger/runledger/store"
)

type reportOptions struct {
	dir      string
	format   string
	maxBytes int
	reports  []string
	names    []string
	baseline string
	history  int
}

// addReportFlags are shared by `report` and `run --report`.
func addReportFlags(fs *flag.FlagSet, o *reportOptions) {
	fs.StringVar(&o.format, "format", "", "report `format`: text, markdown or json (default: text on a terminal, else markdown)")
	fs.IntVar(&o.maxBytes, "max-bytes", render.TerminalBudget, fmt.Sprintf("bound on the Markdown body in `bytes` (at most %d)", render.MaxBudget))
	fs.StringVar(&o.baseline, "baseline", "", "compare each run's failures with the runs of the same names in this run store, report envelope or test index (`path`)")
	fs.IntVar(&o.history, "history", history.DefaultWindow, "with --baseline: carry the baseline's history forward, keeping this many `runs`, and judge failures by it (0: off)")
}

func (o *reportOptions) validate() error {
	switch o.format {
	case "", "text", "markdown", "json":
	default:
		return &usageError{fmt.Sprintf("--format %q: want text, markdown or json", o.format)}
	}
	if o.history < 0 {
		return &usageError{fmt.Sprintf("--history %d: want 0 (off) or more runs", o.history)}
	}
	if o.maxBytes <= 0 || o.maxBytes > render.MaxBudget {
		return &usageError{fmt.Sprintf("--max-bytes %d: want 1 to %d", o.maxBytes, render.MaxBudget)}
	}
	return nil
}

func parseReportFlags(args []string, getenv func(string) string, stderr io.Writer) (*reportOptions, error) {
	o := &reportOptions{}
	fs := newFlagSet("report", "[flags]", stderr)
	fs.StringVar(&o.dir, "dir", storeDir(getenv), "run store `directory` (env RUNLEDGER_DIR)")
	fs.Var((*repeated)(&o.reports), "reports", "extra test report `glob`, any format run --reports reads (repeatable; --junit is an alias); such files never verify a count")
	fs.Var((*repeated)(&o.reports), "junit", "alias of --reports: an extra test report `glob`")
	fs.Var((*repeated)(&o.names), "name", "report only this run `name` (repeatable)")
	addReportFlags(fs, o)
	if err := parse(fs, args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, &usageError{fmt.Sprintf("unexpected argument %q", fs.Arg(0))}
	}
	return o, o.validate()
}

func cmdReport(a *app, args []string) error {
	o, err := parseReportFlags(args, a.getenv, a.stderr)
	if err != nil {
		return err
	}
	return a.report(o)
}

// report renders the store; its exit status says whether it rendered, not
// whether the runs passed: that is in the report.
func (a *app) report(o *reportOptions) error {
	st, err := store.Open(o.dir)
	if err != nil {
		return err
	}
	var reports []string
	for _, pat := range o.reports {
		m, err := capture.Glob(".", pat)
		if err != nil {
			return &usageError{fmt.Sprintf("--reports %q: %v", pat, err)}
		}
		if len(m) == 0 {
			fmt.Fprintf(a.stderr, "runledger report: --reports %q matched no file\n", pat)
		}
		reports = append(reports, m...)
	}
	opts := report.Options{Names: o.names, Reports: reports, History: o.history}
	if o.baseline != "" {
		opts.Baseline = baseline.Local(o.baseline)
		if opts.Baseline.Reason != "" {
			fmt.Fprintf(a.stderr, "runledger report: no baseline to compare with: %s\n", opts.Baseline.Reason)
		}
	}
	env, err := report.Build(st, opts)
	if err != nil {
		return err
	}
	for _, err := range report.SaveIndexes(st, env) {
		fmt.Fprintf(a.stderr, "runledger report: %v\n", err)
	}
	return a.render(env, o)
}

func (a *app) render(env *report.Envelope, o *reportOptions) error {
	tty := isTerminal(a.stdout)
	format := o.format
	if format == "" {
		format = "markdown" // for scripts and agents
		if tty {
			format = "text"
		}
	}
	var body string
	var err error
	switch format {
	case "json":
		enc := json.NewEncoder(a.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(env)
	case "text":
		body, err = render.Text(env, render.TextOptions{Budget: o.maxBytes, Color: useColor(tty, a.getenv)})
	default:
		body, err = render.Markdown(env, render.Options{Budget: o.maxBytes})
	}
	if err != nil {
		return err
	}
	_, err = io.WriteString(a.stdout, body)
	return err
}

// isTerminal reports whether w is a terminal (a character device).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// useColor: colour only on a terminal, and never when NO_COLOR is set to
// anything but the empty string (no-color.org).
func useColor(tty bool, getenv func(string) string) bool {
	return tty && getenv("NO_COLOR") == ""
}

// flagSetObserver is a stderr that wants each command's flag set: the
// docs' generator (docs_test.go) runs every command with -h and reads the
// flags it defined, so the docs' flag tables are the code's.
type flagSetObserver interface{ observeFlagSet(*flag.FlagSet) }

func newFlagSet(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: runledger %s %s\n", name, synopsis)
		fs.PrintDefaults()
	}
	if o, ok := stderr.(flagSetObserver); ok {
		o.observeFlagSet(fs)
	}
	return fs
}

func parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return errHelp
		}
		return &usageError{err.Error()}
	}
	return nil
}
