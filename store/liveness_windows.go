package store

import (
	"errors"
	"strconv"

	"golang.org/x/sys/windows"
)

// stillActive is STILL_ACTIVE, GetExitCodeProcess's answer for a process
// that has not ended.
const stillActive = 259

// processExists opens the process to ask it for its exit code: a pid
// Windows does not know fails to open; one it refuses to open to this
// user exists. A process that really exited with code 259 looks alive;
// ProcStart still tells it from a wrapper once its pid is reused.
func processExists(pid int) bool {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if errors.Is(err, windows.ERROR_ACCESS_DENIED) {
		return true
	}
	if err != nil {
		return false
	}
	defer windows.CloseHandle(h)
	var code uint32
	return windows.GetExitCodeProcess(h, &code) == nil && code == stillActive
}

// ProcStart is process pid's creation time in 100 ns units since 1601:
// with the pid, it tells one process from a later one with the same pid,
// across reboots too. "" when the process cannot be opened.
func ProcStart(pid int) string {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return ""
	}
	defer windows.CloseHandle(h)
	var created, exited, kernel, user windows.Filetime
	if err := windows.GetProcessTimes(h, &created, &exited, &kernel, &user); err != nil {
		return ""
	}
	return strconv.FormatInt(int64(created.HighDateTime)<<32|int64(created.LowDateTime), 10)
}

// bootID is "" on Windows, where no boot id is at hand: ProcStart, a
// wall-clock creation time, already tells a process of an earlier boot
// from one that reuses its pid now.
func bootID() string { return "" }
