package capture

import (
	"runtime"
	"testing"
)

func TestDefaultName(t *testing.T) {
	tests := []struct {
		argv []string
		want string
	}{
		{[]string{"go", "test", "./..."}, "go test"},
		{[]string{"/usr/local/go/bin/go", "test"}, "go test"},
		{[]string{"pytest", "-q"}, "pytest"},
		{[]string{"make"}, "make"},
	}
	if runtime.GOOS == "windows" {
		tests = append(tests,
			struct {
				argv []string
				want string
			}{[]string{`C:\Program Files\Go\bin\go.EXE`, "test"}, "go test"})
	}
	for _, tt := range tests {
		if got := DefaultName(tt.argv); got != tt.want {
			t.Errorf("DefaultName(%q) = %q, want %q", tt.argv, got, tt.want)
		}
	}
}
