package capture

import "os"

// pipeReader reads plainly: Windows anonymous pipes have no non-blocking
// mode for the poller to wait on. Each stream has its own reading
// goroutine, so a blocking read holds up nothing else, and Close cancels
// it (os.File cancels pending pipe I/O with CancelIoEx).
func pipeReader(f *os.File) func([]byte) (int, error) { return f.Read }
