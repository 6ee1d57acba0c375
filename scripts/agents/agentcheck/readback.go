package main

import (
	"fmt"
	"strings"
)

// readback checks the digest of a pass over the sessions the CLI ran after dreamd linked its
// memory: the linked block reaches the CLI in its system prompt or instruction files, which some
// CLIs write into their transcripts (Copilot CLI's system.message), and none of it may come back
// to dreamd as material, or a pass would feed dreamd its own memory.
func readback(args []string) error {
	fs := newFlags("readback")
	agent := fs.String("agent", "", "the agent")
	digests := fs.String("digests", "", "file listing the consolidation requests of a pass after the link")
	if err := fs.Parse(args); err != nil {
		return err
	}
	c := checker{prefix: *agent + " reaches:"}
	sessions, err := readDigests(*digests)
	if err != nil {
		c.fail("dreamd's own memory is not read back", "%v", err)
		return nil
	}
	c.check("dreamd's own memory is not read back", func() error {
		for _, s := range sessions {
			if s.source != sourceKind(*agent) {
				continue // dreamd's own queue of remembered notes says the memory, rightly
			}
			for _, t := range s.turns {
				l := strings.ToLower(t.text)
				if strings.Contains(l, "dreamd:begin") || strings.Contains(l, strings.ToLower(memoryText)) || strings.Contains(l, strings.ToLower(userText)) {
					return fmt.Errorf("session %s: %s turn %q", s.id, t.role, clip(t.text, 160))
				}
			}
		}
		return nil
	}())
	return nil
}
