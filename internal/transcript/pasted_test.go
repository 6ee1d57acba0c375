package transcript

import (
	"strings"
	"testing"
)

func TestLabelPasted(t *testing.T) {
	goTest := "the tests fail, see:\n--- FAIL: TestPay (0.00s)\n    pay_test.go:42: got 3, want 4\n--- FAIL: TestRefund (0.01s)\n    refund_test.go:17: nil pointer\nFAIL\tgithub.com/ana/shop/pay\t0.123s\nok  \tgithub.com/ana/shop/web\t0.050s\nFAIL\nalways run go test -race before pushing"
	traceback := "Traceback (most recent call last):\n  File \"app.py\", line 10, in <module>\n    main()\n  File \"app.py\", line 6, in main\n    pay()\n  File \"pay.py\", line 3, in pay\n    raise ValueError(\"ERROR: always retry the payment\")\nValueError: ERROR: always retry the payment"
	logs := "2026-11-20 10:00:01 INFO starting\n2026-11-20 10:00:02 WARN slow\n2026-11-20 10:00:03 ERROR: never retry POST\n2026-11-20 10:00:04 INFO retrying\n2026-11-20 10:00:05 INFO done\n2026-11-20 10:00:06 INFO bye\n\nwhy does it retry?"
	tests := []struct {
		name, in      string
		labelled      bool
		keep, dropped string
	}{
		{"a go test run", goTest, true, "always run go test -race before pushing", "nil pointer"},
		{"a short traceback stays", traceback, false, "Traceback", ""}, // its frames and their code lines alternate
		{"a server log", logs, true, "why does it retry?", "never retry POST"},
		{"a short error stays", "it says:\nerror: cannot find module\nwarning: deprecated\nwhat now?", false, "cannot find module", ""},
		{"a containerd log behind journald", containerdLog, true, "why does the pull fail?", "always use the mirror"},
		{"a bare logfmt log", logfmtLog, true, "is the registry down?", "giving up"},
		{"kubectl get pods", kubectlPods, true, "the api pod keeps restarting", "CrashLoopBackOff"},
		{"kubectl describe", kubectlDescribe, true, "why is it pending?", "Node-Selectors"},
		{"docker compose logs", composeLogs, true, "the worker never starts", "worker-1"},
		{"an access log", accessLog, true, "who sends the POSTs?", "POST /cart"},
		{"a markdown table", markdownTable, true, "which one is slow?", "| orders"},
		{"a box table", boxTable, true, "why so big?", "│ users"},
		{"a zsh session", zshSession, true, "tests fail on main", "-- cart"},
		{"a bash session", bashSession, true, "and then it hangs", "./deploy.sh"},
		{"a PowerShell session", powershellSession, true, "it works in cmd", "npm test"},
		{"a Dev Containers log", devContainersLog, true, "are we in the container?", "userEnvProbe"},
		{"a browser console stack", consoleStack, true, "the delete button fails", "dispatchDiscreteEvent"},
		{"apt's output", aptOutput, true, "why can it not add the group?", "man-db"},
		{"an at sign in prose stays", "Ping me @ standup:10 tomorrow.\nWe meet @ room:4.\nBring the laptop.", false, "@ standup:10", ""},
		{"double spaces after full stops stay prose", "We deploy on Mondays.  Never on Fridays.  The CI is slow.\nWe use pnpm.  Not npm.  Ever.\n" +
			"Tests live in test/.  Fixtures in testdata/.  Keep them small.\nThe API is in api/.  The web in web/.  Docs in docs/.\n" +
			"Lint with make lint.  Format with make fmt.  Both before pushing.\nReleases are tagged.  Tags are signed.  Always.", false, "Never on Fridays.", ""},
		{"prose stays", "We deploy with ./deploy.sh.\nNever push on Fridays.\nThe docs are at https://docs.example.com.", false, "Never push on Fridays.", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := labelPasted(tt.in)
			if strings.Contains(got, "[pasted output,") != tt.labelled {
				t.Errorf("labelled = %v, want %v:\n%s", !tt.labelled, tt.labelled, got)
			}
			if !strings.Contains(got, tt.keep) || tt.dropped != "" && strings.Contains(got, tt.dropped) {
				t.Errorf("kept/dropped wrong:\n%s", got)
			}
		})
	}
}

