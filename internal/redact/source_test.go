package redact

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRepositorySourceHasNoFindings measures the false-positive rate on real code and prose: the
// repository's own Go source and documentation hold no secret, so every finding in them is a
// false positive (test files and testdata are left out: they hold fake secrets on purpose). It
// prints the figures with -v.
func TestRepositorySourceHasNoFindings(t *testing.T) {
	root := filepath.Join("..", "..")
	r := newRedactor(t)
	var files, lines, bytes int
	var found []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		// Left out: testdata and the eval suite (fake secrets on purpose), and this package, whose
		// patterns and comments spell out what secrets look like.
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == ".git" || strings.HasPrefix(d.Name(), ".dreamd") ||
			p == filepath.Join(root, "eval", "suite") || p == filepath.Join(root, "internal", "redact")) {
			return filepath.SkipDir
		}
		if d.IsDir() || strings.HasSuffix(p, "_test.go") || !(strings.HasSuffix(p, ".go") || strings.HasSuffix(p, ".md") || strings.HasSuffix(p, ".yaml")) {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files++
		bytes += len(data)
		lines += strings.Count(string(data), "\n")
		for _, f := range r.Find(string(data)) {
			found = append(found, p+": "+f.Kind+": "+string(data[f.Start:f.End]))
		}
		return nil
	})
	t.Logf("scanned %d files, %d lines, %d bytes: %d findings", files, lines, bytes, len(found))
	if files < 50 {
		t.Fatalf("only %d files scanned: wrong root?", files)
	}
	for _, f := range found {
		t.Errorf("false positive: %s", f)
	}
}
