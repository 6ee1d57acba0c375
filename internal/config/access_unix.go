//go:build unix

package config

import "golang.org/x/sys/unix"

// canWrite reports whether the user may create files in the directory dir.
func canWrite(dir string) bool { return unix.Access(dir, unix.W_OK|unix.X_OK) == nil }
