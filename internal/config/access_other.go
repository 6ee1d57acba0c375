//go:build !unix

package config

// canWrite reports whether the user may create files in the directory dir; where there is no
// access(2), the first write says.
func canWrite(string) bool { return true }
