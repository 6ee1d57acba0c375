//go:build unix

package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// mkfifo makes a FIFO nobody writes to: reading it, or merely opening it, blocks forever.
func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skip("no FIFO:", err)
	}
}
