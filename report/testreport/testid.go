package testreport

// TestID is what makes a test one test across the report files of a run:
// the same TestID seen again is a rerun of that test, never a second test.
// Each format fills what it has; a field the format lacks stays empty.
type TestID struct {
	// Suite is the enclosing suite (JUnit testsuite, NUnit fixture, xUnit
	// collection, a jest or mocha file's describe path) or the package.
	Suite     string `json:"suite,omitempty"`
	Classname string `json:"classname,omitempty"`
	Name      string `json:"name"`
	// Params tells apart the cases of one parameterised test where the
	// format gives them separately, and nameless test cases (by position).
	Params string `json:"params,omitempty"`
	// File is the source file the format names for the test.
	File string `json:"file,omitempty"`
}
