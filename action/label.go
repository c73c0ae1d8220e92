package action

import (
	"strings"
	"unicode/utf8"
)

// maxLabelWords bounds the command's words in a label, in characters.
const maxLabelWords = 50

// stepLabel is what a reader calls the step on the PR page: the name
// input, else the job and the command's words ("test · go test ./..."),
// never the runner's internal step id, which stays in the run's name
// (its identity) and the artifact's.
func stepLabel(in *inputs, job string) string {
	if in.name != "" {
		return in.name
	}
	words := labelWords(in.command, maxLabelWords)
	switch {
	case job == "":
		return words
	case words == "":
		return job
	}
	return job + " · " + words
}

// labelWords is the start of the command's first line, cut at a word
// boundary to about max characters, with "…" when words were left out.
// A quoted string counts as one word, so a cut never falls inside it.
func labelWords(command string, max int) string {
	lines := strings.Split(command, "\n")
	for k, line := range lines {
		words := shellWords(line)
		if len(words) == 0 {
			continue
		}
		if utf8.RuneCountInString(words[0]) > max {
			return cutRunes(words[0], max) + "…" // one long word: nothing to cut at
		}
		out := words[0]
		for _, w := range words[1:] {
			if utf8.RuneCountInString(out)+1+utf8.RuneCountInString(w) > max {
				return out + " …"
			}
			out += " " + w
		}
		if strings.TrimSpace(strings.Join(lines[k+1:], "")) != "" {
			out += " …" // later lines of a script
		}
		return out
	}
	return ""
}

// shellWords splits a line at blanks outside single and double quotes,
// keeping the quotes: the words as the command shows them.
func shellWords(line string) []string {
	var words []string
	var cur strings.Builder
	var quote rune
	for _, r := range line {
		switch {
		case quote != 0:
			cur.WriteRune(r)
			if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"':
			quote = r
			cur.WriteRune(r)
		case r == ' ' || r == '\t':
			if cur.Len() > 0 {
				words = append(words, cur.String())
				cur.Reset()
			}
		default:
			cur.WriteRune(r)
		}
	}
	if cur.Len() > 0 {
		words = append(words, cur.String())
	}
	return words
}

func cutRunes(s string, n int) string {
	i := 0
	for k := 0; k < n && i < len(s); k++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i]
}
