package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/dreamd/dreamd/internal/testutil/golden"
)

// inProcess runs dreamd's command line in this process, as main does, and returns stdout, stderr
// and the exit code.
func inProcess(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	g := &globalOptions{Out: &out, Err: &errOut}
	cmd := newRootCmd(g)
	cmd.SetArgs(args)
	err := cmd.ExecuteContext(context.Background())
	if err != nil {
		fmt.Fprintln(&errOut, "dreamd:", err)
	}
	return out.String(), errOut.String(), exitCode(err)
}

// TestJSONContract drives every command with --format json over the bundled examples and pins
// the shape of each document (keys and value types) in testdata/json/<command>.golden: keys are
// snake_case, "version" comes first, and nothing is null — a list is [] when empty.
func TestJSONContract(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("XDG_STATE_HOME", "")
	t.Setenv("XDG_DATA_HOME", "")
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("NO_COLOR", "1")
	examples, err := filepath.Abs("../../examples")
	if err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(home, "dreamd.yaml")
	writeFile(t, cfg, fmt.Sprintf(`sources:
  - {kind: claude, path: %[1]s/claude}
  - {kind: codex, path: %[1]s/codex}
  - {kind: aider, path: %[1]s/aider, project: /home/demo/shop}
store: {mode: claude, root: %[2]s/projects}
state_dir: %[2]s/state
llm: {offline: true}
`, examples, home))
	shop := filepath.Join(home, "projects", "-home-demo-shop", "memory")
	plans := filepath.Join(home, "plans")
	if err := os.Mkdir(plans, 0o755); err != nil {
		t.Fatal(err)
	}

	steps := []struct {
		name string
		args []string
	}{
		{"version", []string{"version"}},
		{"sessions", []string{"sessions"}},
		{"status-empty", []string{"status"}},
		{"history-empty", []string{"history"}},
		{"run-dry", []string{"run", "--once", "--dry-run"}},
		{"plan", []string{"plan", "-o", plans}},
		{"discard", []string{"discard"}},
		{"run", []string{"run", "--once"}},
		{"status", []string{"status"}},
		{"history", []string{"history"}},
		{"gc", []string{"gc"}},
		{"recall", []string{"recall", "lint", "--store", shop}},
		{"preamble", []string{"preamble", "--store", shop}},
		{"remember", []string{"remember", "integration tests need docker compose up first", "--store", shop}},
		{"link", []string{"link", "codex", "--project", home}},
		{"unlink", []string{"unlink", "codex", "--project", home}},
		{"rollback", []string{"rollback", "--store", shop}},
		{"man", []string{"man", filepath.Join(home, "man")}},
		{"doctor", []string{"doctor"}},
		{"eval", []string{"eval", "--offline", "--run", "^0[12]-"}},
	}
	for _, step := range steps {
		args := append([]string{"--config", cfg, "--format", "json"}, step.args...)
		out, errOut, code := inProcess(t, args...)
		if code != 0 && step.name != "doctor" { // doctor fails checks here (no service, no endpoint)
			t.Fatalf("%s: exit %d\n%s\n%s", step.name, code, out, errOut)
		}
		var doc any
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("%s: stdout is not one JSON document: %v\n%s", step.name, err, out)
		}
		if problems := contractProblems(doc, ""); len(problems) > 0 {
			t.Errorf("%s: %s", step.name, strings.Join(problems, "; "))
		}
		if !strings.HasPrefix(out, "{\n  \"version\": ") {
			t.Errorf("%s: the document does not start with its version:\n%.200s", step.name, out)
		}
		golden.Check(t, filepath.Join("testdata", "json", step.name+".golden"), []byte(shape(doc, "")+"\n"))
	}
}

var snakeCase = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// contractProblems lists what breaks the output contract in a decoded document.
func contractProblems(v any, path string) []string {
	var out []string
	switch v := v.(type) {
	case nil:
		out = append(out, path+" is null")
	case map[string]any:
		for k, x := range v {
			if !snakeCase.MatchString(k) {
				out = append(out, fmt.Sprintf("key %s.%s is not snake_case", path, k))
			}
			out = append(out, contractProblems(x, path+"."+k)...)
		}
	case []any:
		for i, x := range v {
			out = append(out, contractProblems(x, fmt.Sprintf("%s[%d]", path, i))...)
		}
	}
	return out
}

// shape renders a document's keys and value types, one per line, lists by their first element:
// what the contract promises, without the values that change from run to run.
func shape(v any, path string) string {
	switch v := v.(type) {
	case map[string]any:
		var lines []string
		for _, k := range slices.Sorted(maps.Keys(v)) {
			lines = append(lines, shape(v[k], path+"."+k))
		}
		if len(lines) == 0 {
			return path + " {}"
		}
		return strings.Join(lines, "\n")
	case []any:
		if len(v) == 0 {
			return path + " []"
		}
		return shape(v[0], path+"[]")
	case string:
		return path + " string"
	case float64:
		return path + " number"
	case bool:
		return path + " bool"
	}
	return path + " null"
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
