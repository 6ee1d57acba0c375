package main

import (
	"io"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A sizedWriter is command output that knows how many columns its lines may take: a terminal's
// width (COLUMNS, when set, wins); 0 when output goes to a pipe or a file, which get every column
// whole, as gh's tables do.
type sizedWriter struct {
	io.Writer
	width int
}

// outputWidth is how wide the lines written to out may be; 0 is no limit.
func outputWidth(out io.Writer) int {
	f, ok := out.(*os.File)
	if !ok || !isTerminal(f) {
		return 0
	}
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	return terminalWidth(f)
}

// widthOf is the width w may write lines of (0: no limit).
func widthOf(w io.Writer) int {
	if s, ok := w.(sizedWriter); ok {
		return s.width
	}
	return 0
}

// How a column gives way on a narrow terminal.
type give int

const (
	keep        give = iota // never shortened
	elideEnd                // shortened at its end: prose (a summary, a reason)
	elideMiddle             // shortened in the middle: a path or an id, whose ends say the most
)

// A shortened column keeps comfortFlex runes before whole columns are dropped, and at least
// minFlex once there is nothing left to drop.
const (
	comfortFlex = 24
	minFlex     = 12
)

// fit shapes t's rows for width: shortened columns first, then whole columns dropped in t.drop's
// order, until the table fits (or nothing more can give).
func (t table) fit(width int) table {
	if width <= 0 || len(t.header) == 0 {
		return t
	}
	shown := make([]bool, len(t.header))
	for i := range shown {
		shown[i] = true
	}
	widths := t.widths()
	need := func(flexMin int) int {
		total := 0
		for i, w := range widths {
			if !shown[i] {
				continue
			}
			if flexMin > 0 && t.give(i) != keep {
				w = min(w, max(flexMin, utf8.RuneCountInString(t.header[i])))
			}
			total += w + 2
		}
		return total - 2
	}
	for _, d := range t.drop {
		if need(comfortFlex) <= width {
			break
		}
		shown[d] = false
	}
	// Shorten the widest shortenable column a column at a time until the table fits.
	for need(0) > width {
		widest := -1
		for i, w := range widths {
			if shown[i] && t.give(i) != keep && w > max(minFlex, utf8.RuneCountInString(t.header[i])) && (widest < 0 || w > widths[widest]) {
				widest = i
			}
		}
		if widest < 0 {
			break
		}
		widths[widest]--
	}
	out := table{}
	pick := func(row []string) []string {
		var r []string
		for i, c := range row {
			if shown[i] {
				r = append(r, shorten(cell(c), widths[i], t.give(i)))
			}
		}
		return r
	}
	out.header = pick(t.header)
	for _, r := range t.rows {
		out.rows = append(out.rows, pick(r))
	}
	return out
}

func (t table) give(i int) give {
	if i < len(t.gives) {
		return t.gives[i]
	}
	return keep
}

// widths are the columns' natural widths, in runes.
func (t table) widths() []int {
	w := make([]int, len(t.header))
	for i, h := range t.header {
		w[i] = utf8.RuneCountInString(h)
	}
	for _, r := range t.rows {
		for i, c := range r {
			if i < len(w) {
				w[i] = max(w[i], utf8.RuneCountInString(cell(c)))
			}
		}
	}
	return w
}

// shorten fits s in n runes, marking the cut with "…".
func shorten(s string, n int, how give) string {
	r := []rune(s)
	if how == keep || len(r) <= n || n < 2 {
		return s
	}
	if how == elideMiddle {
		head := (n - 1) / 2
		tail := n - 1 - head
		return string(r[:head]) + "…" + string(r[len(r)-tail:])
	}
	return string(r[:n-1]) + "…"
}

// wrap breaks s into lines of at most n runes at spaces (a word longer than n stays whole).
func wrap(s string, n int) []string {
	if n <= 0 || utf8.RuneCountInString(s) <= n {
		return []string{s}
	}
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		switch {
		case line == "":
			line = word
		case utf8.RuneCountInString(line)+1+utf8.RuneCountInString(word) <= n:
			line += " " + word
		default:
			lines = append(lines, line)
			line = word
		}
	}
	return append(lines, line)
}
