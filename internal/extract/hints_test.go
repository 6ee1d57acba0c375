package extract

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dreamd/dreamd/internal/textsim"
)

// TestAlikeAgreesWithTextsim: the pairwise comparison over numbered words scores every pair as
// textsim.Jaccard and textsim.Containment of the word sets do.
func TestAlikeAgreesWithTextsim(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	vocab := make([]string, 40)
	for i := range vocab {
		vocab[i] = fmt.Sprintf("word%c%c", 'a'+i%26, 'a'+i/26)
	}
	sets := make([]textsim.Set, 200)
	for i := range sets {
		words := make([]string, rng.IntN(12))
		for j := range words {
			words[j] = vocab[rng.IntN(len(vocab))]
		}
		sets[i] = textsim.NewSet(strings.Join(words, " "))
	}
	ids := wordIDs(sets)
	for i := range sets {
		for j := range sets {
			got, gotOK := alike(ids[i], ids[j])
			want, wantOK := alikeBySets(sets[i], sets[j])
			if got != want || gotOK != wantOK {
				t.Fatalf("pair %d, %d: alike = %v, %v; textsim says %v, %v", i, j, got, gotOK, want, wantOK)
			}
		}
	}
}

// alikeBySets is alike over textsim's sets, as it was computed before the words were numbered.
func alikeBySets(a, b textsim.Set) (float64, bool) {
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
