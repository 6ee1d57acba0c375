package store_test

import (
	"testing"

	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/store"
	"github.com/dreamd/dreamd/internal/testutil/corpus"
)

// benchMemories writes a store of n realistic memories (front matter, a body with why and how)
// plus its MEMORY.md, and returns its directory and size.
func benchMemories(b *testing.B, n int) (string, int64) {
	b.Helper()
	dir := b.TempDir()
	size, err := corpus.WriteStore(dir, n, 1)
	if err != nil {
		b.Fatal(err)
	}
	return dir, size
}

// BenchmarkStoreLoad is orient's read of a store of 500 memories.
func BenchmarkStoreLoad(b *testing.B) {
	dir, size := benchMemories(b, 500)
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		s, err := store.Load(dir)
		if err != nil {
			b.Fatal(err)
		}
		if len(s.Memories) != 500 {
			b.Fatalf("loaded %d memories, want 500", len(s.Memories))
		}
	}
}

// BenchmarkRenderIndex derives MEMORY.md from 500 memories, in full and within the line cap.
func BenchmarkRenderIndex(b *testing.B) {
	dir, _ := benchMemories(b, 500)
	s, err := store.Load(dir)
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name    string
		lineMax int
	}{{"full", 0}, {"within-150", memory.DefaultLimits.IndexLineMax}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			var index []byte
			for b.Loop() {
				index = store.RenderIndexWithin(s.Memories, bc.lineMax)
			}
			b.SetBytes(int64(len(index)))
		})
	}
}
