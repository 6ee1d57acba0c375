package main

import (
	"fmt"
	"io"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/dreamd/dreamd/internal/phases"
	"github.com/dreamd/dreamd/internal/report"
	"github.com/dreamd/dreamd/internal/transcript"
)

type sessionsOptions struct {
	*globalOptions
}

func newSessionsCmd(g *globalOptions, runF func(*sessionsOptions) error) *cobra.Command {
	o := &sessionsOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "sessions",
		Short: "What gather would read: source, session, project, store, new bytes",
		Long: `List every discovered transcript with its kind, session id, project, the store it routes to, its
size and the bytes not yet consolidated, and every file passed over with why. For the material not
yet consolidated it shows what the model will be told: the turns by role after cleaning — the
person's own words, the assistant's, tool lines — and how many records were cut as not the
person's words (expanded command templates, reminders, injected context).`,
		Example: `  dreamd sessions
  dreamd sessions --store ~/.claude/projects/-home-ana-src-shop/memory
  dreamd sessions --format json | jq '.skipped[]'`,
		Args: noArgs,
		RunE: func(*cobra.Command, []string) error {
			if runF != nil {
				return runF(o)
			}
			return runSessions(o)
		},
	}
	jsonAlias(cmd, g)
	projectFlag(cmd, g)
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
	cfg, only, err := o.loadStore()
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
		if only != "" && t.Paths.Store != only {
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
	return o.print(sessionsResult{Sessions: rows, Skipped: skips})
}

type sessionsResult struct {
	Sessions []sessionRow `json:"sessions"`
	Skipped  []skippedRow `json:"skipped"`
}

func (r sessionsResult) render(w io.Writer, markdown bool) error {
	t := table{header: []string{"KIND", "SESSION", "PROJECT", "SIZE", "NEW", "USER", "ASSISTANT", "TOOL", "CUT", "STORE"},
		gives: []give{keep, elideMiddle, elideMiddle, keep, keep, keep, keep, keep, keep, elideMiddle},
		drop:  []int{9, 8, 7, 6, 5, 3}}
	for _, s := range r.Sessions {
		t.rows = append(t.rows, []string{s.Kind, s.ID, homeRel(s.Project), report.ByteSize(s.Size), report.ByteSize(s.NewBytes),
			strconv.Itoa(s.Turns.User), strconv.Itoa(s.Turns.Assistant), strconv.Itoa(s.Turns.Tool), strconv.Itoa(s.Turns.Cut), homeRel(s.Store)})
	}
	if err := t.render(w, markdown); err != nil {
		return err
	}
	if len(r.Skipped) == 0 {
		return nil
	}
	skipped := table{header: []string{"SKIPPED", "WHY"}, gives: []give{elideMiddle, elideEnd}}
	for _, s := range r.Skipped {
		skipped.rows = append(skipped.rows, []string{homeRel(s.Path), s.Reason})
	}
	fmt.Fprintln(w)
	return skipped.render(w, markdown)
}
