package store

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"MEMORY.md":         "# Memory\n",
		"b-topic.md":        "---\nname: b-topic\ntype: user\n---\nbody\n",
		"a-topic.md":        "hand written\n",
		"Not A Slug.md":     "kept anyway\n",
		".hidden.md":        "skip",
		"notes.txt":         "skip",
		"sub/inner.md":      "skip",
		".consolidate-lock": "123",
	})
	if err := os.Symlink(filepath.Join(dir, "a-topic.md"), filepath.Join(dir, "linked.md")); err != nil {
		t.Fatal(err)
	}
	s, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range s.Memories {
		names = append(names, m.Name)
	}
	if want := []string{"Not A Slug", "a-topic", "b-topic", "linked"}; !slices.Equal(names, want) {
		t.Errorf("names = %q, want %q", names, want)
	}
	if string(s.Index) != "# Memory\n" {
		t.Errorf("Index = %q", s.Index)
	}
	if s.Memories[2].Type != "user" || string(s.Memories[1].Raw) != "hand written\n" {
		t.Errorf("memories not parsed: %#v %#v", s.Memories[2], s.Memories[1])
	}

	missing, err := Load(filepath.Join(dir, "nope"))
	if err != nil || len(missing.Memories) != 0 || missing.Index != nil {
		t.Errorf("missing dir: %#v, %v", missing, err)
	}

	writeFiles(t, dir, map[string]string{"binary.md": "\x00\x01"})
	s, err = Load(dir)
	if err != nil {
		t.Fatalf("a .md file of control bytes bricks the store: %v", err)
	}
	if got := s.Unclean(); len(got) != 1 || got[0] != "binary.md" {
		t.Errorf("Unclean = %v", got)
	}
}

func TestFingerprint(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.md": "A\n", "MEMORY.md": "# Memory\n"})
	fp := func() string {
		s, err := Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		return s.Fingerprint()
	}
	first := fp()
	if fp() != first {
		t.Fatal("fingerprint not stable")
	}
	steps := []map[string]string{
		{"a.md": "A!\n"},
		{"MEMORY.md": "# Memory\n\n"},
		{"b.md": ""},
		{"notes.txt": "ignored"},
	}
	prev := first
	for i, files := range steps {
		writeFiles(t, dir, files)
		got := fp()
		if changed := got != prev; changed != (i < 3) {
			t.Errorf("step %d (%v): fingerprint changed = %v", i, files, changed)
		}
		prev = got
	}
}

// A topic file that is a link out of the store is not read: it must not carry a file from
// elsewhere (credentials, say) into a prompt. A link inside the store is read.
func TestLoadDoesNotFollowLinksOutOfTheStore(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "creds.md")
	os.WriteFile(outside, []byte("---\nname: creds\n---\nsecret stuff\n"), 0o600)
	writeFiles(t, dir, map[string]string{"real.md": "---\nname: real\n---\nbody\n"})
	if err := os.Symlink(outside, filepath.Join(dir, "creds.md")); err != nil {
		t.Skip(err)
	}
	os.Symlink(filepath.Join(dir, "real.md"), filepath.Join(dir, "alias.md"))
	s, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range s.Memories {
		names = append(names, m.Name)
	}
	if !slices.Equal(names, []string{"alias", "real"}) || !slices.Equal(s.Outside, []string{"creds.md"}) || !s.Memories[0].Link || s.Memories[1].Link {
		t.Errorf("memories %v, outside %v", names, s.Outside)
	}
}
