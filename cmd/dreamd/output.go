package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/dreamd/dreamd/internal/report"
	"github.com/dreamd/dreamd/internal/sanitize"
)

// A result is what a command prints. JSON is the value itself; text and markdown are its own
// rendering, so every command honours --format the same way.
type result interface {
	render(w io.Writer, markdown bool) error
}

// print writes r in the --format the command was given.
func (g *globalOptions) print(r result) error {
	// Buffered: a table writes cell by cell, a syscall each on an unbuffered stdout (25,000 for a
	// history of 1,000 runs).
	w := bufio.NewWriter(g.Out)
	var err error
	if g.Format == "json" {
		err = report.JSON(w, r)
	} else {
		err = r.render(sizedWriter{w, outputWidth(g.Out)}, g.Format == "markdown")
	}
	return errors.Join(err, w.Flush())
}

// table is a listing: text is aligned columns, markdown a pipe table. On a terminal narrower than
// the text, columns that may give way (gives) are shortened and then those in drop left out.
type table struct {
	header []string
	rows   [][]string
	gives  []give // per column; missing: keep
	drop   []int  // columns to leave out, first first, when shortening is not enough
}

func (t table) render(w io.Writer, markdown bool) error {
	if markdown {
		var b strings.Builder
		b.WriteString("| " + strings.Join(mdCells(t.header), " | ") + " |\n|")
		b.WriteString(strings.Repeat(" --- |", len(t.header)) + "\n")
		for _, r := range t.rows {
			b.WriteString("| " + strings.Join(mdCells(r), " | ") + " |\n")
		}
		_, err := io.WriteString(w, b.String())
		return err
	}
	t = t.fit(widthOf(w))
	tw := tabwriter.NewWriter(w, 0, 2, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(cells(t.header), "\t"))
	for _, r := range t.rows {
		fmt.Fprintln(tw, strings.Join(cells(r), "\t"))
	}
	return tw.Flush()
}

// cell is a value as a table prints it to a terminal: on one line, without the control
// characters (an ESC sequence, a tab that shifts the columns) that a project path, a file name or
// a session id read from a transcript may hold.
func cell(c string) string { return sanitize.Line(c) }

func cells(row []string) []string {
	out := make([]string, len(row))
	for i, c := range row {
		out[i] = cell(c)
	}
	return out
}

// mdCells escapes what would break a pipe table's row.
func mdCells(cells []string) []string {
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = cell(strings.ReplaceAll(c, "|", `\|`))
	}
	return out
}

// section is a titled list of key/value lines: text is an indented block, markdown a heading and
// a two-column table.
type section struct {
	title string
	lines [][2]string
}

func renderSections(w io.Writer, markdown bool, sections []section) error {
	if markdown {
		for i, s := range sections {
			if i > 0 {
				io.WriteString(w, "\n")
			}
			t := table{header: []string{s.title, ""}}
			for _, l := range s.lines {
				t.rows = append(t.rows, []string{l[0], l[1]})
			}
			if err := t.render(w, true); err != nil {
				return err
			}
		}
		return nil
	}
	// On a terminal, a long value wraps under itself instead of running past the edge.
	keyWidth := 0
	for _, s := range sections {
		for _, l := range s.lines {
			keyWidth = max(keyWidth, utf8.RuneCountInString(cell(l[0])))
		}
	}
	valueWidth := 0
	if width := widthOf(w); width > 0 {
		valueWidth = max(width-2-keyWidth-2, 20)
	}
	tw := tabwriter.NewWriter(w, 0, 2, 2, ' ', 0)
	for i, s := range sections {
		if i > 0 {
			fmt.Fprintln(tw)
		}
		fmt.Fprintln(tw, cell(s.title))
		for _, l := range s.lines {
			for j, part := range wrap(cell(l[1]), valueWidth) {
				key := ""
				if j == 0 {
					key = cell(l[0])
				}
				fmt.Fprintf(tw, "  %s\t%s\n", key, part)
			}
		}
	}
	return tw.Flush()
}

// jsonAlias adds --json to cmd as the alias of --format json it has always been.
func jsonAlias(cmd *cobra.Command, g *globalOptions) {
	cmd.Flags().Var(formatAlias{g}, "json", "alias of --format json")
	cmd.Flags().Lookup("json").NoOptDefVal = "true"
}

type formatAlias struct{ g *globalOptions }

func (a formatAlias) String() string { return "false" }
func (a formatAlias) Type() string   { return "bool" }
func (a formatAlias) Set(s string) error {
	if s == "true" {
		a.g.Format = "json"
	}
	return nil
}
