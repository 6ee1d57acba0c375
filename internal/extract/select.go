package extract

import (
	"cmp"
	"slices"
	"strings"

	"github.com/dreamd/dreamd/internal/textsim"
	"github.com/dreamd/dreamd/internal/tokens"
)

// selectBodies picks the memory bodies to send when not all of them fit the budget: most relevant
// to the digest first, skipping any that would overflow, then checked against the exact count of
// the rendered prompt (token counts of parts do not add up exactly).
func (p *promptData) selectBodies(budget int) map[string]bool {
	include := map[string]bool{}
	_, used := p.render(include)
	ranked := p.byRelevance()
	for _, m := range ranked {
		cost := tokens.Count(renderMemory(m, true)) - tokens.Count(renderMemory(m, false))
		if used+cost <= budget {
			include[m.Name] = true
			used += cost
		}
	}
	for i := len(ranked) - 1; i >= 0; i-- {
		name := ranked[i].Name
		if !include[name] {
			continue
		}
		if _, total := p.render(include); total <= budget {
			break
		}
		delete(include, name)
	}
	return include
}

// byRelevance orders the memories by the lexical relevance of their text to the digest (rare
// shared words weigh most), then the most recently updated, then by name.
func (p *promptData) byRelevance() []Memory {
	docs := make([]textsim.Set, len(p.memories))
	for i, m := range p.memories {
		docs[i] = textsim.NewSet(m.Name + " " + m.Description + " " + m.Body)
	}
	df := textsim.NewDocFreq(docs)
	query := textsim.Counts(p.digest)
	type scored struct {
		m     Memory
		score float64
	}
	all := make([]scored, len(p.memories))
	for i, m := range p.memories {
		all[i] = scored{m, textsim.Relevance(docs[i], query, df)}
	}
	slices.SortStableFunc(all, func(a, b scored) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		if c := strings.Compare(b.m.Updated, a.m.Updated); c != 0 {
			return c
		}
		return strings.Compare(a.m.Name, b.m.Name)
	})
	out := make([]Memory, len(all))
	for i, s := range all {
		out[i] = s.m
	}
	return out
}
