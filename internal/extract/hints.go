package extract

import (
	"cmp"
	"slices"
	"strings"

	"github.com/dreamd/dreamd/internal/textsim"
)

// Thresholds for calling two memories near-duplicates. Jaccard catches two wordings of one lesson;
// containment catches a short memory restated inside a longer one.
const (
	dupJaccard     = 0.5
	dupContainment = 0.8
	dupMinWords    = 5  // below this, containment is chance
	maxHints       = 20 // the likeliest pairs; more would crowd the prompt
)

// nearDuplicates returns pairs of memories whose description and body look alike, likeliest
// first, each pair in name order. Pairs of two pinned memories are left out: nothing may be merged there.
func nearDuplicates(mems []Memory) [][2]string {
	sets := make([]textsim.Set, len(mems))
	for i, m := range mems {
		sets[i] = textsim.NewSet(m.Description + " " + m.Body)
	}
	type pair struct {
		a, b  string
		score float64
	}
	var pairs []pair
	for i := range mems {
		for j := i + 1; j < len(mems); j++ {
			if mems[i].Pinned && mems[j].Pinned {
				continue
			}
			if s, ok := alike(sets[i], sets[j]); ok {
				a, b := mems[i].Name, mems[j].Name
				pairs = append(pairs, pair{min(a, b), max(a, b), s})
			}
		}
	}
	slices.SortFunc(pairs, func(x, y pair) int {
		return cmp.Or(cmp.Compare(y.score, x.score), strings.Compare(x.a, y.a), strings.Compare(x.b, y.b))
	})
	out := make([][2]string, 0, min(len(pairs), maxHints))
	for _, p := range pairs[:min(len(pairs), maxHints)] {
		out = append(out, [2]string{p.a, p.b})
	}
	return out
}

// alike scores two word sets and says whether they pass either threshold.
func alike(a, b textsim.Set) (float64, bool) {
	j := textsim.Jaccard(a, b)
	if j >= dupJaccard {
		return j, true
	}
	if min(len(a), len(b)) >= dupMinWords {
		if c := textsim.Containment(a, b); c >= dupContainment {
			return c, true
		}
	}
	return j, false
}
