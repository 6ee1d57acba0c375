package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestVersionFlagAndCommand(t *testing.T) {
	s := newSandbox(t, "")
	out, _, code := s.run("--version")
	if code != 0 || !strings.HasPrefix(out, "dreamd ") || !strings.Contains(out, "commit ") {
		t.Errorf("--version: exit %d, %q", code, out)
	}
	out, _, code = s.run("version", "--format", "json")
	var b buildInfo
	if err := json.Unmarshal([]byte(out), &b); code != 0 || err != nil || b.Version == "" || b.Go == "" {
		t.Errorf("version --format json: exit %d, %v: %s", code, err, out)
	}
}

func TestHelpForAnUnknownTopicIsAUsageError(t *testing.T) {
	s := newSandbox(t, "")
	if _, errOut, code := s.run("help", "frobnicate"); code != 2 || !strings.Contains(errOut, `unknown help topic "frobnicate"`) {
		t.Errorf("help frobnicate: exit %d\n%s", code, errOut)
	}
	if out, _, code := s.run("help", "run"); code != 0 || !strings.Contains(out, "--dry-run") {
		t.Errorf("help run: exit %d\n%s", code, out)
	}
}

func TestManPages(t *testing.T) {
	s := newSandbox(t, "")
	dir := filepath.Join(t.TempDir(), "man1")
	if out, errOut, code := s.run("man", dir); code != 0 {
		t.Fatalf("man: exit %d\n%s%s", code, out, errOut)
	}
	page, err := os.ReadFile(filepath.Join(dir, "dreamd-run.1"))
	if err != nil || !strings.Contains(string(page), ".TH \"DREAMD\"") || !strings.Contains(string(page), "--dry-run") {
		t.Errorf("dreamd-run.1: %v\n%.300s", err, page)
	}
}

func TestFlagValueCompletion(t *testing.T) {
	s := newSandbox(t, "")
	out, _, code := s.run("__complete", "status", "--format", "")
	if code != 0 || !strings.Contains(out, "json\n") || !strings.Contains(out, "markdown\n") {
		t.Errorf("completing --format: exit %d\n%s", code, out)
	}
	out, _, _ = s.run("__complete", "--log-level", "")
	if !strings.Contains(out, "debug\n") {
		t.Errorf("completing --log-level:\n%s", out)
	}
}
