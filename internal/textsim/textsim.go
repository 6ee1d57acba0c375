// Package textsim is the lexical similarity shared by near-duplicate detection and prompt
// selection: normalized word sets, Jaccard overlap and a relevance score. Deterministic and cheap.
package textsim

import (
	"slices"
	"strings"
	"unicode"
)

// stopwords carry no meaning for deciding whether two lessons say the same thing.
var stopwords = wordSet(`a an the and or but of to in on at for with by from as is are was
	were be been being it its this that these those we our us you your i me my they them their he she
	his her do does did done have has had will would should can could may might must shall so than
	then there here also just only very too into onto about over under up down out off not no yes
	please remember note always never from now on use using used`)

func wordSet(words string) map[string]bool {
	set := map[string]bool{}
	for _, w := range strings.Fields(words) {
		set[w] = true
	}
	return set
}

// Words returns the normalized content words of s: lower case, split on anything that is not a
// letter or digit, stopwords dropped, plural and -ing/-ed endings folded.
func Words(s string) []string {
	fields := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	out := make([]string, 0, len(fields))
	add := func(w string) {
		if !stopwords[w] && len(w) >= 2 {
			out = append(out, stem(w))
		}
	}
	for _, f := range fields {
		if !strings.ContainsFunc(f, unspaced) {
			add(f) // the common case: a word of a script written with spaces, kept as it is
			continue
		}
		for _, w := range scriptWords(f) {
			add(w)
		}
	}
	return out
}

// scriptWords splits a field where its script changes, and a run of a script written without
// spaces (Han, kana, Hangul) into its character pairs: "帮我写进codex的全局" is "帮我", "我写", "写进",
// "codex", "的全", "全局" (a lone character, 用 before pnpm, is dropped), so that two Chinese sentences that say the same thing in a few more or
// fewer characters share most of their words, as two English ones do.
func scriptWords(f string) []string {
	var out []string
	var run []rune
	cjk := false
	flush := func() {
		switch {
		case len(run) == 0 || cjk && len(run) == 1:
			// a lone character says little alone, as a one-letter word does
		case !cjk:
			out = append(out, string(run))
		default:
			for i := 0; i+1 < len(run); i++ {
				out = append(out, string(run[i:i+2]))
			}
		}
		run = run[:0]
	}
	for _, r := range f {
		c := unspaced(r)
		if len(run) > 0 && c != cjk {
			flush()
		}
		cjk = c
		run = append(run, r)
	}
	flush()
	return out
}

// unspaced reports whether r is of a script written without spaces between words.
func unspaced(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

// stem folds the commonest English endings so "tests", "testing" and "tested" meet.
func stem(w string) string {
	for _, suf := range []string{"ing", "ed", "es", "s"} {
		if len(w) > len(suf)+3 && strings.HasSuffix(w, suf) {
			return w[:len(w)-len(suf)]
		}
	}
	return w
}

// Set is a bag of normalized words.
type Set map[string]struct{}

// NewSet returns the normalized word set of s.
func NewSet(s string) Set {
	set := Set{}
	for _, w := range Words(s) {
		set[w] = struct{}{}
	}
	return set
}

// Jaccard returns |a∩b| / |a∪b|, 0 for two empty sets.
func Jaccard(a, b Set) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 0
	}
	inter := 0
	for w := range a {
		if _, ok := b[w]; ok {
			inter++
		}
	}
	return float64(inter) / float64(len(a)+len(b)-inter)
}

// Containment returns |a∩b| / min(|a|,|b|): high when the shorter text is said within the longer.
func Containment(a, b Set) float64 {
	small, large := a, b
	if len(b) < len(a) {
		small, large = b, a
	}
	if len(small) == 0 {
		return 0
	}
	inter := 0
	for w := range small {
		if _, ok := large[w]; ok {
			inter++
		}
	}
	return float64(inter) / float64(len(small))
}

// Relevance scores how much of doc's vocabulary the query mentions, weighting each shared word by
// its rarity across the corpus (idf, from DocFreq). Higher is more relevant.
// The shared words' weights are added smallest first: added in a map's random order, two calls
// could differ in the last bits, and memories of equal relevance swapped places from one prompt
// to the next.
func Relevance(doc Set, query map[string]int, df DocFreq) float64 {
	var buf [32]float64
	terms := buf[:0]
	for w := range doc {
		if n, ok := query[w]; ok {
			terms = append(terms, df.IDF(w)*(1+float64(min(n, 5))/5))
		}
	}
	slices.Sort(terms)
	score := 0.0
	for _, t := range terms {
		score += t
	}
	return score
}

// DocFreq counts in how many documents each word occurs.
type DocFreq struct {
	N     int
	Count map[string]int
}

// NewDocFreq counts word document frequencies over docs.
func NewDocFreq(docs []Set) DocFreq {
	df := DocFreq{N: len(docs), Count: map[string]int{}}
	for _, d := range docs {
		for w := range d {
			df.Count[w]++
		}
	}
	return df
}

// IDF is the smoothed inverse document frequency of w.
func (df DocFreq) IDF(w string) float64 {
	return 1 + float64(df.N)/float64(1+df.Count[w])
}

// Counts returns how often each normalized word occurs in s (a query for Relevance).
func Counts(s string) map[string]int {
	c := map[string]int{}
	for _, w := range Words(s) {
		c[w]++
	}
	return c
}
