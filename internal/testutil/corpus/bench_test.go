package corpus

import "testing"

func BenchmarkGenerate(b *testing.B) {
	const size = 64 << 20
	b.SetBytes(size)
	for b.Loop() {
		if _, err := Generate(b.TempDir(), Options{Projects: 2, Sessions: 20, TotalBytes: size, Seed: 1, Lessons: 4}); err != nil {
			b.Fatal(err)
		}
	}
}
