package store

import (
	"strings"
	"testing"
)

func TestDiff(t *testing.T) {
	changes := []Change{
		{Name: "zeta.md", Old: []byte("---\nname: zeta\n---\nold body\n"), New: nil},
		{Name: "MEMORY.md", Old: []byte("# Memory\n\n## Project\n- [zeta](zeta.md) — z\n"), New: []byte("# Memory\n\n## Project\n- [alpha](alpha.md) — a\n")},
		{Name: "alpha.md", Old: nil, New: []byte("---\nname: alpha\n---\nnew\nbody")},
		{Name: "same.md", Old: []byte("x\n"), New: []byte("x\n")},
		{Name: "empty.md", Old: nil, New: []byte{}},
		{Name: "long.md", Old: []byte(strings.Repeat("line\n", 12) + "end\n"), New: []byte("start\n" + strings.Repeat("line\n", 12) + "END\n")},
	}
	checkGolden(t, "diff.golden", []byte(Diff(changes)))
	if d := Diff([]Change{{Name: "a.md", Old: []byte("a"), New: []byte("a")}}); d != "" {
		t.Errorf("unchanged file diffs as %q", d)
	}
}
