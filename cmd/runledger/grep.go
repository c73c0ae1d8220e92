package main

import (
	"context"
	"fmt"
	"io"
	"regexp"

	"github.com/runledger/runledger/logread"
)

type grepOptions struct {
	source  logSource
	run     string
	pattern string
	max     int
	context int
}

func parseGrepFlags(args []string, getenv func(string) string, stderr io.Writer) (*grepOptions, error) {
	o := &grepOptions{}
	fs := newFlagSet("grep", "[flags] RUN REGEX", stderr)
	o.source.flags(fs, getenv)
	fs.IntVar(&o.max, "max", 50, "stop after `N` matching lines")
	fs.IntVar(&o.context, "context", 0, "print `N` lines of context around each match")
	if err := parse(fs, interleaved(fs, args)); err != nil {
		return nil, err
	}
	if fs.NArg() != 2 {
		return nil, &usageError{"want RUN and REGEX"}
	}
	o.run, o.pattern = fs.Arg(0), fs.Arg(1)
	if o.max < 1 || o.context < 0 || o.context > 100 {
		return nil, &usageError{fmt.Sprintf("--max %d --context %d: want max >= 1 and context 0 to 100", o.max, o.context)}
	}
	return o, o.source.check()
}

// cmdGrep prints matches as "line:start-end: text" (context lines with
// "-" separators, as grep does), offsets in the original stream. Exit 1
// when nothing matched, like grep.
func cmdGrep(a *app, args []string) error {
	o, err := parseGrepFlags(args, a.getenv, a.stderr)
	if err != nil {
		return err
	}
	re, err := regexp.Compile(o.pattern)
	if err != nil {
		return &usageError{fmt.Sprintf("REGEX %q: %v", o.pattern, err)}
	}
	l, closeLog, err := a.openSourceLog(context.Background(), &o.source, o.run)
	if err != nil {
		return err
	}
	defer closeLog()
	matches, more, err := l.Grep(re, o.max, o.context)
	if err != nil {
		return err
	}
	for _, m := range matches {
		printGrep(a.stdout, m)
	}
	if more {
		fmt.Fprintf(a.stdout, "[more matches left out: raise --max above %d]\n", o.max)
	}
	if len(matches) == 0 {
		return &exitError{1}
	}
	return nil
}

func printGrep(w io.Writer, m logread.Match) {
	for _, ln := range m.Lines() {
		sep := "-"
		if ln.Number == m.Line.Number {
			sep = ":"
		}
		cut := ""
		if ln.Cut {
			cut = fmt.Sprintf(" …[line continues to byte %d]", ln.End)
		}
		fmt.Fprintf(w, "%d%s%d-%d%s %s%s\n", ln.Number, sep, ln.Start, ln.End, sep, ln.Text, cut)
	}
	fmt.Fprintln(w, "--")
}
