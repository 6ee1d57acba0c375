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
size and the bytes not yet consolidated, and every file passed over with why. For the material not
yet consolidated it shows what the model will be told: the turns by role after cleaning — the
person's own words, the assistant's, tool lines — and how many records were cut as not the
person's words (expanded command templates, reminders, injected context).`,
		Args: noArgs,
		RunE: func(*cobra.Command, []string) error { return runSessions(o) },
	}
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print JSON")
	return cmd
}

type sessionRow struct {
	Kind     string     `json:"kind"`
	ID       string     `json:"id"`
	Project  string     `json:"project"`
	Store    string     `json:"store"`
	Path     string     `json:"path"`
	Size     int64      `json:"size"`
	NewBytes int64      `json:"new_bytes"`
	Turns    turnCounts `json:"turns"` // of the new material, after cleaning
}

// turnCounts are a transcript's new turns by role, and the records cut.
type turnCounts struct {
	User      int `json:"user"`
	Assistant int `json:"assistant"`
	Tool      int `json:"tool"`
	Cut       int `json:"cut"`
}

// countTurns reads a file's new material as gather would and counts what it keeps.
func countTurns(f phases.Tracked, from transcript.Cursor) turnCounts {
	var c turnCounts
	r, err := f.Adapter.Read(f.File, from)
	if err != nil {
		return c
	}
	for _, s := range r.Sessions {
		c.Cut += s.Cut
		for _, t := range s.Turns {
			switch t.Role {
			case transcript.User:
				c.User++
			case transcript.Assistant:
				c.Assistant++
			default:
				c.Tool++
			}
		}
	}
	return c
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
	recoverStores(o.globalOptions, cfg)
	targets, skipped, err := phases.Discover(routingEnv(cfg))
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
			from, n, err := transcript.Resume(f.File, cursors[f.File.Path])
			if err != nil {
				skipped = append(skipped, transcript.Skipped{Path: f.File.Path, Reason: err.Error()})
				continue
			}
			row := sessionRow{Kind: f.File.Kind, ID: f.Session, Project: f.Project, Store: t.Paths.Store, Path: f.File.Path, Size: f.File.Size, NewBytes: n}
			if n > 0 {
				row.Turns = countTurns(f, from)
			}
			rows = append(rows, row)
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
	fmt.Fprintln(w, "KIND\tSESSION\tPROJECT\tSIZE\tNEW\tUSER\tASSISTANT\tTOOL\tCUT\tSTORE")
	for _, r := range rows {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%d\t%d\t%d\t%d\t%s\n", r.Kind, r.ID, r.Project, report.ByteSize(r.Size), report.ByteSize(r.NewBytes),
			r.Turns.User, r.Turns.Assistant, r.Turns.Tool, r.Turns.Cut, r.Store)
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
