package config

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestPresentSources: the other agents' sources are on by default exactly where the agent has left
// its folder, on each operating system's layout.
func TestPresentSources(t *testing.T) {
	tests := []struct {
		name    string
		goos    string
		folders []string // made under the home directory
		want    []string // kind=path relative to home, in order
	}{
		{"none of them", "linux", nil, nil},
		{"Cline CLI", "linux", []string{".cline/data"}, []string{"cline=.cline/data"}},
		{"Cline in VS Code on Linux", "linux",
			[]string{".config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks"},
			[]string{"cline=.config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks"}},
		{"Cline in VSCodium and a remote VS Code server", "linux",
			[]string{".config/VSCodium/User/globalStorage/saoudrizwan.claude-dev/tasks", ".vscode-server/data/User/globalStorage/saoudrizwan.claude-dev/tasks"},
			[]string{"cline=.config/VSCodium/User/globalStorage/saoudrizwan.claude-dev/tasks", "cline=.vscode-server/data/User/globalStorage/saoudrizwan.claude-dev/tasks"}},
		{"Cline in Cursor on macOS", "darwin",
			[]string{"Library/Application Support/Cursor/User/globalStorage/saoudrizwan.claude-dev/tasks"},
			[]string{"cline=Library/Application Support/Cursor/User/globalStorage/saoudrizwan.claude-dev/tasks"}},
		{"the macOS folder is not read on Linux", "linux",
			[]string{"Library/Application Support/Code/User/globalStorage/saoudrizwan.claude-dev/tasks"}, nil},
		{"VS Code without Cline", "linux", []string{".config/Code/User/globalStorage"}, nil},
		{"Cursor's agent", "linux", []string{".cursor/projects"}, []string{"cursor-agent=.cursor/projects"}},
		{"Cursor without agent transcripts", "linux", []string{".cursor"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			for _, f := range tt.folders {
				if err := os.MkdirAll(filepath.Join(home, filepath.FromSlash(f)), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			var got []string
			for _, s := range presentSources(home, filepath.Join(home, ".config"), tt.goos) {
				rel, err := filepath.Rel(home, s["path"].(string))
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, s["kind"].(string)+"="+filepath.ToSlash(rel))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("sources = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestDefaultsReadPresentAgents: Load lists an installed agent's source after those always
// listed, and every default source is of a known kind.
func TestDefaultsReadPresentAgents(t *testing.T) {
	home := isolate(t)
	if err := os.MkdirAll(filepath.Join(home, ".cline", "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	c, err := Load("", nil)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, s := range c.Sources {
		kinds = append(kinds, s.Kind)
	}
	if want := []string{"claude", "codex", "gemini", "qwen", "copilot", "cline"}; !slices.Equal(kinds, want) {
		t.Errorf("default source kinds = %q, want %q", kinds, want)
	}
	if err := c.Validate(); err != nil {
		t.Errorf("defaults do not validate: %v", err)
	}
}
