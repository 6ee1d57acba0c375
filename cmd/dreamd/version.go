package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// goBuildInfo is what the Go toolchain recorded in the binary (a variable for the tests).
var goBuildInfo = debug.ReadBuildInfo

// buildInfo is what `dreamd version` reports.
type buildInfo struct {
	Version  string `json:"version"`
	Commit   string `json:"commit"`
	Modified bool   `json:"modified"` // built from a work tree with uncommitted changes
	Go       string `json:"go"`
	Platform string `json:"platform"`
}

// readBuildInfo takes the version and commit from -ldflags when a release build set them, else
// from what the Go toolchain records: the module version of `go install …@v1.2.3`, or the
// pseudo-version and VCS revision of a `go build` in a git checkout.
func readBuildInfo() buildInfo {
	b := buildInfo{Version: version, Commit: commit, Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if info, ok := goBuildInfo(); ok {
		if b.Version == "dev" && info.Main.Version != "" && info.Main.Version != "(devel)" {
			b.Version = info.Main.Version
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				if b.Commit == "" {
					b.Commit = s.Value
				}
			case "vcs.modified":
				b.Modified = s.Value == "true"
			}
		}
	}
	return b
}

// String is the one-line form `--version` prints.
func (b buildInfo) String() string {
	c := b.Commit
	switch {
	case c == "":
		c = "unknown (built without VCS information)"
	case len(c) > 12:
		c = c[:12]
	}
	if b.Modified {
		c += ", modified"
	}
	return fmt.Sprintf("dreamd %s (commit %s, %s %s)", b.Version, c, b.Go, b.Platform)
}

func (b buildInfo) render(w io.Writer, _ bool) error {
	_, err := fmt.Fprintln(w, b)
	return err
}

func newVersionCmd(g *globalOptions) *cobra.Command {
	return &cobra.Command{
		Use:     "version",
		Short:   "Print version, commit and Go version",
		Example: "  dreamd version\n  dreamd version --format json",
		Args:    noArgs,
		RunE: func(*cobra.Command, []string) error {
			return g.print(readBuildInfo())
		},
	}
}
