// Package redact finds credentials in text and replaces them with "[REDACTED:<kind>]". It runs on
// everything before it is sent to the LLM and on the model's output before anything is written.
//
// The patterns are RE2 expressions (linear time, no catastrophic backtracking), compiled once on
// first use, each behind a cheap substring prefilter, so a large transcript costs a few scans.
package redact

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// Finding is one secret: its kind and its byte range in the text searched.
type Finding struct {
	Kind       string
	Start, End int
}

// Redactor finds and removes secrets. It is safe for concurrent use.
type Redactor struct {
	extra []rule    // the user's patterns, compiled (and so checked) by New
	once  sync.Once // the built-in rules compile on first use: a quiet pass never needs them
	rules []rule
	index *literalIndex
}

// CustomKind names findings of user-configured patterns.
const CustomKind = "custom"

// maxPasses bounds Redact's re-scans of its own output (see Redact).
const maxPasses = 4

// New returns a Redactor for the built-in kinds plus the user's extra regular expressions (Go RE2
// syntax). When an extra pattern has capture groups, only the first group that matched is
// redacted; otherwise the whole match is.
func New(extra []string) (*Redactor, error) {
	r := &Redactor{}
	for i, p := range extra {
		if p == "" {
			return nil, fmt.Errorf("redact: extra pattern %d is empty", i+1)
		}
		re, err := regexp.Compile(p)
		if err != nil {
			return nil, fmt.Errorf("redact: extra pattern %d %q: %w", i+1, p, err)
		}
		r.extra = append(r.extra, rule{kind: CustomKind, re: re})
	}
	return r, nil
}

// builtins are the built-in rules, compiled once for every Redactor.
var builtins = sync.OnceValue(builtinRules)

// ruleset returns the rules in priority order, built on first use.
func (r *Redactor) ruleset() []rule {
	r.once.Do(func() {
		r.rules = slices.Concat(builtins(), r.extra)
		r.index = newLiteralIndex(r.rules)
	})
	return r.rules
}

// Find returns the secrets in s, sorted by position and not overlapping. Where two rules claim
// overlapping text, the findings are joined and keep the kind of the more specific rule. Every
// other occurrence in s of a value found is a finding too (see Known).
func (r *Redactor) Find(s string) []Finding {
	found := r.find(s)
	found = append(found, r.findWrapped(s)...)
	if visible, at := withoutInvisible(s); at != nil {
		// A credential split by characters that show as nothing still reads whole.
		for _, f := range r.find(visible) {
			f.Start, f.End = at[f.Start], at[f.End]
			found = append(found, f)
		}
	}
	fs := merge(found)
	if again := occurrences(s, valuesOf(s, fs), fs); len(again) > 0 {
		fs = merge(slices.Concat(rankedOf(fs), rankedOf(again)))
	}
	return fs
}

// rankedOf gives findings already merged a rank that keeps their order.
func rankedOf(fs []Finding) []ranked {
	out := make([]ranked, len(fs))
	for i, f := range fs {
		out[i] = ranked{f, 0}
	}
	return out
}

func (r *Redactor) find(s string) []ranked {
	rules := r.ruleset()
	hits := r.index.hits(s)
	var found []ranked
	for prio, ru := range rules {
		var at []int
		if hits != nil {
			at = hits[prio]
		}
		for _, m := range ru.matches(s, at) {
			start, end := secretSpan(m)
			if start == end || ru.keep != nil && !ru.keep(s[start:end]) || ru.fits != nil && !ru.fits(s, m) {
				continue
			}
			found = append(found, ranked{Finding{ru.kind, start, end}, prio})
		}
	}
	return found
}

// invisible are characters that show as nothing: zero-width space, non-joiner and joiner, word
// joiner, byte order mark, soft hyphen.
const invisible = "\u200b\u200c\u200d\u2060\ufeff\u00ad"

// withoutInvisible returns s without its invisible characters, and for each byte offset of that
// text (and its end) the offset in s; a nil map when s has none.
func withoutInvisible(s string) (string, []int) {
	// Every invisible character's encoding starts with one of these bytes: a fast way past text
	// without any (most of it).
	if strings.IndexByte(s, 0xe2) < 0 && strings.IndexByte(s, 0xef) < 0 && strings.IndexByte(s, 0xc2) < 0 ||
		!strings.ContainsAny(s, invisible) {
		return "", nil
	}
	var b strings.Builder
	at := make([]int, 0, len(s)+1)
	for i, c := range s {
		if strings.ContainsRune(invisible, c) {
			continue
		}
		for range utf8.RuneLen(c) {
			at = append(at, i)
		}
		b.WriteRune(c)
	}
	at = append(at, len(s))
	return b.String(), at
}

// Redact returns s with every secret replaced by "[REDACTED:<kind>]" and the findings, whose
// positions refer to s. Replacing text can, rarely, join its neighbours into something that looks
// like a secret again, so the output is re-scanned until it is clean.
func (r *Redactor) Redact(s string) (string, []Finding) {
	findings := r.Find(s)
	out, fs := s, findings
	for pass := 0; len(fs) > 0 && pass < maxPasses; pass++ {
		out = replace(out, fs)
		fs = r.Find(out)
	}
	return out, findings
}

// Mark is the text that replaces a secret of the given kind.
func Mark(kind string) string {
	return "[REDACTED:" + kind + "]"
}

// secretSpan picks the first capture group that took part in the match, else the whole match.
func secretSpan(m []int) (int, int) {
	for g := 2; g+1 < len(m); g += 2 {
		if m[g] >= 0 {
			return m[g], m[g+1]
		}
	}
	return m[0], m[1]
}

// ranked is a finding with its rule's position: lower is more specific.
type ranked struct {
	Finding
	prio int
}

// merge sorts findings and joins overlapping ones, keeping the kind of the most specific rule
// among those that start first.
func merge(found []ranked) []Finding {
	if len(found) == 0 {
		return nil
	}
	slices.SortFunc(found, func(a, b ranked) int {
		return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(a.prio, b.prio), cmp.Compare(b.End, a.End))
	})
	out := []Finding{found[0].Finding}
	for _, f := range found[1:] {
		last := &out[len(out)-1]
		if f.Start < last.End {
			last.End = max(last.End, f.End)
			continue
		}
		out = append(out, f.Finding)
	}
	return out
}

// replace swaps each finding's text for its mark; fs is sorted and not overlapping.
func replace(s string, fs []Finding) string {
	var b strings.Builder
	b.Grow(len(s))
	prev := 0
	for _, f := range fs {
		b.WriteString(s[prev:f.Start])
		b.WriteString(Mark(f.Kind))
		prev = f.End
	}
	b.WriteString(s[prev:])
	return b.String()
}
