package main

import (
	"os"
	"strings"
	"testing"

	"github.com/dreamd/dreamd/internal/llmtest"
)

// Test credentials, built from parts so that no scanner mistakes this file for a leak.
var (
	testAWSKey    = "AKIA" + "Q3EGRT7MXZ4LBH2P"
	testAWSSecret = "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYzQ4mT8vK2uLx"
	testGitHub    = "ghp_" + "4bN7sQ1vX9zK2mT5wE8rY3uI6oP0aS7dF1gH"
)

// TestStoreSecretsNeverReachTheModel: a hand-written topic file holding credentials is sent
// redacted, the report names it, and the file is left as it is.
func TestStoreSecretsNeverReachTheModel(t *testing.T) {
	srv := llmtest.New()
	srv.Respond = func(llmtest.Request) llmtest.Reply { return llmtest.Reply{Content: llmtest.Ops("Nothing to change.")} }
	defer srv.Close()
	s := newSandbox(t, llmConfig(srv.BaseURL()))
	s.write(sessionAPath, sessionA)
	creds := "---\nname: staging-creds\ndescription: Staging access uses key " + testAWSKey + "\ntype: reference\n---\n" +
		"aws_secret_access_key = " + testAWSSecret + "\nGitHub token for the deploy bot: " + testGitHub + "\n"
	s.write(shopStore+"/staging-creds.md", creds)

	out, errOut, code := s.run("run", "--once", "--dry-run")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	for _, secret := range []string{testAWSKey, testAWSSecret, testGitHub} {
		if strings.Contains(string(reqs[0].Raw), secret) {
			t.Errorf("a credential from the store reached the model: %s…", secret[:8])
		}
	}
	if !strings.Contains(reqs[0].User(), "staging-creds") {
		t.Error("the memory itself is missing from the request")
	}
	if !strings.Contains(out, "credentials in existing memories") || !strings.Contains(out, "staging-creds") {
		t.Errorf("the report does not name the memory holding credentials:\n%s", out)
	}
	if b, _ := os.ReadFile(s.path(shopStore + "/staging-creds.md")); string(b) != creds {
		t.Error("the store file was rewritten")
	}
}

// TestControlBytesNeverBrickAStore: NUL and terminal control bytes arriving from a transcript,
// from the model and from files already in the store never reach a file dreamd writes, and the
// store keeps working.
func TestControlBytesNeverBrickAStore(t *testing.T) {
	srv := llmtest.New()
	srv.Respond = func(llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Content: llmtest.Ops("added", map[string]any{
			"action": "create", "name": "deploy-rule", "type": "project",
			"description": "Deploys \x1b[2Jgo through\x07 deploy.sh\x00", "body": "Run ./deploy.sh\x00 from a clean tree.\x1b]0;pwned\x07",
			"reason": "stated", "evidence": []string{"aaaa1111-0000-4000-8000-000000000001"},
		})}
	}
	defer srv.Close()
	s := newSandbox(t, llmConfig(srv.BaseURL()))
	s.write(sessionAPath, strings.Replace(sessionA, "deploys go", `deploys\u0000 go\u001b[31m`, 1))
	s.write(shopStore+"/hand-note.md", "---\nname: hand-note\ndescription: a note\x00 with a NUL\ntype: project\n---\nbody\x1b[0m\n")
	s.write(shopStore+"/MEMORY.md", "# Memory\n\njunk typed by hand\x00\x07\n")

	for i := range 2 {
		if out, errOut, code := s.run("run", "--once"); code != 0 {
			t.Fatalf("pass %d: exit %d\n%s%s", i+1, code, out, errOut)
		}
	}
	out, errOut, code := s.run("status")
	if code != 0 || strings.ContainsAny(out+errOut, "\x00\x1b\x07") || !strings.Contains(out, "hand-note.md") {
		t.Errorf("status: exit %d, %q", code, out)
	}
	for name, content := range snapshot(t, s.path(shopStore)) {
		if name == s.path(shopStore+"/hand-note.md") {
			if !strings.Contains(content, "\x00") {
				t.Error("the hand-written file was rewritten without a plan touching it")
			}
			continue
		}
		if strings.ContainsAny(content, "\x00\x1b\x07") {
			t.Errorf("%s holds a control byte: %q", name, content)
		}
	}
	if b, _ := os.ReadFile(s.path(shopStore + "/deploy-rule.md")); !strings.Contains(string(b), "Run ./deploy.sh from a clean tree.") {
		t.Errorf("deploy-rule.md:\n%s", b)
	}
}
