package runners

import (
	"encoding/json"
	"strings"
)

type goEvent struct {
	Action      string
	Package     string
	Test        string
	Output      string
	FailedBuild string
}

func (p *goParser) feedJSON(l *line, ws string) bool {
	if l.cut || !strings.Contains(l.trim, `"Action"`) {
		return false
	}
	var ev goEvent
	if json.Unmarshal([]byte(l.trim), &ev) != nil || ev.Package == "" {
		return false
	}
	if p.pkgs == nil {
		p.pkgs = map[string]*goAcc{}
	}
	acc := p.pkgs[ev.Package]
	switch {
	case ev.Action == "output":
		if ev.Test == "" {
			return false
		}
		out := strings.TrimRight(ev.Output, "\n")
		if acc != nil && acc.race.reading() {
			acc.race.line([]byte(out))
			return false
		}
		if strings.HasPrefix(out, "WARNING: DATA RACE") {
			if acc == nil {
				acc = &goAcc{verbose: true}
				p.pkgs[ev.Package] = acc
			}
			acc.race.start()
			return false
		}
		if acc != nil && acc.panicAt.reading() && acc.panicAt.test == ev.Test {
			if file, ln, ok := acc.panicAt.line([]byte(out)); ok {
				acc.panicked(ev.Test, file, ln)
			}
		}
		if acc != nil && acc.example.reading() && acc.example.name == ev.Test {
			p.exampleLine(acc, []byte(out))
			return false
		}
		if strings.HasPrefix(out, "--- FAIL: Example") {
			if acc == nil {
				acc = &goAcc{verbose: true}
				p.pkgs[ev.Package] = acc
			}
			acc.example.start(ev.Test)
			return false
		}
		file, ln, msg, ok := parseGoFileLine(out)
		crash := strings.HasPrefix(out, "panic: ") || strings.HasPrefix(out, "fatal error: ")
		if (ok || crash) && acc == nil { // a test's output comes before any test of its package ends
			acc = &goAcc{verbose: true}
			p.pkgs[ev.Package] = acc
		}
		switch {
		case ok && msg == "": // its message on the next lines (testify, quicktest): see continuation
			acc.note([]byte(ev.Test), []byte(out))
		case ok:
			acc.decorate(ev.Test, file, ln, msg)
		case crash: // the test's message is the panic that ended it, as go test's plain output says
			acc.merge(ev.Test, decorNote{msg: out, strong: true})
			if strings.HasPrefix(out, "panic: test timed out after ") {
				acc.add("fail", ev.Test, l) // -timeout's panic: the test it ran in gets no fail event
				return true
			}
			acc.panicAt.start(ev.Test)
		case acc != nil && acc.recent.cont && string(acc.recent.owner) == ev.Test:
			acc.continuation([]byte(out))
		}
		return false
	case ev.Action != "pass" && ev.Action != "fail" && ev.Action != "skip":
		return false
	case ev.Test != "":
		if acc == nil {
			acc = &goAcc{}
			p.pkgs[ev.Package] = acc
		}
		if acc.example.reading() && acc.example.name == ev.Test {
			p.exampleLine(acc, []byte("--- "+ev.Action)) // its output ends with its event
		}
		acc.add(ev.Action, ev.Test, l)
		if ev.Action != "fail" {
			p.keep(acc, ev.Action == "skip", []byte(ev.Test))
		}
		acc.verbose = true
		return true
	}
	return p.closeJSON(l, ws, ev, acc)
}

func (p *goParser) closeJSON(l *line, ws string, ev goEvent, acc *goAcc) bool {
	if ev.Action == "skip" && acc == nil {
		return false // no test files
	}
	if acc == nil {
		acc = &goAcc{verbose: true}
	}
	why := "package failed without a failing test"
	if ev.FailedBuild != "" {
		why = "[build failed]"
	}
	p.atts = append(p.atts, acc.close(unitKey(ws, ev.Package), ev.Package, ev.Action == "fail", why, l))
	delete(p.pkgs, ev.Package)
	return true
}
