//go:build !unix

package main

import "os"

// terminalWidth is the number of columns of the terminal f; 0 (no limit) where there is no ioctl.
func terminalWidth(*os.File) int { return 0 }
