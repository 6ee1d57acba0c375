// Package dreamd holds what must live at the module root: the service
// templates, embedded here because go:embed cannot reach parent directories.
package dreamd

import "embed"

// Templates holds systemd/ (dreamd.service; dreamd-once.service and
// dreamd.timer) and launchd/ (the LaunchAgent plist), rendered by
// internal/service with text/template.
//
//go:embed systemd launchd
var Templates embed.FS
