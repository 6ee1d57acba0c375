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
	words := wordIDs(sets)
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
			if s, ok := alike(words[i], words[j]); ok {
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

// alike scores two word sets and says whether they pass either threshold: textsim.Jaccard and
// textsim.Containment of the sets, from one count of their overlap.
func alike(a, b []int32) (float64, bool) {
	if len(a) == 0 && len(b) == 0 {
		return 0, false
	}
	inter := overlap(a, b)
	j := float64(inter) / float64(len(a)+len(b)-inter)
	if j >= dupJaccard {
		return j, true
	}
	if small := min(len(a), len(b)); small >= dupMinWords {
		if c := float64(inter) / float64(small); c >= dupContainment {
			return c, true
		}
	}
	return j, false
}

// wordIDs gives every word of sets a number and each set its sorted numbers, so the overlap of a
// pair is a merge of two short lists rather than a map lookup per word: the candidates are
// compared pairwise, 80,000 pairs among 400.
func wordIDs(sets []textsim.Set) [][]int32 {
	ids := map[string]int32{}
	out := make([][]int32, len(sets))
	for i, set := range sets {
		list := make([]int32, 0, len(set))
		for w := range set {
			id, ok := ids[w]
			if !ok {
				id = int32(len(ids))
				ids[w] = id
			}
			list = append(list, id)
		}
		slices.Sort(list)
		out[i] = list
	}
	return out
}

// overlap counts the numbers two sorted lists share.
func overlap(a, b []int32) int {
	n := 0
	for len(a) > 0 && len(b) > 0 {
		switch {
		case a[0] < b[0]:
			a = a[1:]
		case a[0] > b[0]:
			b = b[1:]
		default:
			n++
			a, b = a[1:], b[1:]
		}
	}
	return n
}
