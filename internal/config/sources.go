package config

import (
	"os"
	"path/filepath"
	"runtime"
)

// Sources on by default. Claude Code's, Codex's, Gemini CLI's, Qwen Code's and Copilot CLI's are always listed (a user without
// one is told its folder does not exist); the other agents' are listed only where the agent has
// left its folder, so that a user of none of them is not told of a dozen missing folders.

// presentSources lists the default sources of the agents found on this machine, given the home
// directory, the configuration home ($XDG_CONFIG_HOME) and the operating system.
func presentSources(home, configDir, goos string) []map[string]any {
	var out []map[string]any
	add := func(kind, path string) {
		if fi, err := os.Stat(path); err == nil && fi.IsDir() {
			out = append(out, map[string]any{"kind": kind, "path": path})
		}
	}
	// Cline CLI 3.x keeps sessions/, earlier versions tasks/: one source reads both.
	add("cline", filepath.Join(home, ".cline", "data"))
	for _, dir := range vscodeGlobalStorage(home, configDir, goos) {
		add("cline", filepath.Join(dir, clineExtension, "tasks"))
	}
	add("cursor-agent", filepath.Join(home, ".cursor", "projects"))
	return out
}

// clineExtension is the Cline VS Code extension's id, the name of its globalStorage folder.
const clineExtension = "saoudrizwan.claude-dev"

// vscodeEditors are the editors that run VS Code extensions, by their folder's name.
var vscodeEditors = []string{"Code", "Code - Insiders", "Cursor", "VSCodium", "Windsurf"}

// vscodeGlobalStorage lists where VS Code and its forks keep extensions' global storage: under the
// configuration home on Linux, Application Support on macOS, and the remote server's data folder.
func vscodeGlobalStorage(home, configDir, goos string) []string {
	base := configDir
	if goos == "darwin" {
		base = filepath.Join(home, "Library", "Application Support")
	}
	var out []string
	for _, editor := range vscodeEditors {
		out = append(out, filepath.Join(base, editor, "User", "globalStorage"))
	}
	for _, remote := range []string{".vscode-server", ".vscode-remote", ".cursor-server"} {
		out = append(out, filepath.Join(home, remote, "data", "User", "globalStorage"))
	}
	return out
}

// defaultSources is the sources key's default.
func defaultSources() []map[string]any {
	home, _ := os.UserHomeDir()
	sources := []map[string]any{
		{"kind": "claude", "path": "~/.claude/projects"},
		{"kind": "codex", "path": "~/.codex/sessions"},
		// Gemini CLI: a user without it is told its folder does not exist, as for Codex.
		{"kind": "gemini", "path": "~/.gemini/tmp"},
		{"kind": "qwen", "path": "~/.qwen/projects"},
		{"kind": "copilot", "path": "~/.copilot/session-state"},
	}
	if home == "" {
		return sources
	}
	sources = append(sources, presentSources(home, configHome(), runtime.GOOS)...)
	return append(sources, presentDatabases(dataHome())...)
}
