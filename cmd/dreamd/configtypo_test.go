package main

import (
	"strings"
	"testing"
)

// TestConfigTypoMessages: a typo in the config file is named with the file, the key it is a typo
// of, exit 2; doctor says it once ("config" is the check's name, not repeated in its detail).
func TestConfigTypoMessages(t *testing.T) {
	s := newSandbox(t, "sources: [{kind: claude, path: ~/.claude/projects}]\nllm: {offline: true, modle: gpt-5}\n")
	_, errOut, code := s.run("run", "--once")
	if code != exitUsage || !strings.Contains(errOut, "config "+s.config+": llm.modle: unknown key (did you mean llm.model?)") {
		t.Errorf("run: exit %d\n%s", code, errOut)
	}
	out, _, _ := s.run("doctor")
	if strings.Contains(out, "config: config:") || !strings.Contains(out, "did you mean llm.model?") || !strings.Contains(out, "in "+s.config) {
		t.Errorf("doctor:\n%s", out)
	}
}