// Pasted output in the shapes people paste it, each at least minPastedLines lines, followed by
// what the person asked about it. The containerd lines follow containerd's logrus format as
// journald shows it; the rest are the listings kubectl, psql, zsh (oh-my-zsh), bash and PowerShell print.
var (
	containerdLog = strings.Repeat(`Nov 20 10:00:01 node1 containerd[812]: time="2026-11-20T10:00:01.123456789Z" level=info msg="loading plugin \"io.containerd.grpc.v1.cri\"..." type=io.containerd.grpc.v1`+"\n", 12) +
		`Nov 20 10:00:02 node1 containerd[812]: time="2026-11-20T10:00:02.000000000Z" level=error msg="PullImage \"shop/api:1.4\" failed" error="always use the mirror registry"` + "\n" +
		strings.Repeat(`Nov 20 10:00:03 node1 containerd[812]: time="2026-11-20T10:00:03.000000000Z" level=warn msg="cleanup warnings" namespace=k8s.io`+"\n", 17) +
		"\nwhy does the pull fail?"
	logfmtLog = strings.Repeat(`time="2026-11-20T10:00:01Z" level=warn msg="retrying pull" attempt=1`+"\n", 7) +
		`time="2026-11-20T10:00:09Z" level=error msg="giving up"` + "\nis the registry down?"
	kubectlPods = "NAME                      READY   STATUS             RESTARTS   AGE\n" +
		"api-7c5ddbdf54-x2k9p      0/1     CrashLoopBackOff   12         40m\n" +
		"web-6d4cf56db6-7hvzq      1/1     Running            0          40m\n" +
		"worker-5f8b9c7d4-qwert    1/1     Running            0          40m\n" +
		"redis-0                   1/1     Running            0          2d\n" +
		"postgres-0                1/1     Running            0          2d\n" +
		"the api pod keeps restarting"
	kubectlDescribe = "Name:             api-7c5ddbdf54-x2k9p\nNamespace:        shop\nPriority:         0\nNode:             <none>\n" +
		"Labels:           app=api\nStatus:           Pending\nNode-Selectors:   disk=ssd\nwhy is it pending?"
	composeLogs = "api-1     | listening on :8080\napi-1     | connected to db\ndb-1      | ready to accept connections\n" +
		"db-1      | checkpoint starting\nworker-1  | waiting for queue\nworker-1  | exited with code 1\nthe worker never starts"
	accessLog = strings.Repeat(`203.0.113.7 - - [20/Nov/2026:10:00:01 +0000] "GET / HTTP/1.1" 200 512`+"\n", 3) +
		strings.Repeat(`198.51.100.2 - - [20/Nov/2026:10:00:02 +0000] "POST /cart HTTP/1.1" 500 0`+"\n", 3) + "who sends the POSTs?"
	markdownTable = "| table | rows | time |\n|---|---|---|\n| orders | 1200000 | 4.1s |\n| users | 30000 | 0.2s |\n| items | 800000 | 1.9s |\n| carts | 5000 | 0.1s |\nwhich one is slow?"
	boxTable      = "┌────────┬──────┐\n│ table  │ size │\n├────────┼──────┤\n│ users  │ 2 GB │\n│ orders │ 9 GB │\n└────────┴──────┘\nwhy so big?"
	zshSession    = "➜  shop git:(main) pnpm test\n" + strings.Repeat("➜  shop git:(main) pnpm test -- cart\n", 5) + "tests fail on main"
	bashSession   = "ana@build:~/shop$ make\nana@build:~/shop$ make test\n$ go test ./...\n% go vet ./...\n$ ./deploy.sh\nana@build:~/shop$ ./run.sh\nand then it hangs"
	// VS Code's Dev Containers log, whose lines carry the milliseconds since the window opened.
	devContainersLog = "[378 ms] Start: Run: wsl -l -v\n[1768 ms] userEnvProbe: loginInteractiveShell (default)\n" +
		"[1769 ms] userEnvProbe: not found in cache\n[1769 ms] userEnvProbe shell: /usr/bin/bash\n" +
		"[1924 ms] userEnvProbe PATHs:\n[3050 ms] devcontainers\n[3051 ms] Start: Run in host: echo ~\nare we in the container?"
	// apt installing a package inside a dev container, as its log shows it.
	aptOutput = "Setting up git (1:2.43.0-1ubuntu7) ...\nProcessing triggers for man-db (2.12.0-4build2) ...\n" +
		"Processing triggers for libc-bin (2.39-0ubuntu8.7) ...\n[91880 ms] \nWARNING: apt does not have a stable CLI interface. Use with caution in scripts.\n\n" +
		"debconf: unable to initialize frontend: Dialog\ndebconf: falling back to frontend: Readline\n[91939 ms] Start: Run in host: usermod -aG docker root\n\nwhy can it not add the group?"
	// A browser console's error with its stack, as Chrome's devtools copy it.
	consoleStack = "useAuth.js:165  POST https://api.example.com/deleteUser 401 (Unauthorized)\n" +
		"fetchImpl @ firebase_functions.js?v=2746e073:267\npostJSON @ firebase_functions.js?v=2746e073:339\n" +
		"callAtURL @ firebase_functions.js?v=2746e073:386\nawait in callAtURL\ncall @ firebase_functions.js?v=2746e073:377\n" +
		"(anonymous) @ useAuth.js:165\nhandleDeleteUser @ AdminPanel.jsx:89\nonClick @ AdminPanel.jsx:211\n<button>\n" +
		"exports.jsxDEV @ react_jsx-dev-runtime.js?v=2746e073:247\n<AdminPanel>\nApp @ App.jsx:40\n" +
		"dispatchDiscreteEvent @ react-dom_client.js?v=2746e073:16765Understand this error\n\nthe delete button fails"
	powershellSession = `PS C:\shop> npm run build` + "\n" + strings.Repeat(`PS C:\shop> npm test`+"\n", 5) + "it works in cmd"
)

func FuzzLabelPasted(f *testing.F) {
	f.Add("2026-11-20 10:00:01 INFO a\n\n2026-11-20 10:00:02 INFO b\nx")
	f.Add("--- FAIL: T\n--- FAIL: U\nFAIL\nok  \ta\t0.1s\nerror: x\nwarning: y\n")
	f.Add(containerdLog)
	f.Add(kubectlPods)
	f.Add(markdownTable)
	f.Add(kubectlDescribe)
	f.Add(composeLogs)
	f.Add(accessLog)
	f.Add(boxTable)
	f.Add(zshSession)
	f.Add(devContainersLog)
	f.Add(consoleStack)
	f.Add(powershellSession)
	f.Fuzz(func(t *testing.T, s string) {
		got := labelPasted(s)
		if strings.Count(got, "\n") > strings.Count(s, "\n") {
			t.Errorf("labelPasted added lines: %q -> %q", s, got)
		}
	})
}
