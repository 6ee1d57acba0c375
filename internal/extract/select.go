package extract

import (
	"cmp"
	"slices"
	"strings"

	"github.com/dreamd/dreamd/internal/cores"
	"github.com/dreamd/dreamd/internal/textsim"
	"github.com/dreamd/dreamd/internal/tokens"
)

// selectBodies picks the memory bodies to send when not all of them fit the budget: most relevant
// to the digest first, skipping any that would overflow, then checked against the exact count of
// the rendered prompt (token counts of parts do not add up exactly), dropping the least relevant
// until it fits. It returns the selection with its rendered message and cost, so the prompt is
// not rendered and counted once more.
func (p *promptData) selectBodies(budget int) (include map[string]bool, msg string, cost int) {
	include = map[string]bool{}
	msg, cost = p.render(include)
	ranked := slices.DeleteFunc(slices.Clone(p.byRelevance()), func(m Memory) bool { return p.brief[m.Name] || p.hidden[m.Name] })
	used := cost
	for _, m := range ranked {
		if used >= budget {
			break // full: the rest cannot get a body either
		}
		body := tokens.Count(renderMemory(m, true)) - p.listingTokens(m)
		if used+body <= budget {
			include[m.Name] = true
			used += body
		}
	}
	if len(include) == 0 {
		return include, msg, cost
	}
	for i := len(ranked) - 1; ; i-- {
		msg, cost = p.render(include)
		for i >= 0 && !include[ranked[i].Name] {
			i-- // to the least relevant body still included
		}
		if cost <= budget || i < 0 {
			return include, msg, cost
		}
		delete(include, ranked[i].Name)
	}
}

// byRelevance orders the memories by the lexical relevance of their text to the digest (rare
// shared words weigh most), then the most recently updated, then by name.
func (p *promptData) byRelevance() []Memory {
	if p.ranked == nil {
		p.ranked = p.rank()
	}
	return p.ranked
}

func (p *promptData) rank() []Memory {
	docs := make([]textsim.Set, len(p.memories))
	cores.Each(len(p.memories), func(i int) {
		m := p.memories[i]
		docs[i] = textsim.NewSet(m.Name + " " + m.Description + " " + m.Body)
	})
	df := textsim.NewDocFreq(docs)
	query := textsim.Counts(p.digest)
	type scored struct {
		m     Memory
		score float64
	}
	all := make([]scored, len(p.memories))
	cores.Each(len(p.memories), func(i int) {
		all[i] = scored{p.memories[i], textsim.Relevance(docs[i], query, df)}
	})
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
