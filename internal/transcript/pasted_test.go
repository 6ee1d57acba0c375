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

func FuzzLabelPasted(f *testing.F) {
	f.Add("2026-11-20 10:00:01 INFO a\n\n2026-11-20 10:00:02 INFO b\nx")
	f.Add("--- FAIL: T\n--- FAIL: U\nFAIL\nok  \ta\t0.1s\nerror: x\nwarning: y\n")
	f.Fuzz(func(t *testing.T, s string) {
		got := labelPasted(s)
		if strings.Count(got, "\n") > strings.Count(s, "\n") {
			t.Errorf("labelPasted added lines: %q -> %q", s, got)
		}
	})
}
