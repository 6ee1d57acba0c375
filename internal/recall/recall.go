// Package recall ranks memories against a free-text query: BM25 over the name, description and
// body of each memory (weighted in that order), with English stemming, so "deploying" finds a
// memory about "deploys". It reads nothing itself: the caller hands it the memories.
package recall

import (
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kljensen/snowball/english"
)

// Doc is one memory as search sees it.
type Doc struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Description string `json:"description"`
	Body        string `json:"-"`
	Path        string `json:"path"`
	Archived    bool   `json:"archived"`
}

// Hit is a Doc that matched, with its score and the passage that matched best.
type Hit struct {
	Doc
	Score   float64 `json:"score"`
	Snippet string  `json:"snippet"`
}

// Field weights: a word in a memory's name says more about it than one in its description, and
// that more than one in its body.
const (
	nameWeight = 3.0
	descWeight = 2.0
	bodyWeight = 1.0

	// BM25's usual constants: term-frequency saturation and length normalisation.
	k1 = 1.2
	b  = 0.75
)

// Search returns at most limit docs that share a stemmed word with query, best first; ties go by
// name, so the order is stable. limit <= 0 means all.
func Search(docs []Doc, query string, limit int) []Hit {
	terms := queryTerms(query)
	if len(terms) == 0 || len(docs) == 0 {
		return nil
	}
	m := newMatcher(terms)
	tfs := make([][]float64, len(docs)) // weighted term frequency per doc and term
	lens := make([]float64, len(docs))  // weighted length per doc
	df := make([]int, len(terms))
	total := 0.0
	for i, d := range docs {
		tf := make([]float64, len(terms))
		lens[i] = m.count(d.Name, nameWeight, tf) + m.count(d.Description, descWeight, tf) + m.count(d.Body, bodyWeight, tf)
		total += lens[i]
		for t, f := range tf {
			if f > 0 {
				df[t]++
			}
		}
		tfs[i] = tf
	}
	avg := max(total/float64(len(docs)), 1)
	var hits []Hit
	for i, tf := range tfs {
		score := 0.0
		for t, f := range tf {
			if f == 0 {
				continue
			}
			idf := math.Log(1 + (float64(len(docs))-float64(df[t])+0.5)/(float64(df[t])+0.5))
			score += idf * f * (k1 + 1) / (f + k1*(1-b+b*lens[i]/avg))
		}
		if score > 0 {
			hits = append(hits, Hit{Doc: docs[i], Score: math.Round(score*1000) / 1000})
		}
	}
	slices.SortStableFunc(hits, func(x, y Hit) int {
		if x.Score != y.Score {
			if x.Score > y.Score {
				return -1
			}
			return 1
		}
		return strings.Compare(x.Name, y.Name)
	})
	if limit > 0 && len(hits) > limit {
		hits = hits[:limit]
	}
	for i := range hits {
		hits[i].Snippet = snippet(hits[i].Doc, m)
	}
	return hits
}

// queryTerms are the distinct stems of the query's words, stop words left out unless the query
// is nothing else.
func queryTerms(query string) []string {
	var terms, stops []string
	for _, w := range words(query) {
		s := english.Stem(w, true)
		if english.IsStopWord(w) {
			stops = append(stops, s)
			continue
		}
		if !slices.Contains(terms, s) {
			terms = append(terms, s)
		}
	}
	if len(terms) == 0 {
		return slices.Compact(stops)
	}
	return terms
}

// words splits text into lower-case runs of letters and digits; "deploy-with-deploy-sh" and
// "deploy.sh" both yield "deploy".
func words(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// matcher tells which query term a word stems to. Stemming every word of every memory would cost
// most of a search, so a word is stemmed only when it begins like one of the terms (a stem is
// nearly always a prefix of its words), and each distinct word at most once.
type matcher struct {
	terms    []string
	prefixes map[string]bool
	seen     map[string]int // word → index of its term, -1 for none
}

const prefixLen = 3

func newMatcher(terms []string) *matcher {
	m := &matcher{terms: terms, prefixes: map[string]bool{}, seen: map[string]int{}}
	for _, t := range terms {
		m.prefixes[head(t)] = true
	}
	return m
}

func head(s string) string {
	n := 0
	for i := range s {
		if n == prefixLen {
			return s[:i]
		}
		n++
	}
	return s
}

// term is the index of the query term word stems to, or -1.
func (m *matcher) term(word string) int {
	if !m.prefixes[head(word)] {
		return -1
	}
	if t, ok := m.seen[word]; ok {
		return t
	}
	t := slices.Index(m.terms, english.Stem(word, true))
	m.seen[word] = t
	return t
}

// count adds weight to tf for every word of text that matches a term, and returns text's
// weighted length in words.
func (m *matcher) count(text string, weight float64, tf []float64) float64 {
	n := 0
	for _, w := range words(text) {
		n++
		if t := m.term(w); t >= 0 {
			tf[t] += weight
		}
	}
	return float64(n) * weight
}

// matches counts the distinct terms in text.
func (m *matcher) matches(text string) int {
	found := map[int]bool{}
	for _, w := range words(text) {
		if t := m.term(w); t >= 0 {
			found[t] = true
		}
	}
	return len(found)
}

// snippetMax is the longest snippet, in characters.
const snippetMax = 160

// snippet is the body line holding the most query terms (the description when no body line
// matches better), cut to snippetMax characters around its first match.
func snippet(d Doc, m *matcher) string {
	best, bestN := d.Description, m.matches(d.Description)
	for line := range strings.Lines(d.Body) {
		line = strings.TrimSpace(line)
		if n := m.matches(line); n > bestN {
			best, bestN = line, n
		}
	}
	return cutAround(strings.Join(strings.Fields(best), " "), m)
}

// cutAround shortens s to snippetMax characters, starting a little before its first match.
func cutAround(s string, m *matcher) string {
	if utf8.RuneCountInString(s) <= snippetMax {
		return s
	}
	start := 0
	for i, w := range strings.Fields(s) {
		if m.matches(w) > 0 {
			start = i
			break
		}
	}
	fields := strings.Fields(s)[max(start-3, 0):]
	out := strings.Join(fields, " ")
	if start > 3 {
		out = "… " + out
	}
	if r := []rune(out); len(r) > snippetMax {
		out = strings.TrimSpace(string(r[:snippetMax-1])) + "…"
	}
	return out
}
