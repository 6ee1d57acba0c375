package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/dreamd/dreamd/internal/config"
	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/redact"
	"github.com/dreamd/dreamd/internal/safefile"
	"github.com/dreamd/dreamd/internal/sanitize"
	"github.com/dreamd/dreamd/internal/transcript"
)

type rememberOptions struct {
	*globalOptions
	Text    string
	Type    string
	Project string
	Now     bool
	In      io.Reader
}

func newRememberCmd(g *globalOptions, runF func(*rememberOptions) error) *cobra.Command {
	o := &rememberOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "remember [TEXT]",
		Short: "Queue a note for the project's memory; the next pass consolidates it",
		Long: `Queue a note as a session of dreamd's own source. It is never written into the store as it is:
the next pass consolidates it like any other session — merged with what the store already holds,
deduplicated, validated, redacted and shown in the diff. A credential in the note is redacted
before the note is queued. The offline consolidator keeps every remembered note. With no TEXT the note is read from standard input; a note over 64 KiB is refused, not cut. --now runs the project's
pass at once.`,
		Example: `  dreamd remember "integration tests need docker compose up first"
  dreamd remember --type feedback "answer in English even when I write German" --now
  git log -1 --format=%B | dreamd remember --project ~/src/shop`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Text, o.In = joinArgs(args), cmd.InOrStdin()
			if runF != nil {
				return runF(o)
			}
			return runRemember(cmd.Context(), o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Type, "type", "", "memory type: user, feedback, project or reference (default: the pass decides)")
	f.StringVar(&o.Project, "project", "", "the project directory (default: the current directory's)")
	dirFlag(cmd, "project")
	f.BoolVar(&o.Now, "now", false, "run the project's pass now")
	fixedValues(cmd, "type", memory.TypeNames()...)
	return cmd
}

func runRemember(ctx context.Context, o *rememberOptions) error {
	if !memoryTypeOK(o.Type) {
		return usagef(fmt.Sprintf("--type %q: want one of %s", o.Type, strings.Join(memory.TypeNames(), ", ")))
	}
	text := strings.TrimSpace(o.Text)
	if text == "" && o.In != nil {
		// One byte past the limit, so that a longer note is refused, never cut short.
		b, err := io.ReadAll(io.LimitReader(o.In, maxNoteBytes+1))
		if err != nil {
			return err
		}
		text = strings.TrimSpace(string(b))
	}
	if text == "" {
		return usagef("nothing to remember: give the note as arguments or on standard input")
	}
	pr, err := o.loadProject(o.Project)
	if err != nil {
		return err
	}
	red, err := redactor(pr.cfg)
	if err != nil {
		return err
	}
	path, err := queueNote(pr.cfg, red, transcript.Note{Project: pr.dir, Type: o.Type, Text: text, Time: time.Now()})
	if err != nil {
		return err
	}
	p := pr.paths
	if !o.Now {
		return o.print(rememberResult{Store: p.Store, Note: path})
	}
	fmt.Fprintf(o.Err, "queued %s; consolidating %s now\n", path, p.Store)
	g := *o.globalOptions // this pass only: the options stay as the command line gave them
	g.Store = p.Store
	return runOnce(ctx, &runOptions{globalOptions: &g, Once: true})
}

type rememberResult struct {
	Store string `json:"store"`
	Note  string `json:"note"` // the queued note, a session of dreamd's own source
}

func (r rememberResult) render(w io.Writer, _ bool) error {
	_, err := fmt.Fprintf(w, "Queued for %s; the next pass consolidates it (or run `dreamd run --once --store %s`).\n", r.Store, r.Store)
	return err
}

// maxNoteBytes is the longest note remember queues: a lesson is a few sentences, and a longer
// text (a log piped in by mistake) is refused whole rather than cut.
const maxNoteBytes = 64 << 10

// queueNote queues a note for its project's next pass (`remember` and the MCP remember tool).
// The text is redacted first: the note waits in the state until that pass, and a token in it
// would sit there in the clear (the pass would redact it from the request, not from the file).
func queueNote(cfg *config.Config, red *redact.Redactor, n transcript.Note) (string, error) {
	n.Text = strings.TrimSpace(sanitize.Text(n.Text))
	switch {
	case n.Text == "":
		return "", errors.New("nothing to remember: the note holds no text once control characters are taken out")
	case len(n.Text) > maxNoteBytes:
		return "", fmt.Errorf("the note is longer than %s, the most a note may be: keep a lesson to a few sentences", safefile.Size(maxNoteBytes))
	}
	n.Text, _ = red.Redact(n.Text)
	return transcript.WriteNote(notesDir(cfg), n)
}
