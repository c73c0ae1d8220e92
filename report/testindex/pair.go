package testindex

// Pair matches the tests of a with those of b by the rules a comparison
// uses (the same key; else the same key but for the file; else the same
// loose key, each only when it is the one candidate) and returns, for
// each entry of a, the index of its test in b, or -1. Units are not
// paired: their keys are exact. Both are sorted first.
func Pair(a, b *Index) []int32 { return pairUp(a, b).ab }

// EscapeField writes a field as the index's lines hold it: backslash,
// tab, newline and carriage return as \\, \t, \n and \r.
func EscapeField(s string) string { return escape(s) }

// UnescapeField reads a field EscapeField wrote.
func UnescapeField(s string) (string, error) { return unescape(s) }

// CompareKeys orders keys as the index's entries are sorted.
func CompareKeys(a, b Key) int { return compareKeys(a, b) }

// SortIfNeeded sorts x's entries as the file holds them, unless they are.
func SortIfNeeded(x *Index) { sortIfNeeded(x) }
