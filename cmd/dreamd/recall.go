package main

import (
	"fmt"
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
	JSON    bool
}

func newRecallCmd(g *globalOptions) *cobra.Command {
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
			return runRecall(o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Project, "project", "", "the project directory (default: the current directory's)")
	f.IntVar(&o.Limit, "limit", 10, "at most this many results")
	f.BoolVar(&o.Archive, "archive", false, "search retired (archived) memories too")
	f.BoolVar(&o.JSON, "json", false, "print JSON (same as --format json)")
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
	docs, err := recallDocs(p, o.Archive)
	if err != nil {
		return err
	}
	red, err := redactor(cfg)
	if err != nil {
		return err
	}
	hits := recall.Search(docs, o.Query, o.Limit)
	for i := range hits {
		hits[i].Snippet, _ = red.Redact(hits[i].Snippet)
		hits[i].Description, _ = red.Redact(hits[i].Description)
	}
	if hits == nil {
		hits = []recall.Hit{}
	}
	if o.wantJSON(o.JSON) {
		return printJSON(o.Out, map[string]any{"store": p.Store, "query": o.Query, "results": hits})
	}
	if len(hits) == 0 {
		fmt.Fprintf(o.Out, "No memory in %s matches %q.\n", p.Store, o.Query)
		return nil
	}
	w := tabwriter.NewWriter(o.Out, 0, 2, 2, ' ', 0)
	for i, h := range hits {
		where := h.Type
		if h.Archived {
			where += ", archived"
		}
		fmt.Fprintf(w, "%d. %s (%s)\t%.2f\n", i+1, h.Name, where, h.Score)
		fmt.Fprintf(w, "   %s\t\n", h.Description)
		if h.Snippet != h.Description {
			fmt.Fprintf(w, "   > %s\t\n", h.Snippet)
		}
		fmt.Fprintf(w, "   %s\t\n", h.Path)
	}
	return w.Flush()
}
