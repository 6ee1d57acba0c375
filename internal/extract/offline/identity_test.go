package offline

import (
	"strings"
	"testing"
)

func TestIdentityEvidence(t *testing.T) {
	tests := []struct {
		name  string
		turns []string
		want  []string
	}{
		{"the identity the person gave, set for the machine",
			[]string{"user: 用户名是886caigudong邮箱是ana@acme.dev", `tool: Bash: git config --global user.name "886caigudong" && git config --global user.email "ana@acme.dev"`},
			[]string{"Git commits on this machine are authored as `886caigudong <ana@acme.dev>`"}},
		{"the author the person named, committed with",
			[]string{"user: commit with name thuanpv and email is thuan@acme.dev", `tool: Bash: git commit --author="thuanpv <thuan@acme.dev>" -m "feat: add the project config"`},
			[]string{"Git commits in this project are authored as `thuanpv <thuan@acme.dev>`"}},
		{"an identity the agent found on its own is not the person's",
			[]string{"user: commit this", `tool: Bash: git config user.name "Build Bot"`},
			nil},
		{"a name inside a path the person wrote is no name they gave",
			[]string{"user: push the bot of /home/jules/infra to GitHub", `tool: Bash: git config user.email "jules@example.com" && git config user.name "Jules"`},
			nil},
		{"nor one the agent made up to get a commit through",
			[]string{"user: connect the WhatsApp user Jules", `tool: Bash: git config user.email "jules@example.com" && git config user.name "Jules"`},
			nil},
		{"or with the machine's name for an address",
			[]string{"user: connect the WhatsApp user Jules", `tool: Bash: cd /home/jules/scripts && git config user.email "jules@raspberrypi" && git config user.name "Jules" && git commit -m "backup"`},
			nil},
		{"a setting that failed is not set",
			[]string{"user: set my git name to ana-dev", `tool: Bash: git config user.name "ana-dev"`, "error: fatal: not in a git directory"},
			nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := saidIn(t, toolSession("s1", tt.turns...)); strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("memories:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}
