package capture

// becomeSubreaper does nothing on Windows, which has no reaping: the Job
// Object in group_windows.go is what tells runledger every descendant has
// ended (its count of active processes reaches zero).
func becomeSubreaper() error { return nil }

// growPipe does nothing: an anonymous pipe's buffer size is fixed when
// os.Pipe creates it.
func growPipe(uintptr) {}
