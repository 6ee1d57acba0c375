package store

import (
	"fmt"
	"slices"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"
)

// Diff is a git-style unified diff of every change that alters a file, sorted by name:
// "--- a/NAME" / "+++ b/NAME", with /dev/null for a created or deleted file.
func Diff(changes []Change) string {
	sorted := slices.Clone(changes)
	slices.SortStableFunc(sorted, func(x, y Change) int { return strings.Compare(x.Name, y.Name) })
	var b strings.Builder
	for _, c := range sorted {
		if sameImage(c.Old, c.New) {
			continue
		}
		b.WriteString(fileDiff(c))
	}
	return b.String()
}

// fileDiff is the diff of one changed file.
func fileDiff(c Change) string {
	from, to := "a/"+c.Name, "b/"+c.Name
	if c.Old == nil {
		from = "/dev/null"
	}
	if c.New == nil {
		to = "/dev/null"
	}
	header := "--- " + from + "\n+++ " + to + "\n"
	old, new := string(c.Old), string(c.New)
	d, err := udiff.ToUnified(from, to, old, udiff.Lines(old, new), udiff.DefaultContextLines)
	if err != nil {
		// The edits come from the same two texts, so the library cannot reject them; say so if it does.
		return header + fmt.Sprintf("@@ diff unavailable: %v @@\n", err)
	}
	if d == "" {
		return header // an empty file created or deleted: nothing but the names
	}
	return d
}
