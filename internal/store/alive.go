package store

import (
	"errors"
	"syscall"
)

// ProcessAlive reports whether a process with this PID exists; EPERM means it exists but belongs
// to someone else.
func ProcessAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
