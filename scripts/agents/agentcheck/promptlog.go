package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// promptlog checks that a Gemini CLI session whose chats/ file is gone (its session cleanup
// deleted it before any pass kept a link) is read from the folder's logs.json, the log of every
// prompt the person typed, which Gemini CLI writes beside it: in a copy of the home as Gemini CLI
// left it, the chats/ file of the first logged session is removed and `dreamd sessions` must list
// logs.json as that session, with each of its prompts a user turn and nothing else.
func promptlog(args []string) error {
	fs := newFlags("promptlog")
	home := fs.String("home", "", "a copy of the Gemini CLI HOME, before dreamd ran")
	dreamd := fs.String("dreamd", "", "the dreamd binary")
	if err := fs.Parse(args); err != nil {
		return err
	}
	c := checker{prefix: "gemini reads:"}
	logs, _ := filepath.Glob(filepath.Join(*home, ".gemini", "tmp", "*", "logs.json"))
	if len(logs) == 0 {
		c.fail("a session only logs.json holds is read", "Gemini CLI wrote no logs.json")
		return nil
	}
	var entries []struct {
		SessionID string `json:"sessionId"`
		Type      string `json:"type"`
	}
	b, err := os.ReadFile(logs[0])
	if err != nil || json.Unmarshal(b, &entries) != nil || len(entries) == 0 {
		c.fail("a session only logs.json holds is read", "logs.json holds no prompt (%v)", err)
		return nil
	}
	id, prompts := entries[0].SessionID, 0
	for _, e := range entries {
		if e.SessionID == id && e.Type == "user" {
			prompts++
		}
	}
	chats, _ := filepath.Glob(filepath.Join(filepath.Dir(logs[0]), "chats", "session-*-"+id[:min(8, len(id))]+".json*"))
	if len(chats) == 0 {
		c.fail("a session only logs.json holds is read", "session %s has no chats/ file to remove", id)
		return nil
	}
	for _, f := range chats {
		os.Remove(f)
	}
	cmd := exec.Command(*dreamd, "sessions", "--format", "json")
	cmd.Env = []string{"HOME=" + *home, "PATH=" + os.Getenv("PATH"), "XDG_CONFIG_HOME=" + filepath.Join(*home, ".config"),
		"XDG_STATE_HOME=" + filepath.Join(*home, ".local", "state"), "XDG_DATA_HOME=" + filepath.Join(*home, ".local", "share"), "NO_COLOR=1"}
	out, err := cmd.Output()
	var rep struct {
		Sessions []struct {
			ID, Path string
			Turns    struct{ User, Assistant, Tool int }
		}
	}
	if err != nil || json.Unmarshal(out, &rep) != nil {
		c.fail("a session only logs.json holds is read", "dreamd sessions: %v", err)
		return nil
	}
	c.check("a session only logs.json holds is read, its prompts once", func() error {
		var rows []string
		for _, s := range rep.Sessions {
			if filepath.Base(s.Path) != "logs.json" {
				continue
			}
			if s.ID == id && s.Turns.User == prompts && s.Turns.Assistant == 0 && s.Turns.Tool == 0 {
				return nil
			}
			rows = append(rows, fmt.Sprintf("%s: %d user, %d assistant, %d tool turns", s.ID, s.Turns.User, s.Turns.Assistant, s.Turns.Tool))
		}
		return fmt.Errorf("want %s with its %d prompt(s) as user turns; logs.json rows: [%s]", id, prompts, strings.Join(rows, "; "))
	}())
	return nil
}
