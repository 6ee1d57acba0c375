package config

import (
	"os"
	"path/filepath"
)

// presentDatabases lists the default sources of the agents that keep their sessions in SQLite
// databases, where the agent has left its folder under the data home ($XDG_DATA_HOME): OpenCode
// and Kilo (one database each, for every project) and Crush (its projects.json, which lists one
// database per project).
func presentDatabases(dataDir string) []map[string]any {
	var out []map[string]any
	for _, s := range []struct{ kind, dir, path string }{
		{"opencode", "opencode", "opencode.db"},
		{"opencode", "kilo", "kilo.db"},
		{"crush", "crush", ""},
	} {
		dir := filepath.Join(dataDir, s.dir)
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			continue
		}
		out = append(out, map[string]any{"kind": s.kind, "path": filepath.Join(dir, s.path)})
	}
	return out
}
