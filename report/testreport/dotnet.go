package testreport

import (
	"strconv"
	"strings"
)

// caseReader is the common shape of the .NET readers: one test element
// at a time, its failure message from a nested <message> or <Message>.
type caseReader struct {
	sink *fileSink
	cur  *caseResult
	msg  textBuf
	// trace collects the stack trace, only to find a file and line.
	trace textBuf
}

func (c *caseReader) text(b []byte) {
	c.msg.add(b)
	c.trace.add(b)
}

// endText closes a <message> or <stack-trace> element of the current test.
func (c *caseReader) endText(name string) {
	if c.cur == nil {
		return
	}
	switch strings.ToLower(name) {
	case "message":
		if m := c.msg.take(); c.cur.Message == "" {
			c.cur.Message = m
		}
	case "stack-trace", "stacktrace":
		file, line := traceLocation(c.trace.take())
		if c.cur.SrcFile == "" && c.cur.Line == 0 {
			c.cur.SrcFile, c.cur.Line = file, line
		}
	}
}

// startText opens a <message> or <stack-trace> element of the current test.
func (c *caseReader) startText(name string) {
	if c.cur == nil {
		return
	}
	switch strings.ToLower(name) {
	case "message":
		c.msg.take()
		c.msg.on = true
	case "stack-trace", "stacktrace":
		c.trace.take()
		c.trace.on = true
	}
}

// traceLocation finds the first " in FILE:line N" of a .NET stack trace.
func traceLocation(trace string) (string, int) {
	i := strings.Index(trace, " in ")
	if i < 0 {
		return "", 0
	}
	rest := trace[i+4:]
	j := strings.Index(rest, ":line ")
	if j < 0 {
		return "", 0
	}
	num := rest[j+6:]
	k := 0
	for k < len(num) && num[k] >= '0' && num[k] <= '9' {
		k++
	}
	n, _ := strconv.Atoi(num[:k])
	return rest[:j], n
}
