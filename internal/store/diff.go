package store

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/dreamd/dreamd/internal/cores"
	"github.com/dreamd/dreamd/internal/redact"
)

// Diff is a git-style unified diff of every change that alters a file, sorted by name:
// "--- a/NAME" / "+++ b/NAME", with /dev/null for a created or deleted file.
//
// A diff is for showing, and what it shows is redacted with red (nil: the built-in rules): a
// memory a person wrote can hold a credential, which its "-" lines would print as it is while the
// pass removes it. Every occurrence of a value found anywhere in the diff goes. The changes
// themselves (and the journal, which rollback restores from) keep the bytes as they are.
func Diff(changes []Change, red *redact.Redactor) string {
	if red == nil {
		red = builtinRedactor()
	}
	sorted := slices.Clone(changes)
	slices.SortStableFunc(sorted, func(x, y Change) int { return strings.Compare(x.Name, y.Name) })
	sorted = slices.DeleteFunc(sorted, func(c Change) bool { return sameImage(c.Old, c.New) })
	shown := redactedImages(sorted, red)
	var b strings.Builder
	for _, c := range shown {
		b.WriteString(fileDiff(c))
	}
	return b.String()
}

// builtinRedactor redacts with the built-in rules, for a caller without the configured one.
var builtinRedactor = sync.OnceValue(func() *redact.Redactor {
	r, _ := redact.New(nil) // cannot fail without extra patterns
	return r
})

// redactedImages returns copies of changes whose images are redacted, each value found in one
// image swept from all of them (a token in the old image is the same secret in the new one).
func redactedImages(changes []Change, red *redact.Redactor) []Change {
	var known redact.Known
	out := make([]Change, len(changes))
	clean := func(b []byte) []byte {
		if b == nil {
			return nil // created or deleted: /dev/null stays
		}
		s, found := red.Redact(string(b))
		known.Remember(string(b), found)
		return []byte(s)
	}
	// On every core: a pass at the default caps over a large store retires thousands of memories,
	// and each image is redacted for the report.
	cores.Each(len(changes), func(i int) {
		c := changes[i]
		out[i] = Change{Name: c.Name, Old: clean(c.Old), New: clean(c.New)}
	})
	cores.Each(len(out), func(i int) {
		for _, img := range []*[]byte{&out[i].Old, &out[i].New} {
			if *img != nil {
				s, _ := known.Sweep(string(*img))
				*img = []byte(s)
			}
		}
	})
	return out
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
