package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/dreamd/dreamd/internal/preamble"
	"github.com/dreamd/dreamd/internal/store"
)

type preambleOptions struct {
	*globalOptions
	Project  string
	MaxBytes int
}

func newPreambleCmd(g *globalOptions, runF func(*preambleOptions) error) *cobra.Command {
	o := &preambleOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "preamble",
		Short: "Print the memory to put in front of an agent's session",
		Long: `Print the text to put in front of a session: the project's most valuable memories (pinned first,
then feedback, user, project and reference ones, newest first) that fit in --max-bytes, grouped
as in MEMORY.md, and one line saying that ` + "`dreamd recall`" + ` searches the rest. The text changes only
when the store does, so it is safe for prompt caches and instruction files. Secrets are redacted.`,
		Example: `  dreamd preamble --max-bytes 4096
  codex "$(dreamd preamble) Now fix the failing test."`,
		Args: noArgs,
		RunE: func(*cobra.Command, []string) error {
			if runF != nil {
				return runF(o)
			}
			return runPreamble(o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Project, "project", "", "the project directory (default: the current directory's)")
	dirFlag(cmd, "project")
	f.IntVar(&o.MaxBytes, "max-bytes", preamble.DefaultMaxBytes, "at most this many bytes")
	return cmd
}

func runPreamble(o *preambleOptions) error {
	if o.MaxBytes < 1 {
		return usagef("--max-bytes must be at least 1")
	}
	pr, err := o.loadProject(o.Project)
	if err != nil {
		return err
	}
	red, err := redactor(pr.cfg)
	if err != nil {
		return err
	}
	p := pr.paths
	text, err := renderPreamble(p, scopeStores(pr.cfg), o.MaxBytes, red, store.Load)
	if err != nil {
		return err
	}
	return o.print(preambleResult{Store: p.Store, Bytes: len(text), Preamble: text})
}

type preambleResult struct {
	Store    string `json:"store"`
	Bytes    int    `json:"bytes"`
	Preamble string `json:"preamble"`
}

// render prints the preamble as it is: it is markdown already.
func (r preambleResult) render(w io.Writer, _ bool) error {
	_, err := io.WriteString(w, r.Preamble)
	return err
}
