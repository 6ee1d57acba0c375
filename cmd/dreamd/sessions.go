package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/dreamd/dreamd/internal/phases"
	"github.com/dreamd/dreamd/internal/report"
	"github.com/dreamd/dreamd/internal/transcript"
)

type sessionsOptions struct {
	*globalOptions
	JSON bool
}

func newSessionsCmd(g *globalOptions) *cobra.Command {
	o := &sessionsOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "sessions [--json]",
		Short: "What gather would read: source, session, project, store, new bytes",
		Long: `List every discovered transcript with its kind, session id, project, the store it routes to, its
size and the bytes not yet consolidated, and every file passed over with why.`,
		Args: noArgs,
		RunE: func(*cobra.Command, []string) error { return runSessions(o) },
	}
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print JSON")
	return cmd
}

type sessionRow struct {
	Kind     string `json:"kind"`
	ID       string `json:"id"`
	Project  string `json:"project"`
	Store    string `json:"store"`
	Path     string `json:"path"`
	Size     int64  `json:"size"`
	NewBytes int64  `json:"new_bytes"`
}

type skippedRow struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

func runSessions(o *sessionsOptions) error {
	cfg, err := o.load()
	if err != nil {
		return err
	}
	env, err := o.env(cfg, o.logger(cfg))
	if err != nil {
		return err
	}
	recoverStores(o.globalOptions, cfg)
	targets, skipped, err := phases.Discover(env)
	if err != nil {
		return err
	}
	rows := []sessionRow{}
	for _, t := range targets {
		if o.Store != "" && t.Paths.Store != o.Store {
			continue
		}
		cursors, err := t.ReadCursors()
		if err != nil {
			return err
		}
		for _, f := range t.Files {
			_, n, err := transcript.Resume(f.File, cursors[f.File.Path])
			if err != nil {
				skipped = append(skipped, transcript.Skipped{Path: f.File.Path, Reason: err.Error()})
				continue
			}
			rows = append(rows, sessionRow{Kind: f.File.Kind, ID: f.Session, Project: f.Project, Store: t.Paths.Store, Path: f.File.Path, Size: f.File.Size, NewBytes: n})
		}
	}
	skips := []skippedRow{}
	for _, s := range skipped {
		skips = append(skips, skippedRow{Path: s.Path, Reason: s.Reason})
	}
	if o.wantJSON(o.JSON) {
		return printJSON(o.Out, map[string]any{"sessions": rows, "skipped": skips})
	}
	w := tabwriter.NewWriter(o.Out, 0, 2, 2, ' ', 0)
	fmt.Fprintln(w, "KIND\tSESSION\tPROJECT\tSIZE\tNEW\tSTORE")
	for _, r := range rows {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\n", r.Kind, r.ID, r.Project, report.ByteSize(r.Size), report.ByteSize(r.NewBytes), r.Store)
	}
	w.Flush()
	if len(skips) > 0 {
		fmt.Fprintf(o.Out, "\nskipped:\n")
		for _, s := range skips {
			fmt.Fprintf(o.Out, "  %s: %s\n", s.Path, s.Reason)
		}
	}
	return nil
}
