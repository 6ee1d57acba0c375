package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

func newVersionCmd(g *globalOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print version, commit and Go version",
		Args:  noArgs,
		RunE: func(*cobra.Command, []string) error {
			v, c := version, commit
			if info, ok := debug.ReadBuildInfo(); ok {
				if v == "dev" && info.Main.Version != "" && info.Main.Version != "(devel)" {
					v = info.Main.Version
				}
				for _, s := range info.Settings {
					if s.Key == "vcs.revision" && c == "" {
						c = s.Value
					}
				}
			}
			if c == "" {
				c = "unknown"
			}
			fmt.Fprintf(g.Out, "dreamd %s\ncommit %s\n%s %s/%s\n", v, c, runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return nil
		},
	}
}
