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
	checkGolden(t, "diff.golden", []byte(Diff(changes, nil)))
	if d := Diff([]Change{{Name: "a.md", Old: []byte("a"), New: []byte("a")}}, nil); d != "" {
		t.Errorf("unchanged file diffs as %q", d)
	}
}

// TestDiffRedactsWhatItShows (issue 30): a token a person typed into a memory is not printed in
// the "-" lines of the diff that removes it, nor where the same value appears again (a line no
// rule would see it in); the change itself keeps the bytes, for the journal.
func TestDiffRedactsWhatItShows(t *testing.T) {
	token := "ghp_" + "1a2B3c4D5e6F7g8H9i0JkLmNoPqRsTuVwXyZ"
	old := []byte("---\nname: deploy\n---\nDeploy with " + token + ".\nIts value is " + token[4:] + " without the prefix? No: " + token + "\n")
	changes := []Change{
		{Name: "deploy.md", Old: old, New: []byte("---\nname: deploy\n---\nDeploy with the token in the keychain.\n")},
		{Name: "gone.md", Old: []byte("the same " + token + " again\n")},
	}
	d := Diff(changes, nil)
	if strings.Contains(d, token) {
		t.Errorf("the diff prints the token:\n%s", d)
	}
	if !strings.Contains(d, "-Deploy with [REDACTED:github-token].") {
		t.Errorf("the removed line is not shown redacted:\n%s", d)
	}
	if string(changes[0].Old) != string(old) {
		t.Errorf("the change was redacted in place")
	}
}
