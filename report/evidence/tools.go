package evidence

import "bytes"

// toolError reports the error lines build tools print that start with
// neither an error word nor a `file:L:C: ` location, the first word of
// the line telling them apart cheaply:
//
//	collect2: error: ld returned 1 exit status      a program's own error
//	make[2]: *** [Makefile:12: app] Error 1         make's
//	src/app.ts(12,5): error TS2322: Type …          tsc
//	src/app.ts:12:5 - error TS2322: Type …          tsc --pretty
//	  12:5  error  'x' is not defined  no-undef     eslint's stylish
//	npm ERR! code ELIFECYCLE / npm error …           npm
//	E: Unable to locate package foo                 apt
//	CMake Error at CMakeLists.txt:12 (project):     cmake
//	##[error]… / ::error file=…::…                  GitHub Actions' own
//	│ Error: Invalid value                           terraform's box
//	* What went wrong:                              gradle
//	bash: line 1: foo: command not found            a shell's
func toolError(t []byte) bool {
	sp := bytes.IndexByte(t, ' ')
	if sp <= 0 || sp == len(t)-1 {
		return false
	}
	tok, rest := t[:sp], t[sp+1:]
	switch last := tok[len(tok)-1]; {
	case last == ':':
		return programError(tok, rest, t)
	case tok[0] == '#' || tok[0] == ':':
		return hasPrefix(t, "##[error]") || hasPrefix(t, "::error ") || hasPrefix(t, "::error::")
	case last >= '0' && last <= '9':
		// tsc --pretty's `file:L:C - error`, eslint's `L:C  error`
		return bytes.IndexByte(tok, ':') > 0 && (hasPrefix(rest, "- error") || eslintError(tok, rest))
	}
	switch string(tok) {
	case "npm":
		return hasPrefix(rest, "ERR!") || word(rest, "error")
	case "CMake":
		return hasPrefix(rest, "Error")
	case "│", "|":
		return word(rest, "Error")
	case "*":
		return hasPrefix(rest, "What went wrong:")
	}
	return false
}

// programError reads a line whose first word ends with a colon: `prog:`
// (collect2, ld, clang, make[2], E) or tsc's `file.ts(12,5):`.
func programError(tok, rest, t []byte) bool {
	if bytes.HasSuffix(tok, []byte("):")) && bytes.IndexByte(tok, '(') > 0 {
		return hasPrefix(rest, "error TS") || hasPrefix(rest, "error ")
	}
	if bytes.IndexByte(tok[:len(tok)-1], ':') >= 0 {
		return false // a location or a URL, not a program's name
	}
	if string(tok) == "E:" {
		return true // apt's errors
	}
	if hasPrefix(rest, "error:") || hasPrefix(rest, "fatal error:") || hasPrefix(rest, "ERROR:") || hasPrefix(rest, "*** ") {
		return true
	}
	return bytes.HasSuffix(t, []byte(": command not found")) || bytes.HasSuffix(t, []byte(": not found"))
}

// eslintError: eslint's stylish `12:5  error  message  rule`, its
// location alone in the first word and its columns two blanks apart (a
// time such as `12:30 error-free run` is not one).
func eslintError(tok, rest []byte) bool {
	for _, c := range tok {
		if (c < '0' || c > '9') && c != ':' {
			return false
		}
	}
	return hasPrefix(rest, " ") && hasPrefix(bytes.TrimLeft(rest, " "), "error  ")
}
