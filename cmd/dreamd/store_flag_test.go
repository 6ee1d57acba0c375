package main

import (
	"strings"
	"testing"
)

// TestUnknownStoreIsAnError: a --store that names no store is a usage error listing the stores
// dreamd knows, for every command that takes it; a known one works.
func TestUnknownStoreIsAnError(t *testing.T) {
	s := newSandbox(t, offlineConfig)
	s.write(sessionAPath, sessionA)
	for _, args := range [][]string{
		{"status"}, {"sessions"}, {"history"}, {"run", "--once", "--dry-run"},
	} {
		_, errOut, code := s.run(append(args, "--store", s.path("no/such/store"))...)
		if code != 2 || !strings.Contains(errOut, "not a memory store dreamd knows") || !strings.Contains(errOut, "-home-ana-shop") {
			t.Errorf("%v --store unknown: exit %d, want 2 listing the known store:\n%s", args, code, errOut)
		}
	}
	if _, errOut, code := s.run("run", "--once", "--dry-run", "--store", s.path(shopStore)); code != 0 {
		t.Errorf("--store of a routed store: exit %d\n%s", code, errOut)
	}
}
