package cite

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestFind(t *testing.T) {
	tests := []struct {
		name, text string
		want       []Citation
	}{
		{"make target in a code span", "Run `make lint` before pushing.", []Citation{{Target, "lint"}}},
		{"make with flags and two targets", "`make -j4 build test V=1`", []Citation{{Target, "build"}, {Target, "test"}}},
		{"make of another directory is not the project's", "`make -C docs html`", nil},
		{"make in prose is no target", "make sure the tree is clean", nil},
		{"npm script", "Use `npm run build:prod`.", []Citation{{Script, "build:prod"}}},
		{"npm test", "`npm test` runs jest", []Citation{{Script, "test"}}},
		{"workspace script is not the root's", "`npm run build -w web`", nil},
		{"path in a span", "Deploys go through `./deploy.sh --prod`", []Citation{{Path, "deploy.sh"}}},
		{"directory in a span", "Fixtures live in `testdata/golden/`", []Citation{{Path, "testdata/golden/"}}},
		{"path in prose", "Deploys go through ./deploy.sh, which tags from HEAD; see internal/store/memory.go.", []Citation{{Path, "deploy.sh"}, {Path, "internal/store/memory.go"}}},
		{"prose slashes are not paths", "client/server and/or TCP/IP", nil},
		{"absolute, home, url and parent paths are not the project's", "`/etc/hosts` `~/x/y.txt` https://example.com/a.html `../other/x.go`", nil},
		{"environment variables", "Set `DATABASE_URL`; the script reads ${API_BASE_URL} and $HOME", []Citation{{Env, "DATABASE_URL"}, {Env, "API_BASE_URL"}}},
		{"package-looking words", "We use `github.com/spf13/cobra` and `left-pad`.", []Citation{{Path, "github.com/spf13/cobra"}, {Package, "github.com/spf13/cobra"}, {Package, "left-pad"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Find(tt.text)
			want := slices.Clone(tt.want)
			slices.SortStableFunc(want, func(a, b Citation) int {
				if a.Kind < b.Kind {
					return -1
				}
				if a.Kind > b.Kind {
					return 1
				}
				return 0
			})
			if !slices.Equal(got, want) {
				t.Errorf("Find(%q) =\n%v\nwant\n%v", tt.text, got, want)
			}
		})
	}
}

func write(t *testing.T, root, name, text string) {
	t.Helper()
	path := filepath.Join(root, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestCheck(t *testing.T) {
	root := t.TempDir()
	write(t, root, "Makefile", ".PHONY: lint\nlint:\n\tgolangci-lint run\nbuild: $(SRC)\n\tgo build\nVAR := x\nCC ?= cc\n")
	write(t, root, "package.json", `{"scripts": {"build": "tsc"}, "dependencies": {"react": "18"}, "devDependencies": {"jest": "29"}}`)
	write(t, root, ".env.example", "DATABASE_URL=postgres://localhost/db\nexport API_KEY_NAME=\n")
	write(t, root, "go.mod", "module example.com/x\n\nrequire (\n\tgithub.com/spf13/cobra v1.8.0\n)\n")
	write(t, root, "scripts/deploy.sh", "#!/bin/sh\n")
	held := Held{"path:scripts/gone.sh": true, "env:OLD_TOKEN_NAME": true, "package:lodash": true, "path:docs/": true}

	tests := []struct {
		c        Citation
		holds    bool
		stale    bool
		whyMatch string
	}{
		{Citation{Target, "lint"}, true, false, ""},
		{Citation{Target, "build"}, true, false, ""},
		{Citation{Target, "test"}, false, true, `Makefile has no target "test"`},
		{Citation{Target, "VAR"}, false, true, ""}, // a variable is no target
		{Citation{Script, "build"}, true, false, ""},
		{Citation{Script, "e2e"}, false, true, `package.json has no script "e2e"`},
		{Citation{Path, "scripts/deploy.sh"}, true, false, ""},
		{Citation{Path, "scripts/"}, true, false, ""},
		{Citation{Path, "scripts/deploy.sh/"}, false, false, ""}, // a file where a directory was named, never held
		{Citation{Path, "scripts/never-there.sh"}, false, false, ""},
		{Citation{Path, "scripts/gone.sh"}, false, true, "scripts/gone.sh is not in the project (it did at an earlier pass)"},
		{Citation{Path, "docs/"}, false, true, ""},
		{Citation{Env, "DATABASE_URL"}, true, false, ""},
		{Citation{Env, "API_KEY_NAME"}, true, false, ""},
		{Citation{Env, "NEVER_LISTED"}, false, false, ""},
		{Citation{Env, "OLD_TOKEN_NAME"}, false, true, ""},
		{Citation{Package, "react"}, true, false, ""},
		{Citation{Package, "jest"}, true, false, ""},
		{Citation{Package, "github.com/spf13/cobra"}, true, false, ""},
		{Citation{Package, "left-pad"}, false, false, ""},
		{Citation{Package, "lodash"}, false, true, ""},
	}
	p := NewProject(root)
	for _, tt := range tests {
		t.Run(tt.c.String(), func(t *testing.T) {
			holding, stale := p.Check([]Citation{tt.c}, held)
			if got := len(holding) == 1; got != tt.holds {
				t.Errorf("holds = %v, want %v", got, tt.holds)
			}
			if got := len(stale) == 1; got != tt.stale {
				t.Fatalf("stale = %v, want %v (%v)", got, tt.stale, stale)
			}
			if tt.whyMatch != "" && stale[0].Why != tt.whyMatch {
				t.Errorf("why = %q, want %q", stale[0].Why, tt.whyMatch)
			}
		})
	}
}

// With no manifest at all, nothing a memory names is denied.
func TestCheckWithoutManifests(t *testing.T) {
	p := NewProject(t.TempDir())
	cs := []Citation{{Target, "lint"}, {Script, "build"}, {Env, "DATABASE_URL"}, {Package, "react"}, {Path, "src/app.ts"}}
	holding, stale := p.Check(cs, nil)
	if len(holding) != 0 || len(stale) != 0 {
		t.Errorf("Check = %v, %v; want neither", holding, stale)
	}
}

// An include or a pattern rule could define any target: none is reported gone.
func TestOpenMakefile(t *testing.T) {
	for _, mk := range []string{"include common.mk\nlint:\n", "%.o: %.c\n\tcc $<\n", "-include local.mk\n", "$(TARGETS):\n\techo\n"} {
		root := t.TempDir()
		write(t, root, "Makefile", mk)
		if _, stale := NewProject(root).Check([]Citation{{Target, "test"}}, nil); len(stale) != 0 {
			t.Errorf("Makefile %q: %v", mk, stale)
		}
	}
}

// A root package.json with workspaces may run a workspace's script: none is reported gone.
func TestWorkspaces(t *testing.T) {
	root := t.TempDir()
	write(t, root, "package.json", `{"workspaces": ["web"], "scripts": {}}`)
	if _, stale := NewProject(root).Check([]Citation{{Script, "build"}}, nil); len(stale) != 0 {
		t.Errorf("stale = %v", stale)
	}
}

func FuzzFind(f *testing.F) {
	for _, s := range []string{"`make lint`", "see ./a/b.go.", "`npm run x -w y`", "${A_B}", "``", "`a/`"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, c := range Find(s) {
			if c.Name == "" {
				t.Fatalf("empty citation from %q", s)
			}
		}
	})
}
