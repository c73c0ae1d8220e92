package main

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/runledger/runledger/logread"
	"github.com/runledger/runledger/store"
)

type showOptions struct {
	dir    string
	run    string
	stream string
	rng    string // "A:B" original byte offsets
	lines  string // "A:B" 1-based, inclusive, lines of the stored file
}

func parseShowFlags(args []string, getenv func(string) string, stderr io.Writer) (*showOptions, error) {
	o := &showOptions{}
	fs := newFlagSet("show", "[flags] RUN   (RUN: a run id, a unique id prefix, or a run name for its latest attempt)", stderr)
	fs.StringVar(&o.dir, "dir", storeDir(getenv), "run store `directory` (env RUNLEDGER_DIR)")
	fs.StringVar(&o.stream, "stream", "output", "`stream`: stdout, stderr or output")
	fs.StringVar(&o.rng, "range", "", "byte range `A:B` in original stream offsets, B exclusive")
	fs.StringVar(&o.lines, "lines", "", "line range `A:B`, 1-based and inclusive")
	if err := parse(fs, interleaved(fs, args)); err != nil {
		return nil, err
	}
	if fs.NArg() != 1 {
		return nil, &usageError{"want exactly one RUN argument"}
	}
	o.run = fs.Arg(0)
	if o.rng != "" && o.lines != "" {
		return nil, &usageError{"--range and --lines exclude each other"}
	}
	return o, nil
}

func cmdShow(a *app, args []string) error {
	o, err := parseShowFlags(args, a.getenv, a.stderr)
	if err != nil {
		return err
	}
	l, err := openLog(o.dir, o.run, o.stream)
	if err != nil {
		return err
	}
	defer l.Close()
	switch {
	case o.rng != "":
		start, end, err := parseSpan("--range", o.rng)
		if err != nil {
			return err
		}
		return l.CopyRange(a.stdout, start, end)
	case o.lines != "":
		first, last, err := parseSpan("--lines", o.lines)
		if err != nil {
			return err
		}
		return l.CopyLines(a.stdout, first, last)
	}
	return l.CopyRange(a.stdout, 0, l.Stream.Bytes)
}

// openLog finds a run's stream and checks the stored file against the
// record's hash before anything is read from it.
func openLog(dir, ref, stream string) (*logread.Log, error) {
	st, err := store.Open(dir)
	if err != nil {
		return nil, err
	}
	rec, runDir, err := st.Find(ref)
	if err != nil {
		return nil, err
	}
	return logread.Open(runDir, rec, stream)
}

// parseSpan reads "A:B" with A <= B, both non-negative.
func parseSpan(flagName, s string) (int64, int64, error) {
	a, b, ok := strings.Cut(s, ":")
	start, err1 := strconv.ParseInt(a, 10, 64)
	end, err2 := strconv.ParseInt(b, 10, 64)
	if !ok || err1 != nil || err2 != nil || start < 0 || end < start {
		return 0, 0, &usageError{fmt.Sprintf("%s %q: want A:B with 0 <= A <= B", flagName, s)}
	}
	return start, end, nil
}

// interleaved moves the positional arguments after the flags, so that
// `runledger show RUN --range 0:10` works: the flag package stops at the
// first positional argument.
func interleaved(fs *flag.FlagSet, args []string) []string {
	var flags, pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			pos = append(pos, args[i+1:]...)
			return append(append(flags, "--"), pos...)
		case strings.HasPrefix(a, "-") && a != "-":
			flags = append(flags, a)
			name := strings.TrimLeft(a, "-")
			if f := fs.Lookup(name); f != nil && !strings.Contains(name, "=") && !isBool(f) && i+1 < len(args) {
				i++
				flags = append(flags, args[i])
			}
		default:
			pos = append(pos, a)
		}
	}
	return append(append(flags, "--"), pos...)
}

func isBool(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}
