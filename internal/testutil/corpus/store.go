package corpus

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/store"
)

// WriteStore writes a Claude Code memory store of n topic files in dir (created if missing), plus
// the MEMORY.md index the store derives from them, and returns the bytes written.
// Memories are the same for the same seed.
func WriteStore(dir string, n int, seed int64) (int64, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, err
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 0x6d656d73))
	type entry struct{ name, typ, desc string }
	var entries []entry
	var total int64
	for i := range n {
		e := entry{
			name: fmt.Sprintf("%s-%s-%s-%d", pick(rng, verbs), pick(rng, nouns), pick(rng, nouns), i),
			typ:  pick(rng, memory.TypeNames()),
		}
		e.desc = memoryDescription(rng)
		data := memoryFile(rng, e.name, e.typ, e.desc)
		if err := os.WriteFile(filepath.Join(dir, e.name+".md"), data, 0o644); err != nil {
			return total, err
		}
		total += int64(len(data))
		entries = append(entries, e)
	}
	mems := make([]*store.Memory, len(entries))
	for i, e := range entries {
		mems[i] = &store.Memory{Name: e.name, Type: memory.Type(e.typ), Description: e.desc}
	}
	index := store.RenderIndexWithin(mems, memory.DefaultLimits.IndexLineMax)
	if err := os.WriteFile(filepath.Join(dir, store.IndexFile), index, 0o644); err != nil {
		return total, err
	}
	return total + int64(len(index)), nil
}

// memoryDescription is one line within the format's description cap.
func memoryDescription(rng *rand.Rand) string {
	n, m, v := pick(rng, nouns), pick(rng, nouns), pick(rng, verbs)
	d := fmt.Sprintf("%s%s must %s the %s before the %s is %s", title(v), title(n), v, m, n, pick(rng, adjectives))
	return d[:min(len(d), memory.DefaultLimits.DescriptionMax)]
}

// memoryFile is a topic file: front matter, then a body with the lesson, why and how to apply it.
func memoryFile(rng *rand.Rand, name, typ, desc string) []byte {
	var b strings.Builder
	day := 1 + rng.IntN(28)
	fmt.Fprintf(&b, "---\nname: %s\ndescription: %s\ntype: %s\ncreated: 2026-08-%02d\nupdated: 2026-09-%02d\nsources: [claude:%s]\n---\n",
		name, desc, typ, day, day, newUUID(rng))
	for range 1 + rng.IntN(4) {
		b.WriteString(sentence(rng))
		b.WriteByte(' ')
	}
	b.WriteString("\n\n**Why:** ")
	b.WriteString(sentence(rng))
	b.WriteString("\n**How to apply:** ")
	b.WriteString(sentence(rng))
	b.WriteByte('\n')
	return []byte(b.String())
}
