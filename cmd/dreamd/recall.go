package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/dreamd/dreamd/internal/recall"
)

type recallOptions struct {
	*globalOptions
	Query   string
	Project string
	Limit   int
	Archive bool
}

func newRecallCmd(g *globalOptions, runF func(*recallOptions) error) *cobra.Command {
	o := &recallOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "recall QUERY",
		Short: "Search a project's memories, best match first",
		Long: `Ranked full-text search over the memories of a project's store: name, description and body,
weighted in that order, with English stemming. The project is the current directory's (its git
root) unless --project names another; --archive searches retired memories too.`,
		Example: `  dreamd recall "how do we deploy"
  dreamd recall postgres --project ~/src/shop --limit 3 --format json`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			o.Query = joinArgs(args)
			if runF != nil {
				return runF(o)
			}
			return runRecall(o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Project, "project", "", "the project directory (default: the current directory's)")
	dirFlag(cmd, "project")
	f.IntVar(&o.Limit, "limit", 10, "at most this many results")
	f.BoolVar(&o.Archive, "archive", false, "search retired (archived) memories too")
	jsonAlias(cmd, g)
	return cmd
}

func runRecall(o *recallOptions) error {
	if o.Limit < 1 {
		return usagef("--limit must be at least 1")
	}
	pr, err := o.loadProject(o.Project)
	if err != nil {
		return err
	}
	cfg, p := pr.cfg, pr.paths
	if o.Project != "" {
		if err := storeExists(o.Project, p); err != nil {
			return usagef("--" + err.Error())
		}
	}
	docs, err := recallDocs(p, o.Archive)
	if err != nil {
		return err
	}
	red, err := redactor(cfg)
	if err != nil {
		return err
	}
	hits := recall.Search(docs, o.Query, o.Limit)
	markStale(p, hits)
	markUsed(p, hits)
	for i := range hits {
		hits[i].Snippet, _ = red.Redact(hits[i].Snippet)
		hits[i].Description, _ = red.Redact(hits[i].Description)
	}
	return o.print(recallResult{Store: p.Store, Query: o.Query, Results: hits})
}

type recallResult struct {
	Store   string       `json:"store"`
	Query   string       `json:"query"`
	Results []recall.Hit `json:"results"`
}

func (r recallResult) render(w io.Writer, markdown bool) error {
	if len(r.Results) == 0 {
		_, err := fmt.Fprintf(w, "No memory in %s matches %q.\n", r.Store, r.Query)
		return err
	}
	if markdown {
		for i, h := range r.Results {
			h.Name, h.Path = cell(h.Name), cell(h.Path)
			fmt.Fprintf(w, "%d. **%s** (%s, %.2f): %s  \n   `%s`\n", i+1, h.Name, where(h), h.Score, h.Description, h.Path)
			if h.Snippet != h.Description {
				fmt.Fprintf(w, "   > %s\n", h.Snippet)
			}
		}
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 2, 2, ' ', 0)
	for i, h := range r.Results {
		// The name and path are a hand-written file's: an escape in them must not reach the terminal.
		h.Name, h.Path = cell(h.Name), cell(h.Path)
		fmt.Fprintf(tw, "%d. %s (%s)\t%.2f\n", i+1, h.Name, where(h), h.Score)
		fmt.Fprintf(tw, "   %s\t\n", h.Description)
		if h.Snippet != h.Description {
			fmt.Fprintf(tw, "   > %s\t\n", h.Snippet)
		}
		fmt.Fprintf(tw, "   %s\t\n", h.Path)
	}
	return tw.Flush()
}

// where says what kind of memory a hit is, and whether it is retired.
func where(h recall.Hit) string {
	if h.Archived {
		return h.Type + ", archived"
	}
	return h.Type
}
