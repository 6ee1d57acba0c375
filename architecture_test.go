package dreamd

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/dreamd/dreamd"

// layer is one row of ARCHITECTURE.md's package table: the packages it names and the packages of
// ours they may import.
type layer struct {
	packages []string // module-relative ("internal/store"); a trailing "/…" names a whole tree
	any      bool     // "any": every package of ours but internal/testutil/…
	imports  []string // module-relative
}

// TestArchitecture holds every package of the module to the imports ARCHITECTURE.md's table
// allows it, so the layering the map describes is the one the code has.
func TestArchitecture(t *testing.T) {
	layers := readLayers(t, "ARCHITECTURE.md")
	for pkg, imports := range ourImports(t) {
		l, ok := layerOf(layers, pkg)
		if !ok {
			t.Errorf("%s is in no row of ARCHITECTURE.md's package table: add it there", orRoot(pkg))
			continue
		}
		for _, imp := range imports {
			if !l.allows(pkg, imp) {
				t.Errorf("%s imports %s, which its row of ARCHITECTURE.md's package table does not allow", orRoot(pkg), orRoot(imp))
			}
		}
	}
}

// TestArchitectureTable: the table's parser reads the rows as written, so a test that passes is
// not one that read nothing.
func TestArchitectureTable(t *testing.T) {
	layers := readLayers(t, "ARCHITECTURE.md")
	tests := []struct {
		pkg, imp string
		allowed  bool
	}{
		{"internal/store", "internal/memory", true},
		{"internal/store", "internal/transcript", false},
		{"internal/transcript", "internal/memory", false},
		{"internal/extract/offline", "internal/extract", true},
		{"internal/phases", "internal/transcript", true},
		{"internal/service", "", true}, // the root package, for its embedded templates
		{"cmd/dreamd", "internal/phases", true},
		{"cmd/dreamd", "internal/testutil/llmtest", false},
		{"scripts/gencorpus", "internal/testutil/corpus", true},
		{"internal/testutil/corpus", "internal/store", true},
		{"internal/sanitize", "internal/lazyre", false},
	}
	for _, tt := range tests {
		l, ok := layerOf(layers, tt.pkg)
		if !ok {
			t.Errorf("%s: in no row", tt.pkg)
			continue
		}
		if got := l.allows(tt.pkg, tt.imp); got != tt.allowed {
			t.Errorf("%s importing %s: allowed = %v, want %v", tt.pkg, orRoot(tt.imp), got, tt.allowed)
		}
	}
}

var backticked = regexp.MustCompile("`([^`]+)`")

// readLayers parses the package table: the first column names packages in backticks, the last
// says what they may import ("any", "—", or short names in backticks).
func readLayers(t *testing.T, path string) []layer {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var layers []layer
	in := false
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "| package |") {
			in = true
			continue
		}
		if !in || strings.HasPrefix(line, "| ---") {
			continue
		}
		if !strings.HasPrefix(line, "|") {
			break // the end of the table
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		layers = append(layers, parseRow(t, cells[0], cells[len(cells)-1]))
	}
	if len(layers) < 10 {
		t.Fatalf("read %d rows from %s's package table; is its header still \"| package |\"?", len(layers), path)
	}
	return layers
}

func parseRow(t *testing.T, first, last string) layer {
	t.Helper()
	var l layer
	for _, m := range backticked.FindAllStringSubmatch(first, -1) {
		l.packages = append(l.packages, modulePath(m[1]))
	}
	switch last = strings.TrimSpace(last); last {
	case "any":
		l.any = true
	case "—":
	default:
		for _, m := range backticked.FindAllStringSubmatch(last, -1) {
			l.imports = append(l.imports, shortPath(m[1]))
		}
		if len(l.imports) == 0 {
			t.Fatalf("the row of %v allows %q: want any, — or names in backticks", l.packages, last)
		}
	}
	return l
}

// modulePath reads a package as the first column writes it: a path, "dreamd" for the root.
func modulePath(s string) string {
	if s == "dreamd" {
		return ""
	}
	return s
}

// shortPath reads a package as the last column writes it: "store" is internal/store.
func shortPath(s string) string {
	if s == "dreamd" {
		return ""
	}
	return "internal/" + s
}

func layerOf(layers []layer, pkg string) (layer, bool) {
	for _, l := range layers {
		for _, p := range l.packages {
			if p == pkg || strings.HasSuffix(p, "/…") && strings.HasPrefix(pkg, strings.TrimSuffix(p, "…")) {
				return l, true
			}
		}
	}
	return layer{}, false
}

// allows reports whether pkg, of this layer, may import imp. internal/testutil is test support:
// only scripts and testutil itself import it outside tests, whatever their row says.
func (l layer) allows(pkg, imp string) bool {
	if strings.HasPrefix(imp, "internal/testutil/") {
		return strings.HasPrefix(pkg, "scripts/") || strings.HasPrefix(pkg, "internal/testutil/")
	}
	return l.any || slices.Contains(l.imports, imp)
}

// ourImports maps every package of the module to the packages of ours it imports (its test
// files aside), both module-relative.
func ourImports(t *testing.T) map[string][]string {
	t.Helper()
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	pkgs := map[string][]string{}
	for line := range strings.Lines(string(out)) {
		fields := strings.Fields(line)
		var ours []string
		for _, imp := range fields[1:] {
			if rel, ok := relative(imp); ok {
				ours = append(ours, rel)
			}
		}
		pkg, _ := relative(fields[0])
		pkgs[pkg] = ours
	}
	if len(pkgs) < 10 {
		t.Fatalf("go list found %d packages", len(pkgs))
	}
	return pkgs
}

// relative is path relative to the module ("" for its root), and whether it is in the module.
func relative(path string) (string, bool) {
	if path == module {
		return "", true
	}
	rel, ok := strings.CutPrefix(path, module+"/")
	return rel, ok
}

func orRoot(pkg string) string {
	if pkg == "" {
		return "the module's root package"
	}
	return pkg
}
