package capture

import "runtime"

// FitThreads runs Go code on one thread when the process may use two cores
// or fewer, unless GOMAXPROCS is set. There the command writing the output
// keeps one core busy and runledger's reader, hashers and log writer share
// the other; with two Ps every hand-off between them wakes a second thread
// that spins looking for work on the core the command needs. On two cores,
// `bench/capture.sh 1024 3` against the same with GOMAXPROCS=2: 1.74 s
// wall with one P, 2.38 s with two (`tee a` 1.44 s, 1.34 s). The caller restores
// the count once the capture is over: the report after it reads the log
// with two scans side by side. It is meant for a process that captures
// (run, action), not for a server, whose requests would take turns.
func FitThreads(getenv func(string) string) (restore func()) {
	before := runtime.GOMAXPROCS(fitThreads(getenv("GOMAXPROCS"), runtime.GOMAXPROCS(0)))
	return func() { runtime.GOMAXPROCS(before) }
}

// fitThreads is the Ps to run with, given the GOMAXPROCS variable and the
// count the runtime chose (the CPUs the process may use, cgroup limits
// included).
func fitThreads(env string, procs int) int {
	if env == "" && procs <= 2 {
		return 1
	}
	return procs
}
