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
